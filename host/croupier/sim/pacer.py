"""The pacer: a process of its own that holds another process's CPU time to wall time /
factor by stopping (SIGSTOP) and continuing (SIGCONT) it (docs/virtual-board.md, "Pace").

A process of its own because it must stop the board on time: a thread of the host's
Python process needed the GIL first, which a thread that computes hands over only after
Python's switch interval (5 ms: 370 ms of the chip's time), and a host busy elsewhere made
that late often enough for a paced board to run several times its budget.

pace.Throttle starts it as a script (the standard library only, so it starts quickly):

    python pacer.py PID RECORD_FD CONTROL_FD CPU [MICROPYTHON MICROPYPATH]

It waits for a byte on CONTROL_FD to start and stops at its end of file, continuing the
process it paced. What it tells the host (and takes from it: credit) is in a Record on the
shared memory RECORD_FD, the factor among it. With the gauge's arguments the factor moves:
a paced CPU-second of the build VM does from half to all of a steady one's work, changing
from one tenth of a second to the next and on each core on its own (the core's other
hardware thread, the hypervisor's other guests), so a fixed factor gave pystone scores of
1,000-2,200 from one run to the next, and up to 16 times the chip's beside busy loops. Two
paced interpreters on one core follow each other (correlation 0.92-0.96 over windows of
0.2 s), on two cores not at all. So a second interpreter, the gauge (_sim_gauge on
MICROPYTHON, running pystone), runs on the board's core (CPU) in slices of the board's
length right after the board's own, and the factor is what its pystones per CPU-second
call for.
"""
import contextlib
import ctypes
import fcntl
import mmap
import os
import select
import signal
import subprocess
import sys
import time

PERIOD = 0.02  # seconds between slices: short against the 33.7 ms the receive buffer lasts at line rate
SLICES_BANKED = 2  # an idle board banks at most this many periods' budget (no bursts after a pause)
MIN_RUN_NS = 20000  # less budget left than this: the slice is over (no train of µs-long sleeps)
SETTLE_LOOK = 0.0001  # s between two readings of a stopped process's clock that should agree
SETTLE_LOOKS = 5  # at most this many more readings (a late charge comes at once, and once)
SETTLE_WAIT = 0.00002  # s between looks at a process on its way to the stop: not a spin, which
# could hold the core the process needs to get there (once 75 ms on the 2-core build VM)
# The host kernel's CPU time to wake a sleeping interpreter (from a poll for input, a timed
# sleep), which on the chip is a FreeRTOS wake-up of a few µs: given back for each time the
# process went to sleep, counted by the kernel (voluntary_ctxt_switches in
# /proc/<pid>/status). tests/bench/bench_serial_rx.py measures it (16-25 µs a wake-up on
# the build VM); the lower end is credited, so a busy host, whose wake-ups cost more, makes
# the board slower.
WAKE_NS = 15000

# The gauge: pystone itself, which defines the chip's speed. An ESP32 at 240 MHz scores
# 1,075-1,661 pystones/s (public figures); the pace aims at 1,300. The gauge's interpreter
# has a heap about as small as a board's: a larger one sweeps longer and, when new, pays
# for more first touches (croupier/sim/mpy/_sim_heap.py).
CHIP_PYSTONES = 1300
GAUGE_PASSES = 5  # pystone passes a unit of the gauge's work: 5-10 units a paced slice
GAUGE_HEAP = 160 * 1024
# A board does fewer pystones a paced CPU-second than the gauge (its resumes cost it more:
# a larger heap, the emulation's own modules): its share, read off pystone on paced boards
# (tests/bench/bench_pystone.py prints the share that would have centred its runs on 1,300).
BOARD_SHARE = 0.93
GAUGE_IDLE_NS = 100000000  # the gauge's slices this often while the board waits
FACTOR_RANGE = (20.0, 1000.0)  # the gauge's factor is held within (a reading beyond is a fault)


