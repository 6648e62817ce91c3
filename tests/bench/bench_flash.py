"""Wall time of `croupier flash` on a virtual board whose serial line is throttled to 115200
baud (a CP210x/CH340 board): a full copy against a no-change run.

    .venv/bin/python tests/bench/bench_flash.py
"""
import subprocess
import sys
import time
from pathlib import Path

from croupier.build import build_firmware, read_manifest
from croupier.deploy import Mpremote
from croupier.sim import VirtualBoard

CROUPIER = [sys.executable, "-m", "croupier.cli"]
REPEATS = 3


def timed_flash(port):
    start = time.monotonic()
    proc = subprocess.run(CROUPIER + ["flash", "--port", port], capture_output=True, text=True, timeout=600)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit("croupier flash failed:\n" + proc.stdout + proc.stderr)
    return elapsed, proc.stdout.strip().splitlines()[-1]


def wipe_firmware(port, manifest):
    Mpremote(port).run("exec", "import os\nfor p in %r:\n    os.remove(p)" % sorted(manifest))


def main():
    staging = build_firmware()
    manifest = read_manifest(staging)
    size = sum((Path(staging) / p).stat().st_size for p in manifest)
    full, unchanged = [], []
    with VirtualBoard() as vb:
        vb.faults(baud=115200)
        for _ in range(REPEATS):
            wipe_firmware(vb.port, manifest)
            full.append(timed_flash(vb.port))
            unchanged.append(timed_flash(vb.port))
    best = lambda runs: min(t for t, _ in runs)  # noqa: E731
    print("firmware: %d files, %d bytes; serial line at 115200 baud" % (len(manifest), size))
    print("| croupier flash | best of %d (s) | what it reported |" % REPEATS)
    print("|---|---|---|")
    print("| full copy (board wiped) | %.2f | %s |" % (best(full), full[0][1]))
    print("| no change | %.2f | %s |" % (best(unchanged), unchanged[0][1]))


if __name__ == "__main__":
    main()
