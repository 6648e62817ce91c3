"""What the virtual board's console costs its interpreter in host CPU that an ESP32 spends in
C or not at all (docs/benchmarks.md, "Console input cost"; docs/virtual-board.md, "Serial input"
and "Wake-ups").

- A byte read one at a time, as the REPL and the firmware read (after a poll says one waits):
  on the chip a few C lines on the stdin ring. Timed as a loop of 1-byte
  reads on a raw pty as the board has it, less the same loop on a native stream that makes
  no system call. The REPL's own timing credits it.
- A wake-up: a board asleep in poll that an input wakes. On the chip that is a task
  notification of a few µs; here the host kernel's switch in and out of the process, timed
  as the process's CPU time per wake-up, less the Python of the loop that takes the byte:
  the figure behind croupier.sim.pace.WAKE_NS.
- A wake-up from a timed asyncio sleep (the keypad's scan, a timeout): its CPU time beyond
  that of a sleep of 0 ms, per sleep length. After 10 ms or more the host's caches and page
  tables are cold: the figure behind _sim_wake's credit for a long sleep.

    .venv/bin/python tests/bench/bench_serial_rx.py
"""
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host"))
from croupier.paths import micropython_binary  # noqa: E402
from croupier.sim.pace import cpu_clock  # noqa: E402
from croupier.sim.ptys import console  # noqa: E402

BYTES = 2900  # a pty holds 4 KB: each round fits
ROUNDS = 30
WAKES = 300
WAKE_GAP = 0.005  # s between two inputs: the board is asleep again at each

ON_PTY = """
import sys
from time import ticks_us, ticks_diff
s = sys.stdin.buffer
b = bytearray(1)
best = 1e9
while True:
    print("ready")
    s.readinto(b)
    import time; time.sleep_ms(30)
    t = ticks_us(); n = 0
    while n < %d:
        s.readinto(b); n += 1
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
best = 1e9
for r in range(%d):
    src.seek(0)
    t = ticks_us(); n = 0; s = src
    while n < %d:
        s.readinto(b); n += 1
    best = min(best, ticks_diff(ticks_us(), t) / n)
print("%%.3f" %% best)
"""

WAKING = """
import sys, select
s = sys.stdin.buffer
b = bytearray(1)
p = select.poll(); p.register(s, select.POLLIN); ipoll = p.ipoll
print("ready")
while True:
    for _ in ipoll(-1): break
    s.readinto(b)
"""


SLEEPING = """
import asyncio
async def main():
    for _ in range(%d):
        await asyncio.sleep_ms(%d)
asyncio.run(main())
"""
SLEEPS = 200


def children_cpu_s():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sleeping_cpu_us(mp, script, ms):
    """-> CPU µs per asyncio sleep of ms, the interpreter's start included."""
    script.write_text(SLEEPING % (SLEEPS, ms))
    before = children_cpu_s()
    subprocess.run([mp, str(script)], check=True)
    return (children_cpu_s() - before) / SLEEPS * 1e6


def timed_wake_us(mp, script, ms, runs=5):
    """-> the CPU µs of a wake-up from an asyncio sleep of ms, beyond one of 0 ms: each run's."""
    base = sorted(sleeping_cpu_us(mp, script, 0) for _ in range(runs))[runs // 2]
    return sorted(sleeping_cpu_us(mp, script, ms) - base for _ in range(runs))


def byte_read_us(mp, script):
    script.write_text(ON_PTY % (BYTES, BYTES + 100))
    master, slave = console()
    os.set_blocking(master, True)
    proc = subprocess.Popen([mp, str(script)], stdin=slave, stdout=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        for _ in range(ROUNDS):
            proc.stdout.readline()  # ready
            os.write(master, b"x" * (BYTES + 101))
            on_pty = float(proc.stdout.readline())
    finally:
        proc.kill()
        os.close(master)
    script.write_text(NATIVE % (BYTES, ROUNDS, BYTES))
    native = float(subprocess.run([mp, str(script)], capture_output=True, text=True, check=True).stdout)
    return on_pty, native


def wake_us(mp, script, loop_us):
    """-> the lowest of 5 figures of CPU µs per wake-up, the loop's own Python taken off."""
    script.write_text(WAKING)
    master, slave = console()
    proc = subprocess.Popen([mp, str(script)], stdin=slave, stdout=subprocess.PIPE, text=True)
    os.close(slave)
    clock = cpu_clock(proc.pid)
    figures = []
    try:
        proc.stdout.readline()  # ready
        for _ in range(5):
            time.sleep(WAKE_GAP)
            before = time.clock_gettime_ns(clock)  # exact: the process is asleep
            for _ in range(WAKES):
                os.write(master, b"x")
                time.sleep(WAKE_GAP)
            figures.append((time.clock_gettime_ns(clock) - before) / WAKES / 1e3 - loop_us)
    finally:
        proc.kill()
        os.close(master)
    return min(figures)


def main():
    mp = micropython_binary()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "rx.py"
        on_pty, native = byte_read_us(mp, script)
        print("- a byte read: %.3f µs on the console pty, %.3f µs without system calls: "
              "their share %.3f µs" % (on_pty, native, on_pty - native))
        print("- a wake-up from poll: %.1f µs of the interpreter's CPU beyond its Python"
              % wake_us(mp, script, on_pty + 2 * native))
        for ms in (2, 10, 20):
            print("- a wake-up from an asyncio sleep of %d ms, beyond one of 0 ms: %s µs (%d runs)"
                  % (ms, ", ".join("%.0f" % us for us in timed_wake_us(mp, script, ms)), 5))


if __name__ == "__main__":
    main()