class Record:
    """What a pacer and the host share, on one page of memory: 8-byte fields, each one
    written by one side only (the stop's pair by whoever holds the lock: the pacer, or the
    host in Throttle.held()); a reader of the pair retries while SEQ is odd or moved. The
    credit is the host's (CREDIT_OFFERED: the emulation's own time, as the board reports it)
    and the pacer's (WOKEN: the host's wake-ups), each counted where it is known first. The
    last STOPS_KEPT stops are kept too, with the process's CPU time at each, for
    stops_within()."""

    SEQ, STOPPED_TOTAL, STOPPED_SINCE, CREDIT_OFFERED, WOKEN, SLICES, REALTIME, BUDGET, FACTOR, STOPS = range(10)
    STOP_LOG = 10  # from this field on, the last STOPS_KEPT stops: [began, ended (monotonic ns), CPU ns] each
    STOPS_KEPT = 32  # 0.6 s of a busy board's stops at least: far longer than the stretches asked about
    FACTOR_SCALE = 1000  # the factor, in thousandths
    SIZE = mmap.PAGESIZE

    def __init__(self, fd):
        self.fd = fd
        self._map = mmap.mmap(fd, self.SIZE)
        self.fields = memoryview(self._map).cast("q")  # aligned 8-byte stores: one write each

    @classmethod
    def create(cls):
        fd = os.memfd_create("croupier-pace", os.MFD_CLOEXEC)  # given to the pacers by pass_fds
        os.ftruncate(fd, cls.SIZE)
        record = cls(fd)
        record.fields[cls.STOPPED_SINCE] = -1
        record.fields[cls.REALTIME] = -1
        return record

    def stopped_ns(self, now):
        """Time the process has been held stopped, by `now` (monotonic_ns)."""
        f = self.fields
        while True:
            seq = f[self.SEQ]
            total, since = f[self.STOPPED_TOTAL], f[self.STOPPED_SINCE]
            if not seq & 1 and f[self.SEQ] == seq:
                return total + (now - since if 0 <= since < now else 0)

    def mark_stopped(self, now):
        self._write_pair(self.fields[self.STOPPED_TOTAL], now)

    def mark_continued(self, now, cpu):
        """`cpu`: the process's CPU time as it was continued (exact: it was stopped)."""
        f = self.fields
        since = f[self.STOPPED_SINCE]
        if since >= 0:
            self._write_pair(f[self.STOPPED_TOTAL] + now - since, -1, ended=(since, now, cpu))

    def _write_pair(self, total, since, ended=None):
        f = self.fields
        f[self.SEQ] += 1
        f[self.STOPPED_TOTAL], f[self.STOPPED_SINCE] = total, since
        if ended is not None:
            slot = self.STOP_LOG + 3 * (f[self.STOPS] % self.STOPS_KEPT)
            f[slot], f[slot + 1], f[slot + 2] = ended
            f[self.STOPS] += 1
        f[self.SEQ] += 1

    def stops_within(self, t0, t1, cpu_now):
        """-> (how many stops held the process between monotonic_ns t0 and t1, when the
        first of them began and the last ended (within t0-t1), the CPU time it used from
        the first to the last), from the stops kept and the one under way (its CPU time:
        cpu_now, read while it was stopped)."""
        f = self.fields
        while True:
            seq = f[self.SEQ]
            kept = min(f[self.STOPS], self.STOPS_KEPT)
            stops = [tuple(f[self.STOP_LOG + 3 * i:self.STOP_LOG + 3 * i + 3]) for i in range(kept)]
            since = f[self.STOPPED_SINCE]
            if not seq & 1 and f[self.SEQ] == seq:
                break
        if since >= 0:
            stops.append((since, t1, cpu_now))
        inside = sorted(stop for stop in stops if min(stop[1], t1) > max(stop[0], t0))
        if not inside:
            return 0, t1, t1, 0
        (began, _, cpu0), (_, ended, cpu1) = inside[0], inside[-1]
        return len(inside), max(began, t0), min(ended, t1), max(0, cpu1 - cpu0)

    @property
    def factor(self):
        return self.fields[self.FACTOR] / self.FACTOR_SCALE

    @factor.setter
    def factor(self, value):
        self.fields[self.FACTOR] = int(value * self.FACTOR_SCALE)


