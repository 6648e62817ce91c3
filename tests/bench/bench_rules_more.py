"""Mau-Mau, factor race and two-player sums engines on the MicroPython unix port, loaded as
.mpy like on the board: heap taken by the game's module, heap held by a whole game (state,
inputs, round checkpoints), and inputs replayed per second.

    .venv/bin/python tests/bench/bench_rules_more.py   (runs itself under MicroPython)

Under CPython it builds the firmware (croupier.build), runs itself under MicroPython with
the compiled rules first on the path, and prints a markdown table.
"""
import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"
GAMES = ("maumau", "factors", "duo")
SEEDS = 40      # the longest of the random games 0..SEEDS-1 of each kind is measured
REPEATS = 3


def longest_games():
    """{game: (setup, inputs)}: the longest random game of each kind (randplay_more)."""
    import randplay_more
    found = {}
    for seed in range(SEEDS):
        summary = randplay_more.play_game(seed)
        setup = summary["setup"]
        best = found.get(setup["game"])
        if best is None or len(summary["inputs"]) > len(best[1]):
            found[setup["game"]] = (setup, summary["inputs"])
    return found


def measure():
    """One JSON line: {game: {figure: value}} (MicroPython only)."""
    import gc
    import json
    import time
    from croupier.rules import new_game
    import croupier.rules.cards  # shared by the games: not counted in the first one's figure
    figures = {}
    for game in GAMES:  # before any game is played: each import is measured on its own
        gc.collect()
        free = gc.mem_free()
        __import__("croupier.rules." + game)
        gc.collect()
        figures[game] = {"module_b": free - gc.mem_free()}
    games = longest_games()
    for game in GAMES:
        setup, inputs = games[game]

        def replay():
            g = new_game(game, setup["players"], setup["options"])
            for card in inputs:
                g.play(card)
            return g

        best = None
        for _ in range(REPEATS):
            start = time.ticks_us()
            replay()
            took = time.ticks_diff(time.ticks_us(), start)
            best = took if best is None or took < best else best
        gc.collect()
        free = gc.mem_free()
        g = replay()
        gc.collect()
        figures[game].update({"game_b": free - gc.mem_free(), "inputs": len(inputs),
                              "rounds": g.state()["round"],
                              "inputs_per_s": len(inputs) * 1000000 // best})
        del g
    print(json.dumps(figures))


def main():
    import json
    import os
    import subprocess
    from pathlib import Path

    from croupier.build import build_firmware
    from croupier.paths import micropython_binary

    root = Path(__file__).resolve().parents[2]
    staging = build_firmware()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(staging),
                                                         str(root / "tests" / "rules")]))
    result = subprocess.run([micropython_binary(), "-X", "heapsize=1M", __file__], env=env,
                            capture_output=True, text=True, timeout=600)
    if result.returncode:
        raise SystemExit("bench_rules_more failed on MicroPython:\n" + result.stderr)
    figures = json.loads(result.stdout.splitlines()[-1])
    print("| game | module heap (bytes) | game heap (bytes) | inputs | rounds | inputs/s |")
    print("|---|---|---|---|---|---|")
    for game in GAMES:
        f = figures[game]
        print("| %s | %d | %d | %d | %d | %d |" % (game, f["module_b"], f["game_b"],
                                                   f["inputs"], f["rounds"],
                                                   f["inputs_per_s"]))


if IS_MICROPYTHON:
    measure()
elif __name__ == "__main__":
    main()
