"""What the system calls cost that take one serial byte into the virtual board's interpreter
(the figure behind croupier.sim.board.RX_SYSCALLS_NS; docs/benchmarks.md, "Link at pace").

The firmware reads a byte as the ESP32 lets it: poll says one waits, a 1-byte readinto takes
it. On the chip both are a few C lines on the stdin ring; on the unix port each is a system
call on the console pty. This times the loop on a raw pty as the board has it, and the same
loop on a native stream that makes no system call; the difference is their share.

    .venv/bin/python tests/bench/bench_serial_rx.py
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host"))
from croupier.paths import micropython_binary  # noqa: E402
from croupier.sim.ptys import console  # noqa: E402

BYTES = 2900  # a pty holds 4 KB: each round fits
ROUNDS = 30

ON_PTY = """
import sys, select
from time import ticks_us, ticks_diff
s = sys.stdin.buffer
b = bytearray(1)
p = select.poll(); p.register(s, select.POLLIN); ipoll = p.ipoll
POLL = %d
best = 1e9
while True:
    print("ready")
    for _ in p.ipoll(-1): break
    import time; time.sleep_ms(30)
    t = ticks_us(); n = 0
    while n < %d:
        s.readinto(b); n += 1
        if POLL:
            for _ in ipoll(0): break
    best = min(best, ticks_diff(ticks_us(), t) / n)
    while n < %d:
        s.readinto(b); n += 1
    print("%%.3f" %% best)
"""

NATIVE = """
import io
from time import ticks_us, ticks_diff
src = io.BytesIO(bytes(%d))
b = bytearray(1)
ipoll = bytes  # a native call that returns a 1-item iterable, as ipoll(0) when a byte waits
POLL = %d
best = 1e9
for r in range(%d):
    src.seek(0)
    t = ticks_us(); n = 0; s = src
    while n < %d:
        s.readinto(b); n += 1
        if POLL:
            for _ in ipoll(1): break
    best = min(best, ticks_diff(ticks_us(), t) / n)
print("%%.3f" %% best)
"""


def on_pty(mp, script, poll):
    script.write_text(ON_PTY % (poll, BYTES, BYTES + 100))
    master, slave = console()
    os.set_blocking(master, True)
    proc = subprocess.Popen([mp, str(script)], stdin=slave, stdout=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        for _ in range(ROUNDS):
            proc.stdout.readline()  # ready
            os.write(master, b"x" * (BYTES + 100))
            best = float(proc.stdout.readline())
    finally:
        proc.kill()
        os.close(master)
    return best


def native(mp, script, poll):
    script.write_text(NATIVE % (BYTES, poll, ROUNDS, BYTES))
    return float(subprocess.run([mp, str(script)], capture_output=True, text=True, check=True).stdout)


def main():
    mp = micropython_binary()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "rx.py"
        for poll, what in ((1, "poll + 1-byte read"), (0, "1-byte read alone")):
            pty_us, native_us = on_pty(mp, script, poll), native(mp, script, poll)
            print("- %s: %.3f µs a byte on the console pty, %.3f µs without system calls: "
                  "their share %.3f µs" % (what, pty_us, native_us, pty_us - native_us))


if __name__ == "__main__":
    main()