class Hold:
    """Stops and continues the paced process with each stop written into the record, under
    a lock (flock) that the pacer's slices and the host's holds (Throttle.held) share, so
    neither continues the process while the other needs it stopped. Each side opens the
    record anew: a lock belongs to an open file description."""

    def __init__(self, record, pid):
        self.record, self.pid = record, pid
        self._clock = cpu_clock(pid)
        self._lock = os.open("/proc/self/fd/%d" % record.fd, os.O_RDWR)

    @contextlib.contextmanager
    def locked(self):
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_UN)

    def stop(self, since=None):
        """With the lock held. since: when the process stopped running, if before now (the
        caller took its core then)."""
        self.record.mark_stopped(since or time.monotonic_ns())
        os.kill(self.pid, signal.SIGSTOP)

    def resume(self):
        """With the lock held."""
        try:
            cpu = time.clock_gettime_ns(self._clock)
        except OSError as exc:  # it ended: say so as os.kill would
            raise ProcessLookupError(exc.errno, "process %d is gone" % self.pid) from exc
        os.kill(self.pid, signal.SIGCONT)
        self.record.mark_continued(time.monotonic_ns(), cpu)

    def close(self):
        os.close(self._lock)


def cpu_clock(pid):
    """The clock id of a process's CPU time (clock_getcpuclockid: CPUCLOCK_SCHED of pid),
    read in ns by time.clock_gettime_ns: exact and a fraction of a µs per read."""
    return (~pid << 3) | 2


def state(stat):
    """The state letter (b'R', b'S', b'T', ...) of the process whose /proc/<pid>/stat is open
    as fd `stat`."""
    data = os.pread(stat, 512, 0)
    at = data.rindex(b")") + 2  # after the command name, which may hold anything
    return data[at:at + 1]


def runnable(stat):
    """Whether the process is in state R: on a core, or waiting for one."""
    return state(stat) == b"R"


def off_core(stat):
    """Returns once the process is out of state R (a stop sent to it has taken hold), looking
    every SETTLE_WAIT."""
    while runnable(stat):
        time.sleep(SETTLE_WAIT)


class CpuUsed:
    """The CPU time a process has used so far, never less than the truth. The kernel brings
    another process's CPU clock up to date only when the process is switched out or at a
    timer tick (4 ms on the build VM: half a second of the chip's time at the pace), so
    while the process runs (state R in /proc/<pid>/stat) the wall time since its clock was
    last known exact counts as used as well. A stopped or waiting process is exact, so
    the count starts from one just sent SIGSTOP: a running one's clock may already be a
    tick behind, by an amount nothing can tell."""

    def __init__(self, pid):
        self._clock = cpu_clock(pid)
        self._stat = os.open("/proc/%d/stat" % pid, os.O_RDONLY)
        self._status = os.open("/proc/%d/status" % pid, os.O_RDONLY)
        self.settled()

    def read(self, now):
        """-> ns of CPU time used by `now` (monotonic_ns), as an upper bound."""
        cpu = time.clock_gettime_ns(self._clock)
        if cpu != self._accounted:  # brought up to date since the last reading
            self._accounted, self._exact_at = cpu, self._seen_at
        self._seen_at = now
        if runnable(self._stat):
            return cpu + max(0, now - self._exact_at)
        self._exact_at = now
        return cpu

    def settled(self):
        """-> the exact CPU time of a process just sent SIGSTOP: once the stop has taken hold
        (the process is out of state R) and the kernel has charged the last stretch it ran
        (two readings SETTLE_LOOK apart agree: on the build VM a stretch the hypervisor cut
        short, up to 2 ms, is charged after the process already shows as stopped)."""
        off_core(self._stat)
        cpu = time.clock_gettime_ns(self._clock)
        for _ in range(SETTLE_LOOKS):
            time.sleep(SETTLE_LOOK)
            again = time.clock_gettime_ns(self._clock)
            if again == cpu:
                break
            cpu = again
        self._exact_at = self._seen_at = time.monotonic_ns()  # the clock was exact by then
        self._accounted = cpu
        return cpu

    def waiting(self):
        """Whether the process is asleep (or stopped): not on a core nor waiting for one."""
        return not runnable(self._stat)

    def sleeps(self):
        """-> how many times the process has gone to sleep (or been stopped) so far."""
        status = os.pread(self._status, 4096, 0)
        at = status.index(b"\nvoluntary_ctxt_switches:") + 25
        return int(status[at:status.index(b"\n", at)])

    def close(self):
        os.close(self._stat)
        os.close(self._status)


