# Whole Mau-Mau games between computer players, the same on CPython and MicroPython: the
# differential test runs this file on both interpreters and compares the lines; the benchmark
# times it.
#   micropython maumau_selfplay.py FIRST COUNT [STRENGTH]   one line per game (seeds FIRST..)
# A game's seed picks its table (2-5 seats, a strength each, or all STRENGTH) and deals.
import sys
from binascii import crc32

from croupier.rules import new_game
from croupier.rules.canon import dumps
from croupier.rules.maumau_bots import Bot, play_round
from croupier.rules.prng import Rng

NAMES = ["Ann", "Bob", "Cy", "Zo\u00e9", "Dee"]


def table(seed, strength=None):
    """(names, strengths, options) of game seed."""
    rng = Rng(seed)
    seats = 2 + rng.below(4)
    strengths = [strength or 1 + rng.below(4) for _ in range(seats)]
    return NAMES[:seats], strengths, {"limit": -20 - 10 * rng.below(9)}


def play_game(seed, strength=None):
    """Play game seed to its end; (game, rounds played)."""
    names, strengths, options = table(seed, strength)
    g = new_game("maumau_match", names, options)
    bots = [Bot(s, seed * 8 + seat) for seat, s in enumerate(strengths)]
    deals = Rng(seed + 1000003)
    rounds = 0
    while not g.over:
        play_round(g, bots, deals)
        rounds += 1
    return g, rounds


def summary(seed, strength=None):
    g, rounds = play_game(seed, strength)
    state = dumps(g.state())
    return "%d %d %d %s %08x" % (seed, rounds, len(g.inputs), dumps(g.winners),
                                 crc32(state.encode()) & 0xFFFFFFFF)


def main(argv):
    first, count = int(argv[1]), int(argv[2])
    strength = int(argv[3]) if len(argv) > 3 else None
    for seed in range(first, first + count):
        print(summary(seed, strength))


if __name__ == "__main__":
    main(sys.argv)
