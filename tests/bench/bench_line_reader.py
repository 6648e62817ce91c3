"""The paced line into the board against a reader whose pace is known (docs/benchmarks.md,
"The paced line against a known reader"): a main.py that takes every byte waiting, then works for a fixed
stretch of the chip's time, over and over, while the host sends --bytes at 115200 baud.

A chip that reads every `interval` ms holds at most interval x 11.52 bytes plus what its
UART's FIFO keeps below its 120-byte batch, so up to a ~23 ms interval it loses nothing
into its 260 + 128 bytes. What the paced board loses below that is the model's, not the
reader's. The work's length in the chip's time is the pacer's factor times its host
time, measured on the unix port unpaced.

    .venv/bin/python tests/bench/bench_line_reader.py [--runs 3] [--intervals 0.2,5,10,20]
"""
import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

import serial

from croupier.sim import VirtualBoard, toolchain
from croupier.sim.uart import BATCH
from croupier.sim.pace import ESP32

LOOPS = 200000  # to time one pass of the work loop unpaced
WORK = """import time
def work(n):
    for _ in range(n):
        pass
"""
READER = WORK + """import select, sys
stdin, one = sys.stdin.buffer, bytearray(1)
waiting = select.poll()
waiting.register(stdin, select.POLLIN)
want, got, quiet_since = %d, 0, None
print("reading")
while got < want and (quiet_since is None or time.ticks_diff(time.ticks_ms(), quiet_since) < 1500):
    work(%d)
    took = 0
    while any(True for _ in waiting.ipoll(0)):  # a byte at a time while one waits, as the firmware
        took += stdin.readinto(one)
    got += took
    if took:
        quiet_since = time.ticks_ms()
print("done", got)
"""


def pass_ns(runs=5):
    """Host time of one pass of the reader's work loop, unpaced: the fastest of `runs` (a
    busy host only ever slows a run; single runs on the build VM gave 29 to 70 ns)."""
    code = WORK + "t = time.ticks_us()\nwork(%d)\nprint(time.ticks_diff(time.ticks_us(), t))" % LOOPS
    return min(int(subprocess.run([toolchain.micropython(), "-c", code], capture_output=True, text=True,
                                  check=True).stdout) * 1000 / LOOPS for _ in range(runs))


def run(passes, total):
    """-> (the receive buffer's fullest, bytes lost) for one reader working `passes` a round."""
    work = Path(tempfile.mkdtemp(prefix="croupier-reader-"))
    try:
        (work / "main.py").write_text(READER % (total, passes))
        # at a fixed factor: the reader's pace in the chip's time is then known
        with VirtualBoard(firmware=work, flash=work / "flash.img", pace=ESP32.with_factor(ESP32.factor)) as vb:
            mark = vb.wait_output(b"reading\r\n", timeout=30) and vb.mark()
            vb.rx_peak = 0
            with serial.Serial(vb.port, 115200, timeout=0.1) as port:
                port.write(b"x" * total)
                vb.wait_output(b"done", timeout=60, since=mark)
            return vb.rx_peak, vb.rx_overflow
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=3000)
    parser.add_argument("--intervals", default="0.2,5,10,20", help="ms of the chip's time between two reads")
    args = parser.parse_args()
    per_pass = pass_ns()
    print("- one pass of the work loop: %.1f ns unpaced, %.2f µs of the chip's time at factor %.0f"
          % (per_pass, per_pass * ESP32.factor / 1000, ESP32.factor))
    for interval in [float(ms) for ms in args.intervals.split(",")]:
        passes = max(1, round(interval * 1e6 / (per_pass * ESP32.factor)))
        results = [run(passes, args.bytes) for _ in range(args.runs)]
        expected = min(interval * ESP32.baud / 10000 + BATCH - 1, ESP32.rx_buffer)
        print("- a read every %.1f ms (a chip's fullest: %d bytes): fullest %s, bytes lost %s of %d"
              % (interval, expected, ", ".join(str(peak) for peak, _ in results),
                 ", ".join(str(lost) for _, lost in results), args.bytes), flush=True)


if __name__ == "__main__":
    main()
