"""Mau-Mau against the computer: the strength ladder, strength 5 against three strength-1
players, time per decision per strength, and engine speed on CPython and MicroPython.

    .venv/bin/python tests/bench/bench_maumau.py [--rounds N] [--processes P] [--only PART]

--rounds: rounds per ladder pairing (default 2000); --table-rounds: rounds of strength 5
against three strength-1 players (default 500: they are long); --processes: worker processes for the rounds
(default 2, at most 2: the machine is shared); --only: ladder, table, time or speed.
Rounds are played as `croupier play maumau --tournament` plays them (each deal once from
every seat), split into slices that the workers play apart; the sums do not depend on P.
Exits 1 when a requirement fails: each strength wins more than half of its head-to-head
rounds against the one below (Wilson 95% lower bound above 0.5); strength 5 goes out first
in at least 40% of its rounds against three strength-1 players; strength 5 decides in a
median of at most 200 ms and at most 1 s on CPython.

One source for both interpreters: under MicroPython this file only measures engine speed
and prints one JSON line.
"""
import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"
if not IS_MICROPYTHON:
    from pathlib import Path
    ROOT = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(ROOT / "tests" / "rules"), str(ROOT / "tests" / "rules_host")]

import json

from clock import now_us, elapsed_us
from croupier.rules import new_game
from croupier.rules.maumau_bots import Bot, play_round
from croupier.rules.prng import Rng

SPEED_GAMES = 10  # whole 4-player games of random legal play (strength 1), limit -100
SPEED_NAMES = ["Ann", "Bob", "Cy", "Dee"]
TIME_ROUNDS = 20  # 4-player rounds per strength for the decision times
HEAP = "16M"  # random play makes long rounds: the unix port's default 2 MB heap fragments


