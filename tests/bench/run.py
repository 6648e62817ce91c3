"""`make bench`: run every tests/bench/bench_*.py in turn, print their figures, and sum up
the targets they report (lines `target NAME: FIGURE (target LIMIT): holds|FAILS`). A bench
that takes --micropython-version runs on each of RELEASES.

    .venv/bin/python tests/bench/run.py [NAME ...]    (NAME: e.g. rules, to run bench_rules.py)
"""
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
TIMEOUT_S = 1800  # one benchmark may flash a board or sync thousands of records
RELEASES = ("1.23", "1.28")  # the oldest and newest MicroPython the firmware supports


def run(command, targets):
    """Run one bench, echoing its output; its target lines go into targets. -> its failure or None."""
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    timed_out = []

    def kill():  # reading its output blocks, so a hung bench is ended from another thread
        timed_out.append(True)
        proc.kill()

    timer = threading.Timer(TIMEOUT_S, kill)
    timer.start()
    try:
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith("target "):
                targets.append("%s [%s]" % (line.strip(), " ".join(command[1:]).replace(str(BENCH_DIR) + "/", "")))
        code = proc.wait()
    finally:
        timer.cancel()
    return "timeout after %d s" % TIMEOUT_S if timed_out else code or None


def main(names):
    scripts = sorted(BENCH_DIR.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem[len("bench_"):] in names]
    failed, targets = [], []
    for script in scripts:
        versions = RELEASES if "--micropython-version" in script.read_text() else (None,)
        for version in versions:
            command = [sys.executable, str(script)] + (["--micropython-version", version] if version else [])
            print("\n## %s%s\n" % (script.name, " (MicroPython %s)" % version if version else ""), flush=True)
            start = time.monotonic()
            code = run(command, targets)
            if code:
                failed.append("%s (%s)" % (" ".join(command[1:]), code))
            print("\n(%s: %.0f s)" % (script.name, time.monotonic() - start), flush=True)
    if targets:
        print("\n## targets at the ESP32's pace (computed: docs/benchmarks.md)\n")
        for line in targets:
            print("- " + line)
    if failed:
        raise SystemExit("failed: " + ", ".join(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
