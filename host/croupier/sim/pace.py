"""Pace: the virtual board at the speed and limits of the chip it stands for.

A profile names the chip's figures: how many times slower than this host's unix port it
runs bytecode, its serial line and receive buffer, and its flash timing. The Throttle holds
the interpreter's CPU time to wall time / factor by stopping (SIGSTOP) and continuing
(SIGCONT) it. It counts the CPU time the interpreter really got, so a busy host makes the
board slower, never faster. The ChipClock tells the chip's own time from that CPU time:
the line into the board keeps it. See docs/virtual-board.md, "Pace".
"""
import contextlib
import copy
import os
import signal
import sys
import threading
import time

# How many times slower than this host's unix port the ESP32 runs bytecode.
# micropython-pystone-lowmem on the unix port, unpaced, scores ~260,000 pystones per second of
# the interpreter's CPU time on the 2-core build machine; public ESP32 (240 MHz) figures are
# 1,075-1,661, so the chip is ~200 times slower (ESP32_SPEED_RATIO: host CPU time x this =
# the chip's time for the same bytecode, the figure of a board run at full speed).
ESP32_SPEED_RATIO = 200.0
# The pacer's factor (budget = wall time / factor) is smaller: calibrated on the paced board,
# where pystone scores ~1,300 (tests/bench/bench_pystone.py, 20 runs each on the build VM:
# 74 gave a median of 1,294, 1,088-1,572; 76 gave 1,261; 72 gave 1,361; 80 gave 1,155-1,228
# over 30). Each resume leaves the interpreter slow for a while (on the build VM its caches
# and the hypervisor's page tables are cold after a stop, and the stop and continue
# themselves are charged to it), so a paced CPU-second does less work than an unpaced one,
# the less the shorter its slices. `croupier sim --pace esp32 --calibrate` checks it.
ESP32_FACTOR = 74.0


class Profile:
    """What a paced board emulates. factor: the pacer's (budget = wall time / factor);
    speed_ratio: host CPU time x speed_ratio = the chip's time for the same work. rx_buffer: serial bytes the chip holds before it loses them. Flash (µs): a page program
    of 256 bytes at most, the first byte and each further one of a short program, a 4 KiB
    sector erase."""

    def __init__(self, name, factor, speed_ratio, baud, rx_buffer, page_us, byte_first_us, byte_us, erase_us):
        self.name, self.factor, self.speed_ratio = name, factor, speed_ratio
        self.baud, self.rx_buffer = baud, rx_buffer
        self.page_us, self.byte_first_us, self.byte_us, self.erase_us = page_us, byte_first_us, byte_us, erase_us

    def with_factor(self, factor):
        """The same profile paced at another factor (to calibrate it)."""
        other = copy.copy(self)
        other.factor = factor
        return other

    def flash_timing(self) -> str:
        """The flash figures as the board side reads them (CROUPIER_SIM_FLASH_US)."""
        return "%d,%d,%d,%d" % (self.page_us * 10, self.byte_first_us * 10, self.byte_us * 10, self.erase_us * 10)


# ESP32-WROOM-32: ESP32 at 240 MHz; UART0 at 115200 baud 8N1 into the port's 260-byte
# stdin ring (ports/esp32/mphalport.c) behind the UART's 128-byte hardware FIFO; 4 MB
# SPI NOR flash, figures of the Winbond W25Q32JV datasheet (typical): page program tPP
# 0.4 ms, byte program tBP1 30 µs + tBP2 2.5 µs per further byte, 4 KB sector erase tSE 45 ms.
ESP32 = Profile("esp32", ESP32_FACTOR, ESP32_SPEED_RATIO, baud=115200, rx_buffer=260 + 128,
                page_us=400, byte_first_us=30, byte_us=2.5, erase_us=45000)
PROFILES = {"esp32": ESP32}


