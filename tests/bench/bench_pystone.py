"""The pace's calibration (docs/virtual-board.md, "Pace"; docs/benchmarks.md, "Pace
calibration"): the figures behind croupier.sim.pace's constants, measured on this machine.

1. micropython-pystone-lowmem on the unix port at full speed, per second of the
   interpreter's CPU time (the fastest of several runs), over the ESP32's 1,300: the speed
   ratio (ESP32_SPEED_RATIO);
2. pystone on a paced board at the pacer's factor (ESP32_FACTOR): pystones/s over --runs
   runs, and per second of the budget each got;
3. the same at other factors (--sweep): the curve the factor was read off.

    .venv/bin/python tests/bench/bench_pystone.py [--runs 5] [--sweep 70,85,100]
"""
import argparse
import os
import statistics

from croupier.sim import pace, pystone

TARGET = 1300


def paced_runs(factor, runs):
    """-> (pystones/s of each run, per second of budget of each) on a board paced at factor."""
    results = [pystone.run_on_board(pace.ESP32.with_factor(factor)) for _ in range(runs)]
    return [r["pystones"] for r in results], [r["per_budget"] for r in results]


def spread(values):
    return "median %d (%d-%d)" % (statistics.median(values), min(values), max(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sweep", default="70,85,100", help="other factors to try, comma-separated ('' for none)")
    args = parser.parse_args()
    rate = pystone.cpu_rate(loops=100000)
    print("- unpaced: %d pystones per CPU-second -> speed ratio %.0f for %d (ESP32_SPEED_RATIO = %.0f)"
          % (rate, rate / TARGET, TARGET, pace.ESP32_SPEED_RATIO))
    stones, per_budget = paced_runs(pace.ESP32_FACTOR, args.runs)
    print("- paced board, factor %.0f (ESP32_FACTOR), %d runs: %s pystones/s; per second of budget used: %s"
          % (pace.ESP32_FACTOR, args.runs, spread(stones), spread(per_budget)))
    for factor in [float(f) for f in args.sweep.split(",") if f]:
        stones, per_budget = paced_runs(factor, 3)
        print("- factor %.0f, 3 runs: %s pystones/s; per second of budget used: %s"
              % (factor, spread(stones), spread(per_budget)))
    print("- host load (1 min): %.2f on %d cores" % (os.getloadavg()[0], os.cpu_count()))


if __name__ == "__main__":
    main()
