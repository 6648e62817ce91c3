"""The pace's throttle: Throttle starts `python pacer.py PID FACTOR CONTROL_FD`, which holds
process PID's CPU time to wall time / FACTOR by stopping (SIGSTOP) and continuing (SIGCONT)
it, from a byte on CONTROL_FD to its end of file, and leaves PID running.

A process of its own: a thread of the host's Python would need the GIL, which a computing
thread hands over only every 5 ms, a second of the chip's time. Standard library only, and
subprocess imported by Throttle alone, so the pacer starts quickly.
"""
import os
import select
import signal
import sys
import time

# s between looks at a running process: the most CPU time it runs past its budget before a
# stop pays it back (factor x TICK of wall time). Each look costs the pacer ~10 µs of CPU.
TICK = 0.001


def run(pid, factor, control):
    """Budget: wall time / factor. What the process used beyond it is owed, and paid back
    stopped; an idle process banks nothing, so a burst after a pause is paced at once."""
    if not os.read(control, 1):
        return
    clock = (~pid << 3) | 2  # pid's CPU time (clock_getcpuclockid's CPUCLOCK_SCHED): exact, < 1 µs a read
    ended = select.poll()
    ended.register(control, select.POLLIN)
    wall, cpu = time.monotonic_ns(), time.clock_gettime_ns(clock)
    owed, stopped = 0.0, False
    while not ended.poll(max(1, round(owed * factor / 1e6)) if stopped else TICK * 1000):
        now, used = time.monotonic_ns(), time.clock_gettime_ns(clock)
        owed = max(0.0, owed + (used - cpu) - (now - wall) / factor)
        wall, cpu = now, used
        if owed and not stopped:
            os.kill(pid, signal.SIGSTOP)
        elif not owed and stopped:
            os.kill(pid, signal.SIGCONT)
        stopped = bool(owed)
    if stopped:
        os.kill(pid, signal.SIGCONT)


class Throttle:
    """Holds process `pid` to wall time / factor of CPU time from start() on, through a
    pacer process; realtime: whether the pacer got real-time scheduling (it then stops the
    board on time on a busy host)."""

    def __init__(self, pid, factor):
        import subprocess

        self.factor = factor
        control, self._control = os.pipe()
        try:
            self._proc = subprocess.Popen([sys.executable, __file__, str(pid), repr(factor), str(control)],
                                          pass_fds=(control,), stdin=subprocess.DEVNULL)
        except BaseException:
            os.close(self._control)  # no pacer to read it
            raise
        finally:
            os.close(control)
        try:
            os.sched_setscheduler(self._proc.pid, os.SCHED_FIFO, os.sched_param(1))
            self.realtime = True
        except OSError:
            self.realtime = False

    def start(self):
        os.write(self._control, b"g")

    def close(self):
        """End the pacer (it continues the process first); the board calls it once."""
        import subprocess

        os.close(self._control)
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


if __name__ == "__main__":
    try:
        run(int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]))
    except (ProcessLookupError, OSError):
        pass  # the process ended: nothing left to pace
