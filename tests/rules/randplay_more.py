# Deterministic random games of Mau-Mau, the factor race and two-player sums, played the same
# way on CPython and MicroPython (randplay.py does Lobo 77 and BASTA). The inputs are drawn
# from what makes sense in the game's current phase, plus some refused ones, so that games
# reach their end. The differential test compares this file's output on both interpreters.
#   micropython randplay_more.py FIRST COUNT          one summary line per game
#   micropython randplay_more.py SEED 1 steps         every action of one game
import sys

from croupier.rules import new_game, Illegal
from randplay import Rng, NAMES, record, main

GAMES = ("maumau", "factors", "duo")
JUNK = ("x", "", "9.5", "hand:", "J", "-1", "07", "pen:9", "5y")
TRACKER = ("2", "3", "4", "5", "6", "7", "7", "8", "9", "10", "Q", "K", "A", "J:h", "J:s",
           "J:d", "J:c", "draw", "draw", "draw")
HAND_CARDS = ("2", "7", "10", "J", "Q", "K", "A")
# "stuck" here is refused unless the player is forced (duo_input offers it then anyway)
DUO_ACTIONS = ("draw", "draw", "force", "protect", "reveal", "stuck")


def pick(rng, items):
    return items[rng.below(len(items))]


def random_setup(rng):
    """(game, players, options) for a random game; options sometimes left to defaults."""
    game = pick(rng, GAMES)
    if game == "duo":
        options = {"layout": pick(rng, ("123456789", "276951438", "789456123")),
                   "target": 1 + rng.below(5)}
        return game, NAMES[:2], options if rng.below(4) else None
    players = NAMES[:2 + rng.below(4 if game == "maumau" else 5)]
    if game == "factors" or rng.below(4) == 0:
        return game, players, None
    options = {"limit": -20 - 10 * rng.below(10), "points": pick(rng, ("default", "skat")),
               "jack_finish_doubles": rng.below(2) == 1}
    return game, players, options


def maumau_input(state, rng):
    seats = len(state["players"])
    seat = rng.below(seats + 1)  # sometimes a seat that does not exist
    if state["phase"] == "count":
        if rng.below(4):
            seat = state["turn"]
        if rng.below(3):
            return "hand:%d:%d" % (seat, rng.below(50))
        return "hand:%d:%s" % (seat, ",".join(pick(rng, HAND_CARDS)
                                               for _ in range(1 + rng.below(4))))
    roll = rng.below(100)
    if all(p["hand"] in (0, 7) for p in state["players"]):  # most likely a new round
        if roll < 20:
            return "join:" + pick(rng, NAMES + ["Hal", "Ivy", "Jo"])
        if roll < 24:
            return "leave:%d" % seat
    if roll < 8:
        return "forgot:%d" % seat
    if roll < 14:
        return "out:%d" % seat + pick(rng, ("", ":J"))
    return pick(rng, TRACKER)


def factors_input(state, rng):
    seat = rng.below(len(state["players"]) + 1)
    if rng.below(5) == 0:
        return "pen:%d" % seat
    return "hand:%d:%d" % (seat, rng.below(12))


def duo_input(state, rng):
    roll = rng.below(100)
    if state["forced"] and roll < 30:
        return "stuck"
    if roll < 20:
        return pick(rng, DUO_ACTIONS)
    return str(rng.below(6)) + ("x" if roll < 26 else "")


INPUTS = {"maumau": maumau_input, "factors": factors_input, "duo": duo_input}


def step(g, game, rng):
    """One random action on g: (action, effects or the refusal reason)."""
    roll = rng.below(100)
    if roll < 4 and g.can_undo():
        return "undo", g.undo()
    if roll < 7 and g.can_redo():
        return "redo", g.redo()
    action = pick(rng, JUNK) if roll < 10 else INPUTS[game](g.state(), rng)
    try:
        return action, g.play(action)
    except Illegal as exc:
        return action, exc.reason


def play_game(seed, max_actions=2000, show=None):
    """Play one random game; return its summary (randplay.record)."""
    rng = Rng(seed)
    game, players, options = random_setup(rng)
    g = new_game(game, players, options)
    return record(seed, g, lambda: step(g, game, rng), max_actions, show)


if __name__ == "__main__":
    main(sys.argv, play_game)