def engine_speed():
    """{"games_per_s", "inputs_per_s"} for whole games of random legal play."""
    inputs = 0
    start = now_us()
    for seed in range(SPEED_GAMES):
        g = new_game("maumau_match", SPEED_NAMES)
        bots = [Bot(1, seed * 8 + seat) for seat in range(4)]
        deals = Rng(seed)
        while not g.over:
            play_round(g, bots, deals)
        inputs += len(g.inputs)
    took = elapsed_us(start)
    return {"games_per_s": SPEED_GAMES * 1e6 / took, "inputs_per_s": inputs * 1e6 / took,
            "inputs_per_game": inputs // SPEED_GAMES}


if IS_MICROPYTHON:
    print(json.dumps(engine_speed()))
    raise SystemExit(0)

import argparse
import statistics
import subprocess
import time
from multiprocessing import Pool

from croupier.maumau_tournament import merged, play_rounds, wilson
from croupier.paths import micropython_binary
from rules_mp import micropython_env

LADDER = [(2, 1), (3, 2), (4, 3), (5, 4)]
TABLE = [5, 1, 1, 1]
SEED = 2026
SLICE = 50  # rounds per work item
NOT_CARDS = ("draw", "mau")


def _slice(job):
    lineup, first, count = job
    return play_rounds(lineup, count, SEED, first=first)


def tournament(pool, lineup, rounds):
    jobs = [(lineup, first, min(SLICE, rounds - first)) for first in range(0, rounds, SLICE)]
    return merged(pool.map(_slice, jobs) if pool else [_slice(job) for job in jobs])


def ladder(pool, rounds):
    print("### Strength ladder: head to head, %d rounds per pairing\n" % rounds)
    print("| pairing | rounds won by the stronger | share | 95% interval | points (stronger / weaker) | seconds |")
    print("|---|---|---|---|---|---|")
    ok = True
    for strong, weak in LADDER:
        start = time.perf_counter()
        r = tournament(pool, [strong, weak], rounds)
        low, high = wilson(r["won"][0], rounds)
        ok = ok and low > 0.5
        print("| %d vs %d | %d | %.1f%% | %.1f%% - %.1f%% | %d / %d | %.0f |" % (
            strong, weak, r["won"][0], 100.0 * r["won"][0] / rounds, 100 * low, 100 * high,
            r["points"][0], r["points"][1], time.perf_counter() - start))
    print()
    return ok


def against_three(pool, rounds):
    start = time.perf_counter()
    r = tournament(pool, TABLE, rounds)
    share = r["won"][0] / rounds
    low, high = wilson(r["won"][0], rounds)
    print("### Strength 5 against three strength-1 players, %d rounds\n" % rounds)
    print("| seat | strength | went out first | share | 95% interval |")
    print("|---|---|---|---|---|")
    for seat, won in enumerate(r["won"]):
        lo, hi = wilson(won, rounds)
        print("| %d | %d | %d | %.1f%% | %.1f%% - %.1f%% |" % (
            seat, TABLE[seat], won, 100.0 * won / rounds, 100 * lo, 100 * hi))
    print("\n(%.0f s; an even share is 25%%)\n" % (time.perf_counter() - start))
    return share >= 0.40 and low > 0.25


def decision_times():
    """Per strength: a 4-player table (the strength at seat 0, strength 3 elsewhere), every
    decision of seat 0 timed; also those with a real choice (2 or more cards that fit)."""
    print("### Time per decision on CPython %d.%d (4 players, %d rounds each)\n"
          % (sys.version_info[0], sys.version_info[1], TIME_ROUNDS))
    print("| strength | decisions | median (ms) | max (ms) | with a choice | median (ms) | max (ms) |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for strength in (1, 2, 3, 4, 5):
        every, chosen = [], []
        for r in range(TIME_ROUNDS):
            g = new_game("maumau_match", SPEED_NAMES, {"starter": r % 4})
            bots = [Bot(strength if seat == 0 else 3, r * 8 + seat) for seat in range(4)]
            g.play("deal:%d" % Rng(r).word())
            while g.phase == "play":
                seat = g.turn
                view = g.view(seat)
                start = time.perf_counter()
                pick = bots[seat].choose(view)
                took = (time.perf_counter() - start) * 1000
                if seat == 0:
                    every.append(took)
                    if len(set(x.split(":")[0] for x in view["legal"] if x not in NOT_CARDS)) > 1:
                        chosen.append(took)
                g.play(pick)
        print("| %d | %d | %.3f | %.1f | %d | %.3f | %.1f |" % (
            strength, len(every), statistics.median(every), max(every), len(chosen),
            statistics.median(chosen), max(chosen)))
        if strength == 5:
            ok = statistics.median(every) <= 200 and statistics.median(chosen) <= 200 \
                and max(every) <= 1000
    print()
    return ok


def speeds():
    cpython = engine_speed()
    result = subprocess.run([micropython_binary(), "-X", "heapsize=" + HEAP, __file__],
                            env=micropython_env(), capture_output=True, text=True,
                            timeout=1200, cwd=ROOT)
    if result.returncode:
        raise SystemExit("bench_maumau failed on MicroPython:\n" + result.stderr)
    micro = json.loads(result.stdout.splitlines()[-1])
    print("### Engine speed: whole 4-player games of random legal play (strength 1)\n")
    print("| interpreter | games/s | inputs/s | inputs per game |")
    print("|---|---|---|---|")
    for label, f in (("CPython %d.%d" % sys.version_info[:2], cpython),
                     ("MicroPython unix", micro)):
        print("| %s | %.2f | %.0f | %d |" % (label, f["games_per_s"], f["inputs_per_s"],
                                            f["inputs_per_game"]))
    print()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--table-rounds", type=int, default=500)
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2))
    parser.add_argument("--only", choices=("ladder", "table", "time", "speed"))
    args = parser.parse_args(argv)
    failed = []
    pool = Pool(args.processes) if args.processes > 1 else None
    try:
        if args.only in (None, "speed"):
            speeds()
        if args.only in (None, "time") and not decision_times():
            failed.append("strength 5 decides too slowly")
        if args.only in (None, "table") and not against_three(pool, args.table_rounds):
            failed.append("strength 5 goes out first in under 40% against three strength-1")
        if args.only in (None, "ladder") and not ladder(pool, args.rounds):
            failed.append("a strength does not beat the one below with 95% confidence")
    finally:
        if pool:
            pool.close()
            pool.join()
    if failed:
        raise SystemExit("bench_maumau: " + "; ".join(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
