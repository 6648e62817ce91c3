"""Rules engines: inputs applied per second, rebuilding a state from 1,000 inputs, undo at the
end of a long game, and canonical dumps of a state, on CPython and on MicroPython (unix port).

    .venv/bin/python tests/bench/bench_rules.py      (runs itself under MicroPython too)

One source for both interpreters: under MicroPython this file measures and prints one JSON
line; under CPython it measures, runs itself under MicroPython, and prints a markdown table.
"""
import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"
if not IS_MICROPYTHON:
    from pathlib import Path
    ROOT = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(ROOT / "tests" / "rules"), str(ROOT / "tests" / "rules_host")]

import json

import randplay
from clock import now_us, elapsed_us
from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps

INPUTS = 1000
REPEATS = 5
# Long games: many players and tokens, and a player that mostly dodges paying.
SETUPS = [("lobo77", 8, {"tokens": 5}), ("basta", 6, {"limit": 20})]


def long_game(game, players, options):
    """The first INPUTS accepted inputs of a deterministic game that lasts at least that long."""
    rng = randplay.Rng(1)
    names = randplay.NAMES[:players]
    g = new_game(game, names, options)
    while len(g.inputs) < INPUTS:
        card = randplay.card(game, rng.below(1 << 16), players)
        try:
            state, effects = g.peek(card)
        except Illegal:
            continue
        if (effects and rng.below(8)) or state["over"]:
            continue
        g.play(card)
    return names, list(g.inputs)


def best_of(fn):
    """Fastest of REPEATS runs, in microseconds (the least disturbed by other processes)."""
    best = None
    for _ in range(REPEATS):
        start = now_us()
        fn()
        took = elapsed_us(start)
        best = took if best is None or took < best else best
    return best


def measure():
    """{game: {figure: value}} on this interpreter."""
    figures = {}
    for game, players, options in SETUPS:
        names, inputs = long_game(game, players, options)

        def rebuild():
            g = new_game(game, names, options)
            for card in inputs:
                g.play(card)
            return g

        g = rebuild()
        rebuild_us = best_of(rebuild)

        def undo_redo():
            g.undo()
            g.redo()

        state = g.state()
        figures[game] = {
            "inputs_per_s": INPUTS * 1000000 // rebuild_us,
            "rebuild_ms": rebuild_us / 1000,
            "undo_redo_ms": best_of(undo_redo) / 1000,
            "dumps_us": best_of(lambda: [dumps(state) for _ in range(100)]) / 100,
        }
    return figures


def table(cpython, micropython):
    print("| game | interpreter | inputs/s | rebuild from %d inputs (ms) | undo+redo after %d "
          "inputs (ms) | canon.dumps(state) (us) |" % (INPUTS, INPUTS))
    print("|---|---|---|---|---|---|")
    for game, _, _ in SETUPS:
        for label, figures in (("CPython %d.%d" % sys.version_info[:2], cpython),
                               ("MicroPython unix", micropython)):
            f = figures[game]
            print("| %s | %s | %d | %.1f | %.2f | %.1f |" % (
                game, label, f["inputs_per_s"], f["rebuild_ms"], f["undo_redo_ms"],
                f["dumps_us"]))


def main():
    if IS_MICROPYTHON:
        print(json.dumps(measure()))
        return
    from rules_mp import run_micropython
    result = run_micropython(Path(__file__), timeout=600)
    if result.returncode:
        raise SystemExit("bench_rules failed on MicroPython:\n" + result.stderr)
    table(measure(), json.loads(result.stdout.splitlines()[-1]))


main()
