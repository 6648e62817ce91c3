# Deterministic random games, played identically on CPython and MicroPython: the differential
# test runs this file on both interpreters and compares the output byte for byte; the property
# tests and the benchmark reuse its decks and setups.
#   micropython randplay.py FIRST COUNT          one summary line per game (seeds FIRST..)
#   micropython randplay.py SEED 1 steps         every action of one game (to find a mismatch)
import sys
from binascii import crc32

from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps

MASK = 0xFFFFFFFF


class Rng:
    """xorshift32: tiny, and the same numbers on every interpreter."""

    def __init__(self, seed):
        self.x = ((seed + 1) * 2654435761) & MASK or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & MASK
        x ^= x >> 17
        x ^= (x << 5) & MASK
        self.x = x
        return x % n


def _cards(spec):
    """Expand "card*count ..." into a list (a deck with the cards' real frequencies)."""
    deck = []
    for item in spec.split():
        card, _, count = item.partition("*")
        deck.extend([card] * int(count or 1))
    return deck


# Real decks plus some refused inputs; a card ending in ":" gets a seat appended
# (one more than the table has, so bad seats come up too).
JUNK = "x 9.5 dbl 07"
DECKS = {
    "lobo77": _cards("2*3 3*3 4*3 5*3 6*3 7*3 8*3 9*3 10*8 0*4 -10*4 2x*4 rev*5 "
                     "11 22 33 44 55 66 76 end*2 " + JUNK),
    "basta": _cards("1*3 2*3 3*3 4*3 5*3 6*3 7*3 8*3 9*3 10*3 0*3 rev*4 swap*2 swap:*2 "
                    "dbl:*3 basta*2 -5*4 " + JUNK),
}
NAMES = ["Ann", "Bob", "Cy", "Zo\u00e9", "Dee", "\u00c9mile", "Fay", "Gus"]


def card(game, choice, seats):
    """The card that the whole number choice stands for in game's deck."""
    deck = DECKS[game]
    picked = deck[choice % len(deck)]
    if picked[-1] == ":":
        picked += str((choice // len(deck)) % (seats + 1))
    return picked


def random_setup(rng):
    """(game, players, options) for a random game; options sometimes left to defaults."""
    game = ("lobo77", "basta")[rng.below(2)]
    low, high = (2, 8) if game == "lobo77" else (2, 6)
    players = NAMES[:low + rng.below(high - low + 1)]
    if rng.below(4) == 0:
        return game, players, None
    if game == "lobo77":
        options = {"tokens": 1 + rng.below(5), "negative_doublets": rng.below(2) == 1,
                   "strict_winner": rng.below(2) == 1}
    else:
        options = {"limit": 1 + rng.below(6)}
    return game, players, options


def random_step(g, game, seats, rng):
    """One random action on g: mostly a card from the deck, now and then undo or redo.
    Returns (action, effects or the refusal's reason)."""
    roll = rng.below(100)
    if roll < 4 and g.can_undo():
        return "undo", g.undo()
    if roll < 7 and g.can_redo():
        return "redo", g.redo()
    action = card(game, rng.below(1 << 16), seats)
    try:
        return action, g.play(action)
    except Illegal as exc:
        return action, exc.reason


def record(seed, g, next_step, max_actions, show=None):
    """Call next_step() -> (action, effects) until g is over (or max_actions); return the
    game's summary: setup, inputs, final state, and a CRC of every step's canonical dump."""
    trail = 0
    state = g.state()
    for _ in range(max_actions):
        if state["over"]:
            break
        action, effects = next_step()
        state = g.state()
        step = dumps([action, effects, state])
        trail = crc32(step.encode(), trail)
        if show:
            show(step)
    return {"seed": seed, "setup": g.setup(), "inputs": g.inputs, "state": state,
            "trail": trail}


def play_game(seed, max_actions=600, show=None):
    """Play one random game of Lobo 77 or BASTA (with undo/redo and refused cards)."""
    rng = Rng(seed)
    game, players, options = random_setup(rng)
    g = new_game(game, players, options)
    return record(seed, g, lambda: random_step(g, game, len(players), rng), max_actions, show)


def main(argv, play=play_game):
    """argv: FIRST COUNT [steps]; prints one summary line per game (or every step)."""
    first, count = int(argv[1]), int(argv[2])
    show = print if argv[3:] == ["steps"] else None
    for seed in range(first, first + count):
        print(dumps(play(seed, show=show)))


if __name__ == "__main__":
    main(sys.argv)