def profile(name):
    """'esp32' -> its Profile; None or 'none' -> None (full speed); else ValueError."""
    if name is None or isinstance(name, Profile):
        return name
    if name == "none":
        return None
    if name not in PROFILES:
        raise ValueError("pace must be one of none, %s; not %r" % (", ".join(PROFILES), name))
    return PROFILES[name]


def cpu_clock(pid):
    """The clock id of a process's CPU time (clock_getcpuclockid: CPUCLOCK_SCHED of pid),
    read in ns by time.clock_gettime_ns: exact and a fraction of a µs per read."""
    return (~pid << 3) | 2


PERIOD = 0.02  # seconds between slices: short against the 33.7 ms the receive buffer lasts at line rate
SLICES_BANKED = 2  # an idle board banks at most this many periods' budget (no bursts after a pause)
# How far the line into a paced board may fall behind the board's own clock (ChipClock)
# before it counts as paused: a slice runs the chip's clock a period ahead of the host's in
# a few hundred µs. A slice that ran longer (the pacer late to stop it, or what an idle board
# banked) finds the line paused meanwhile: with three periods, the bytes of the stop that
# paid such a slice back all fell due at once, and a reader that took every byte at once
# lost up to 340 of 3,000 (tests/bench/bench_line_reader.py; none in 12 runs with one).
CHIP_SLACK = PERIOD
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
# The controller needs the GIL to stop the board. A thread of this process that computes
# hands it over only after Python's switch interval (5 ms by default: 370 ms of the chip's
# time run past the budget, which a fresh clone's `make test` once caught). From the first
# paced board on, the host process's interval is at most this (it is not put back: other
# paced boards may still be running).
SWITCH_INTERVAL = 0.0005


def _realtime():
    """Make the calling thread real-time (SCHED_FIFO, lowest priority) where allowed: it
    then wakes on time and sleeps exactly, so a slice ends within µs of its budget (a normal
    thread oversleeps by ~50 µs, on a busy host now and then by milliseconds). The
    interpreter itself stays a normal process: real-time, it could take a core from a thread
    of this process that holds the GIL the controller needs to stop it. -> whether it is."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # 0: this thread, on Linux
        return True
    except (OSError, AttributeError):
        return False


def state(stat):
    """The state letter (b'R', b'S', b'T', ...) of the process whose /proc/<pid>/stat is open
    as fd `stat`."""
    data = os.pread(stat, 512, 0)
    at = data.rindex(b")") + 2  # after the command name, which may hold anything
    return data[at:at + 1]


def runnable(stat):
    """Whether the process is in state R: on a core, or waiting for one."""
    return state(stat) == b"R"


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
        if self._running():
            return cpu + max(0, now - self._exact_at)
        self._exact_at = now
        return cpu

    def settled(self):
        """-> the exact CPU time of a process just sent SIGSTOP: once the stop has taken hold
        (the process is out of state R) and the kernel has charged the last stretch it ran
        (two readings SETTLE_LOOK apart agree: on the build VM a stretch the hypervisor cut
        short, up to 2 ms, is charged after the process already shows as stopped)."""
        while self._running():
            time.sleep(SETTLE_WAIT)
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

    def _running(self):
        return runnable(self._stat)

    def sleeps(self):
        """-> how many times the process has gone to sleep (or been stopped) so far."""
        status = os.pread(self._status, 4096, 0)
        at = status.index(b"\nvoluntary_ctxt_switches:") + 25
        return int(status[at:status.index(b"\n", at)])

    def close(self):
        os.close(self._stat)
        os.close(self._status)


class ChipClock:
    """The chip's own time on a paced board, in ns on the monotonic clock's scale (the two
    agree when the pacer starts, and the pacer holds them close): factor x the CPU time
    the interpreter used (less what was credited as emulated hardware), plus the time it
    slept (an emulated bus or flash wait, a sleep). The time the pacer held it stopped is
    not counted (the factor stands for it), nor the time it waited for one of the host's
    cores (run_delay in /proc/<pid>/schedstat). So a host late to run the board (a busy
    core, a pacer late to stop it that then stops it longer to pay back) does not age the
    chip. A process in state R may be in a wait for a core the kernel has not counted
    yet: the clock then counts its CPU time alone (a lower bound), exact again once it
    sleeps or stops."""

    def __init__(self, pid, factor, stopped_ns, credited_ns):
        self.factor = factor
        self._stopped_ns, self._credited_ns = stopped_ns, credited_ns  # callables: the pacer's records
        self._clock = cpu_clock(pid)
        self._stat = os.open("/proc/%d/stat" % pid, os.O_RDONLY)
        self._schedstat = os.open("/proc/%d/schedstat" % pid, os.O_RDONLY)
        self._exact = self._sample()  # (wall, cpu, run_delay, stopped, credited) when _chip was exact
        self._chip = self._shown = self._exact[0]

    def _sample(self):
        delay = int(os.pread(self._schedstat, 128, 0).split()[1])
        cpu = time.clock_gettime_ns(self._clock)
        now = time.monotonic_ns()
        return now, cpu, delay, self._stopped_ns(now), self._credited_ns()

    def read(self):
        """-> the chip's time now, in ns (never decreasing)."""
        waiting = runnable(self._stat)  # looked at first: a wait that starts after is not counted
        now, cpu, delay, stopped, credited = sample = self._sample()
        wall0, cpu0, delay0, stopped0, credited0 = self._exact
        computed = self.factor * max(0, (cpu - cpu0) - (credited - credited0))
        if waiting:
            chip = self._chip + int(computed)
        else:
            slept = max(0, (now - wall0) - (cpu - cpu0) - (delay - delay0) - (stopped - stopped0))
            chip = self._chip = self._chip + int(computed) + slept
            self._exact = sample
        self._shown = max(self._shown, chip)  # credit arriving late must not turn it back
        return self._shown

    def close(self):
        os.close(self._stat)
        os.close(self._schedstat)


