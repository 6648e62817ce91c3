"""The pace's calibration (docs/virtual-board.md, "Pace"; docs/benchmarks.md, "Pace
calibration"): the figures behind croupier.sim.pace's and croupier.sim.pacer's constants,
measured on this machine.

1. micropython-pystone-lowmem on the unix port at full speed, per second of the
   interpreter's CPU time (the fastest of several runs), over the ESP32's 1,300: the speed
   ratio (ESP32_SPEED_RATIO);
2. pystone on a paced board, the gauge setting the factor: pystones/s over --runs runs, the
   factor each ran at, how closely the score follows the factor (the slope of log score on
   log factor: 0 when the gauge follows the host as the board does, below 0 when it moves
   more), and the board's share of the gauge's speed (pacer.BOARD_SHARE) that would have
   centred the median on 1,300 (to first order: the score is in inverse proportion to it,
   as the factor is in proportion);
3. the same at fixed factors (--sweep): what a CPU-second of this host does paced.

    .venv/bin/python tests/bench/bench_pystone.py [--runs 10] [--sweep 74,100]
"""
import argparse
import math
import os
import statistics

from croupier.sim import pace, pacer, pystone


def spread(values, form="%d"):
    return ("median " + form + " (" + form + "-" + form + ")") % (statistics.median(values), min(values), max(values))


def slope(factors, scores):
    """The least-squares slope of log score on log factor."""
    xs, ys = [math.log(f) for f in factors], [math.log(s) for s in scores]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sum((x - mx) ** 2 for x in xs) or 1.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--sweep", default="74,100", help="fixed factors to try, comma-separated ('' for none)")
    args = parser.parse_args()
    rate = pystone.cpu_rate(loops=100000)
    print("- unpaced: %d pystones per CPU-second -> speed ratio %.0f for %d (ESP32_SPEED_RATIO = %.0f)"
          % (rate, rate / pacer.CHIP_PYSTONES, pacer.CHIP_PYSTONES, pace.ESP32_SPEED_RATIO))
    runs = [pystone.run_on_board("esp32") for _ in range(args.runs)]
    stones = [run["pystones"] for run in runs]
    print("- paced board, gauged, %d runs: %s pystones/s (an ESP32: 1,075-1,661); factor %s; slope %.2f; "
          "BOARD_SHARE %.2f would centre it (now %.2f)"
          % (args.runs, spread(stones), spread([run["factor"] for run in runs], "%.0f"),
             slope([run["factor"] for run in runs], stones),
             pacer.BOARD_SHARE * statistics.median(stones) / pacer.CHIP_PYSTONES, pacer.BOARD_SHARE))
    for factor in [float(f) for f in args.sweep.split(",") if f]:
        results = [pystone.run_on_board(pace.ESP32.with_factor(factor)) for _ in range(3)]
        print("- fixed factor %.0f, 3 runs: %s pystones/s; per second of budget used: %s"
              % (factor, spread([r["pystones"] for r in results]), spread([r["per_budget"] for r in results])))
    print("- host load (1 min): %.2f on %d cores" % (os.getloadavg()[0], os.cpu_count()))


if __name__ == "__main__":
    main()
