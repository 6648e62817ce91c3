"""What a resume costs a paced interpreter on this host (docs/virtual-board.md, "Pace";
"Resumes and overruns"): the pacer stops the board (SIGSTOP) between its slices
and continues it (SIGCONT) for the next. An interpreter that runs a loop reading its clock
is stopped for a period at a time, continued, and stopped again a millisecond later:

- from the continue to its loop's first turn (wall time): the host's price of a resume,
  before a bytecode runs. An ESP32 is never stopped, so on the chip it is nothing.
- its CPU time over the whole slice, less the slice's wall time: how much of that price is
  charged to the interpreter's CPU time, and so to the pace's budget and its chip clock
  (the slice's wall time is the resume's and the loop's; what the CPU time falls short
  of it, at most, was not).

    .venv/bin/python tests/bench/bench_resume.py
"""
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host"))
from croupier.paths import micropython_binary  # noqa: E402
from croupier.sim.pace import PACE_CPU  # noqa: E402
from croupier.sim.pacer import PERIOD, cpu_clock, off_core  # noqa: E402
from ranks import percentile  # noqa: E402

SLICES = 300
RUN_S = 0.001  # each slice's length: longer than any resume seen

# Notes each turn that comes after a gap (a stop): its ticks_us, until stdin closes. The
# array is preallocated: nothing in the loop allocates, so no collection lands in a gap.
LOOP = """
import array, select, sys
from time import ticks_us, ticks_diff
turns = array.array("i", bytes(4 * %d))
n = 0
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
sys.stdout.write("go\\n")
last = ticks_us()
while n < len(turns):
    t = ticks_us()
    if ticks_diff(t, last) > 300:
        turns[n] = t
        n += 1
        if poll.poll(0):
            break
    last = t
print(" ".join(str(turns[i]) for i in range(n)))
""" % (4 * SLICES)

TICKS = 1 << 30  # the unix port's ticks_us wrap


def main():
    proc = subprocess.Popen([micropython_binary(), "-c", LOOP], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    os.sched_setaffinity(proc.pid, {PACE_CPU})
    proc.stdout.readline()
    stat = os.open("/proc/%d/stat" % proc.pid, os.O_RDONLY)
    clock = cpu_clock(proc.pid)
    continued, overcharge = [], []
    try:
        for _ in range(SLICES):
            os.kill(proc.pid, signal.SIGSTOP)
            off_core(stat)
            time.sleep(PERIOD)
            cpu = time.clock_gettime_ns(clock)
            at = time.monotonic_ns()
            os.kill(proc.pid, signal.SIGCONT)
            time.sleep(RUN_S)
            os.kill(proc.pid, signal.SIGSTOP)
            ran = time.monotonic_ns() - at
            off_core(stat)
            time.sleep(0.0005)  # the kernel charges the last stretch a moment later
            overcharge.append((time.clock_gettime_ns(clock) - cpu - ran) / 1000)
            continued.append(at // 1000 % TICKS)
    finally:
        os.close(stat)
        os.kill(proc.pid, signal.SIGCONT)
        out, _ = proc.communicate(b"x")
    turns = [int(t) for t in out.split()]
    delays = []
    for at in continued:
        after = [(t - at) % TICKS for t in turns]
        first = min((d for d in after if d < TICKS // 2), default=None)
        if first is not None and first < RUN_S * 1e6:
            delays.append(first)
    delays.sort()
    overcharge.sort()
    print("- from a continue to the interpreter's first turn of bytecode (%d of %d slices, "
          "each after %d ms stopped): median %d µs, 10th-90th percentile %d-%d µs, max %d µs" % (
              len(delays), SLICES, PERIOD * 1000, statistics.median(delays),
              percentile(delays, 0.1), percentile(delays, 0.9), delays[-1]))
    print("- its CPU time over a slice less the slice's wall time: median %+d µs "
          "(10th-90th percentile %+d to %+d): at least %d µs of a resume is charged as its "
          "CPU time" % (statistics.median(overcharge), percentile(overcharge, 0.1),
                        percentile(overcharge, 0.9),
                        max(0, statistics.median(delays) + statistics.median(overcharge))))


if __name__ == "__main__":
    main()