def _realtime():
    """Make this process real-time (SCHED_FIFO, lowest priority) where allowed: it then
    wakes on time and sleeps exactly, so a slice ends within µs of its budget (a normal
    process oversleeps by ~50 µs, on a busy host now and then by milliseconds). -> whether
    it is. The paced process itself stays a normal one."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        return True
    except (OSError, AttributeError):
        return False


class Gauge:
    """The gauge's interpreter (_sim_gauge) on the board's core, let run for a slice of the
    board's length right after each of the board's own, and now and then while it waits:
    the factor is the gauge's pystones per second of its CPU time over its last WINDOW
    slices, times BOARD_SHARE, over CHIP_PYSTONES."""

    WINDOW = 8  # slices: 0.16 s while the board computes, 40-80 units (a unit's error: 1-2 %)

    def __init__(self, micropython, path, cpu):
        def as_the_board():  # a normal process on the board's core, killed if the pacer dies
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            os.sched_setaffinity(0, {cpu})
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

        self._proc = subprocess.Popen(
            [micropython, "-X", "heapsize=%d" % GAUGE_HEAP, "-m", "_sim_gauge"], stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL, preexec_fn=as_the_board,
            env=dict(os.environ, MICROPYPATH=path, CROUPIER_GAUGE_PASSES=str(GAUGE_PASSES)))
        self._output = self._proc.stdout.fileno()
        self.pid = self._proc.pid
        if not os.read(self._output, 1):
            raise OSError("the gauge's interpreter did not start")
        os.set_blocking(self._output, False)
        os.kill(self.pid, signal.SIGSTOP)
        self._used = CpuUsed(self.pid)
        self._cpu = self._used.settled()
        self._slices = []  # (units, CPU ns) of the last WINDOW slices
        self.last = 0  # monotonic_ns of its last slice

    def run_slice(self, ns, wait):
        """Let it run for `ns` (with wait(seconds), the pacer's), then read what it did.
        -> the factor its last WINDOW slices call for, or None (too few yet, or no CPU)."""
        os.kill(self.pid, signal.SIGCONT)
        closed = wait(ns / 1e9)
        os.kill(self.pid, signal.SIGSTOP)
        cpu = self._used.settled()
        try:
            units = len(os.read(self._output, 65536))
        except BlockingIOError:
            units = 0
        self._slices = self._slices[-self.WINDOW + 1:] + [(units, cpu - self._cpu)]
        self._cpu = cpu
        self.last = time.monotonic_ns()
        if closed:
            raise EOFError
        spent = sum(cpu for _, cpu in self._slices)
        if len(self._slices) < self.WINDOW or not spent:
            return None
        pystones = sum(units for units, _ in self._slices) * GAUGE_PASSES
        return min(max(pystones * 1e9 / spent * BOARD_SHARE / CHIP_PYSTONES, FACTOR_RANGE[0]), FACTOR_RANGE[1])

    def close(self):
        self._used.close()
        self._proc.kill()
        self._proc.wait()


class Pacer:
    """Paces process `pid` at the factor in `record`, which `gauge` keeps up to date (None:
    the factor stays as the host set it). on_its_core: the pacer runs real-time on the
    process's core, so the process stops running the moment the pacer wakes."""

    def __init__(self, pid, record, control, gauge=None, on_its_core=False):
        self.pid, self.record, self.control, self.gauge = pid, record, control, gauge
        self.on_its_core = on_its_core
        self._hold = Hold(record, pid)

    def wait(self, seconds):
        """Sleep, or less if the host closed the control pipe. -> whether it did."""
        if select.select([self.control], [], [], max(0.0, seconds))[0]:
            return not os.read(self.control, 64)
        return False

    def _continue(self):
        with self._hold.locked():
            self._hold.resume()

    def _halt(self, woke):
        """woke: when the pacer woke to do so (monotonic ns). On the process's core, the
        stop began then: the process's measures of its own work (wall time) must not count
        the pacer's look before the stop (credited as emulation, 4 % more than its CPU)."""
        with self._hold.locked():
            self._hold.stop(woke if self.on_its_core else None)

    def _gauge(self, slice_ns):
        """The gauge's slice; the factor it calls for into the record."""
        factor = self.gauge.run_slice(slice_ns, self.wait)
        if factor is not None:
            self.record.factor = factor

    def run(self):
        """Until the control pipe ends or the process does; never leaves it stopped."""
        try:
            self._control()
        except (ProcessLookupError, FileNotFoundError, EOFError):
            pass  # the interpreter ended, or the host closed the pipe
        finally:
            try:
                self._continue()
            except OSError:
                pass

    def _control(self):
        """A token bucket: the process earns wall time / factor of CPU, banks at most
        SLICES_BANKED periods of it, and runs while it has some. Once it has used it up it is
        stopped for at least a period, so a busy board runs in slices of a period's budget
        (the calibration's). One that blocks (an emulated bus or flash wait, a sleep) stays
        continued: its wait costs wall time, as on the chip, not the rest of a period. The
        gauge runs after each of a busy board's slices, and every GAUGE_IDLE_NS while it
        waits."""
        record, fields = self.record, self.record.fields
        allowance = 0.0  # ns of CPU the process may still use now
        used = CpuUsed(self.pid)
        seen = used.read(time.monotonic_ns())
        slept = used.sleeps()
        stops = 0  # stops since the last look at the sleeps: each counts as one
        offered = fields[record.CREDIT_OFFERED]
        last = time.monotonic_ns()
        budget = 0.0
        running = False
        try:
            while True:
                factor = record.factor
                slice_ns = PERIOD * 1e9 / factor
                now = time.monotonic_ns()
                cpu = used.read(now)
                credit, offered = fields[record.CREDIT_OFFERED] - offered, fields[record.CREDIT_OFFERED]
                sleeps = used.sleeps()
                woken = max(0, sleeps - slept - stops) * WAKE_NS
                slept, stops = sleeps, 0
                fields[record.WOKEN] += woken
                earned = (now - last) / factor
                budget += earned
                fields[record.BUDGET] = int(budget)
                last = now
                # idle time banks a little budget at most, and so do wake-ups (their charge
                # fell on that budget); credit (work the chip does in hardware) and an
                # estimate of use found too high always count in full
                allowance = (min(allowance + earned + woken, SLICES_BANKED * slice_ns)
                             + credit - (cpu - seen))
                seen = cpu
                if allowance > MIN_RUN_NS:
                    if not running:
                        self._continue()
                        running = True
                        fields[record.SLICES] += 1
                    elif self.gauge and now - self.gauge.last >= GAUGE_IDLE_NS and used.waiting():
                        # beside a board that waits, not stopping it: a stop would wake it,
                        # which costs it CPU time (5 % of an idle board's budget)
                        self._gauge(slice_ns)
                        continue
                    if self.wait(allowance / 1e9):  # it can use at most this much CPU meanwhile
                        return
                    continue
                if running:
                    self._halt(now)
                    running = False
                    stops += 1
                    exact = used.settled()  # the estimate counts time waiting for a core
                    allowance += seen - exact
                    seen = exact
                    if allowance > MIN_RUN_NS:
                        continue  # it had not used its budget after all: on at once
                    if self.gauge:
                        self._gauge(slice_ns)
                if self.wait(max(PERIOD, -allowance * factor / 1e9)):
                    return
        finally:
            used.close()


def _place(board_cpu):
    """Real-time where allowed, on the board's core: it preempts the board the moment a
    slice is over. On the other core, often idle, its wake-ups waited for the hypervisor to
    run that core again while the board ran on: pystone scored 1,311-1,579 in four runs on
    the quiet build VM, one of them 1.18 times its budget (on the board's core: 1,248-1,385
    in sixteen, tests/bench/bench_pystone.py). A normal process goes elsewhere, where there is
    another core: on the board's, it waits its turn behind the board (the kernel lets the
    running task end its slice, ms long), and the board ran 1.04-1.26 times its budget.
    -> whether it is real-time."""
    realtime = _realtime()
    others = os.sched_getaffinity(0) - {board_cpu}
    os.sched_setaffinity(0, {board_cpu} if realtime or not others else others)
    return realtime


def main(argv):
    """pacer.py PID RECORD_FD CONTROL_FD CPU [MICROPYTHON MICROPYPATH]: CPU is the board's
    core; the gauge's arguments, or none for a fixed factor (the one the host put in the
    record)."""
    pid, record_fd, control, cpu = (int(arg) for arg in argv[:4])
    record = Record(record_fd)
    realtime = record.fields[Record.REALTIME] = _place(cpu)
    gauge = Gauge(argv[4], argv[5], cpu) if len(argv) > 4 else None  # started while the board boots
    try:
        if os.read(control, 1):  # the host's go (none: it closed the pipe first)
            Pacer(pid, record, control, gauge, on_its_core=realtime).run()  # _place put it there
    finally:
        if gauge:
            gauge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
