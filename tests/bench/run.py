"""`make bench`: run every tests/bench/bench_*.py in turn and print their figures.

    .venv/bin/python tests/bench/run.py [NAME ...]    (NAME: e.g. rules, to run bench_rules.py)
"""
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
TIMEOUT_S = 1800  # one benchmark may flash a board or sync thousands of records


def main(names):
    scripts = sorted(BENCH_DIR.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem[len("bench_"):] in names]
    failed = []
    for script in scripts:
        print("\n## %s\n" % script.name, flush=True)
        start = time.monotonic()
        try:
            code = subprocess.run([sys.executable, str(script)], cwd=ROOT,
                                  timeout=TIMEOUT_S).returncode
        except subprocess.TimeoutExpired:
            code = "timeout after %d s" % TIMEOUT_S
        if code:
            failed.append("%s (%s)" % (script.name, code))
        print("\n(%s: %.0f s)" % (script.name, time.monotonic() - start), flush=True)
    if failed:
        raise SystemExit("failed: " + ", ".join(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
