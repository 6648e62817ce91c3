"""Virtual board start-up: how long until the interpreter is up on its flash.

    .venv/bin/python tests/bench/bench_sim.py

Cold: no cached image template (format + install the firmware, then boot). Warm: a fresh
image copied from the cached template. Existing: a board on an image that is already there
(a restart). Also: hard reset, and a stock `mpremote exec` round trip (soft reset included).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPEATS = 5


def timed_start(**kwargs):
    from croupier.sim import VirtualBoard

    board = VirtualBoard(**kwargs)
    start = time.monotonic()
    board.start()
    board.wait_boot(timeout=60)
    return time.monotonic() - start, board


def row(name, samples):
    print("| %s | %.0f | %.0f |" % (name, 1000 * statistics.median(samples), 1000 * min(samples)))


def main():
    os.environ["CROUPIER_CACHE"] = tempfile.mkdtemp(prefix="bench-sim-cache-")  # cold: no templates yet
    from croupier.build import build_firmware

    build_firmware()  # the firmware build is the lead's cache, not what we time here
    work = Path(tempfile.mkdtemp(prefix="bench-sim-"))
    cold, warm, existing, reset, exec_rt = [], [], [], [], []
    for i in range(REPEATS):
        if i:  # a new firmware hash each round would be the cold case: drop the templates instead
            for template in Path(os.environ["CROUPIER_CACHE"], "sim").glob("flash-*.img"):
                template.unlink()
        elapsed, board = timed_start(flash=work / ("cold%d.img" % i))
        cold.append(elapsed)
        board.close()
        elapsed, board = timed_start()
        warm.append(elapsed)
        boots = board.boots
        start = time.monotonic()
        board.hard_reset()
        board.wait_boot(boots + 1)
        reset.append(time.monotonic() - start)
        start = time.monotonic()
        subprocess.run([str(ROOT / ".venv" / "bin" / "mpremote"), "connect", board.port, "exec", "print(1)"],
                       check=True, capture_output=True, timeout=60)
        exec_rt.append(time.monotonic() - start)
        board.close()
        elapsed, board = timed_start(flash=work / ("cold%d.img" % i))
        existing.append(elapsed)
        board.close()
    print("Virtual board, %d runs, python %s, `start()` until the interpreter is up (BOOTED)\n"
          % (REPEATS, sys.version.split()[0]))
    print("| case | median (ms) | best (ms) |\n|---|---|---|")
    row("start, fresh image, no cached template (format + install firmware)", cold)
    row("start, fresh image from the cached template", warm)
    row("start on an existing image", existing)
    row("hard_reset() until up again", reset)
    row("`mpremote exec \"print(1)\"` (connect, soft reset, run)", exec_rt)


if __name__ == "__main__":
    main()
