"""The pace's calibration and the throttle's accuracy (docs/virtual-board.md, "Pace"):

1. micropython-pystone-lowmem on the unix port at full speed, per second of the
   interpreter's CPU time, with a board's heap: over the chip's 1,300, the factor the
   benchmarks compute the chip's time with (tests/bench/chiptime.py);
2. pystone on a board throttled at pace.ESP32_THROTTLE, --runs runs: the spread of its
   scores is the throttle's accuracy, and the median says which throttle factor would
   centre them on the chip's score.

    .venv/bin/python tests/bench/bench_pystone.py [--runs 16]
"""
import argparse
import os
import statistics

from chiptime import cpu_rate
from croupier.sim import FIRMWARE_HEAP, calibrate, pace, toolchain
from croupier.sim.board import SIM_HEAP


def spread(values, form="%d"):
    return ("median " + form + " (" + form + "-" + form + ")") % (statistics.median(values), min(values), max(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=16)
    args = parser.parse_args()
    chip = pace.ESP32.pystones
    rate = cpu_rate(toolchain.heap_bytes(FIRMWARE_HEAP) + SIM_HEAP)
    print("- unpaced: %d pystones per CPU-second -> factor %.0f for the chip's %d" % (rate, rate / chip, chip))
    runs = [calibrate.run_on_board("esp32") for _ in range(args.runs)]
    stones = sorted(run["pystones"] for run in runs)
    median = statistics.median(stones)
    print("- throttled at %.0f, %d runs: %s pystones/s (an ESP32: 1,075-1,661); spread %+.0f %% to %+.0f %% "
          "of the median; the board's CPU share of its budget %s; factor %.0f would centre them on %d; "
          "pacer real-time: %s" % (pace.ESP32_THROTTLE, args.runs, spread(stones), 100 * (stones[0] / median - 1),
                                   100 * (stones[-1] / median - 1),
                                   spread([run["cpu_share"] for run in runs], "%.2f"),
                                   pace.ESP32_THROTTLE * median / chip, chip, runs[0]["realtime"]))
    print("- all scores: %s" % ", ".join(str(s) for s in stones))
    print("- host load (1 min): %.2f on %d cores" % (os.getloadavg()[0], os.cpu_count()))


if __name__ == "__main__":
    main()