class Throttle:
    """Holds process `pid` to wall time / factor of CPU time from start() on. Budget the
    emulation spent doing what is hardware on a chip comes back through credit()."""

    def __init__(self, pid, factor):
        self.pid, self.factor = pid, factor
        self.credited_ns = 0  # CPU time credited back (the emulation's own code)
        self.slices = 0  # times the process was let run
        self.realtime = None  # whether the controller got real-time scheduling
        self._clock = cpu_clock(pid)
        self._cpu0 = self._cpu = 0
        self._started = None
        self._ended = None
        self._stopped_total = 0  # ns the process was held stopped, up to _stopped_since
        self._stopped_since = None  # monotonic_ns of the stop it is in, if any
        self.chip = None  # its ChipClock, from start() on
        self._stop = threading.Event()
        self._hold = threading.Lock()  # taken to stop or continue the process
        self._credit = 0
        self._thread = threading.Thread(target=self._run, name="pace-%d" % pid, daemon=True)

    def start(self):
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        os.kill(self.pid, signal.SIGSTOP)  # from here on it runs only in the slices it is given
        self._started = self._stopped_since = time.monotonic_ns()
        self._cpu0 = self._cpu = time.clock_gettime_ns(self._clock)
        self.chip = ChipClock(self.pid, self.factor, self.stopped_ns, lambda: self.credited_ns)
        self._thread.start()
        return self

    @property
    def cpu_ns(self):
        """CPU time the process has had since start()."""
        if self._started is not None and self._ended is None:
            try:
                self._cpu = time.clock_gettime_ns(self._clock)
            except OSError:
                pass  # it ended: its last reading stands
        return self._cpu - self._cpu0

    @property
    def budget_ns(self):
        """Wall time since start() / factor: the most CPU time it may have had by now."""
        if self._started is None:
            return 0
        return ((self._ended or time.monotonic_ns()) - self._started) / self.factor

    def close(self):
        self.cpu_ns
        if self._started is not None:
            self._ended = self._ended or time.monotonic_ns()
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(2)
        if self.chip:
            self.chip.close()
            self.chip = None

    def stopped_ns(self, now):
        """Time the process has been held stopped since start(), by `now` (monotonic_ns)."""
        since = self._stopped_since
        return self._stopped_total + (now - since if since is not None and now > since else 0)

    def _continue(self):
        os.kill(self.pid, signal.SIGCONT)
        now = time.monotonic_ns()
        if self._stopped_since is not None:
            self._stopped_total += now - self._stopped_since
            self._stopped_since = None

    def _halt(self):
        self._stopped_since = time.monotonic_ns()
        os.kill(self.pid, signal.SIGSTOP)

    @contextlib.contextmanager
    def held(self):
        """The process stopped for the while, whether the pacer had it stopped or not, and
        not continued meanwhile: for work on its input that its reads must not race."""
        with self._hold:
            stopped_here = self._stopped_since is None
            if stopped_here:
                self._halt()
            stat = os.open("/proc/%d/stat" % self.pid, os.O_RDONLY)
            try:
                while state(stat) not in (b"T", b"Z", b"X"):  # stopped, or gone
                    time.sleep(SETTLE_WAIT)
                yield
            finally:
                os.close(stat)
                if stopped_here:
                    self._continue()

    def credit(self, ns):
        """CPU time the board spent in emulated hardware: it does not count against the budget."""
        self._credit += ns  # the GIL makes this one add atomic enough: only this thread reads it

    def _run(self):
        self.realtime = _realtime()
        try:
            self._control()
        except (ProcessLookupError, OSError):
            pass  # the interpreter ended
        finally:
            try:
                self._continue()  # never leave a stopped process behind
            except OSError:
                pass

    def _control(self):
        """A token bucket: the process earns wall time / factor of CPU, banks at most
        SLICES_BANKED periods of it, and runs while it has some. Once it has used it up it is
        stopped for at least a period, so a busy board runs in slices of a period's budget
        (the calibration's). One that blocks (an emulated bus or flash wait, a sleep) stays
        continued: its wait costs wall time, as on the chip, not the rest of a period."""
        period = PERIOD
        slice_ns = period * 1e9 / self.factor
        allowance = 0.0  # ns of CPU the process may still use now
        used = CpuUsed(self.pid)
        seen = used.read(time.monotonic_ns())
        slept = used.sleeps()
        stops = 0  # stops since the last look at the sleeps: each counts as one
        last = self._started
        running = False
        try:
            while not self._stop.is_set():
                now = time.monotonic_ns()
                cpu = used.read(now)
                credit, self._credit = self._credit, 0
                sleeps = used.sleeps()
                woken = max(0, sleeps - slept - stops) * WAKE_NS
                slept, stops = sleeps, 0
                self.credited_ns += credit + woken
                earned = (now - last) / self.factor
                last = now
                # idle time banks a little budget at most, and so do wake-ups (their charge
                # fell on that budget); credit (work the chip does in hardware) and an
                # estimate of use found too high always count in full
                allowance = (min(allowance + earned + woken, SLICES_BANKED * slice_ns)
                             + credit - (cpu - seen))
                seen = cpu
                if allowance > MIN_RUN_NS:
                    if not running:
                        with self._hold:
                            self._continue()
                        running = True
                        self.slices += 1
                    time.sleep(allowance / 1e9)  # it can use at most this much CPU meanwhile
                    continue
                if running:
                    with self._hold:
                        self._halt()
                    running = False
                    stops += 1
                    exact = used.settled()  # the estimate counts time waiting for a core
                    allowance += seen - exact
                    seen = exact
                    if allowance > MIN_RUN_NS:
                        continue  # it had not used its budget after all: on at once
                self._stop.wait(max(period, -allowance * self.factor / 1e9))
        finally:
            used.close()
