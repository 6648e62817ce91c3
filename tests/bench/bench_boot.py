"""Boot at the ESP32's pace, computed and repeated (docs/benchmarks.md, "Boot at pace"):
bench_pace.py's boot figure (fill_journal, boot_time) --runs times on each journal.

    .venv/bin/python tests/bench/bench_boot.py [--games 1000] [--runs 5]
"""
import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from bench_pace import boot_time, fill_journal


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for games in (1, args.games):
            filled = Path(tmp) / ("filled-%d.img" % games)
            glass, records = fill_journal(filled, games)
            seconds = []
            for _ in range(args.runs):  # each boot on a copy: a boot writes to the journal
                flash = Path(tmp) / "boot.img"
                shutil.copyfile(filled, flash)
                seconds.append(boot_time(flash, glass))
            got = [s for s in seconds if s is not None]
            missed = len(seconds) - len(got)
            print("- journal of %d games (%d records): median %.2f s, max %.2f s (%s)%s" % (
                games, records, statistics.median(got), max(got),
                ", ".join("%.2f" % s for s in got),
                "; %d not within 60 s" % missed if missed else ""))


if __name__ == "__main__":
    main()
