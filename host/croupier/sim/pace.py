"""Pace: the virtual board at the speed and limits of the chip it stands for.

A profile names the chip's figures: how many times slower than this host's unix port it
runs bytecode, its serial line and receive buffer, and its flash timing. The Throttle holds
the interpreter's CPU time to wall time / factor: a pacer process (croupier.sim.pacer)
stops (SIGSTOP) and continues (SIGCONT) it, counting the CPU time it really got. The factor
is the gauge's: a second interpreter paced the same way runs a fixed mix of bytecode, and
its work per paced CPU-second, which moves with the host's load and caches, sets how much
CPU time a second of the chip's work takes on this host now. The ChipClock tells the chip's
own time from that CPU time: the line into the board keeps it. See docs/virtual-board.md,
"Pace".
"""
import contextlib
import copy
import os
import subprocess
import sys
import threading
import time

from croupier.sim import pacer, toolchain, uart
from croupier.sim.pacer import PERIOD, Hold, Record, cpu_clock, runnable, state

# How far the line into a paced board may fall behind the board's own clock (ChipClock)
# before it counts as paused: a slice runs the chip's clock a period ahead of the host's in
# a few hundred µs. A slice that ran longer (the pacer late to stop it, or what an idle board
# banked) finds the line paused meanwhile: with three periods, the bytes of the stop that
# paid such a slice back all fell due at once, and a reader that took every byte at once
# lost up to 340 of 3,000 (tests/bench/bench_line_reader.py; none in 12 runs with one).
CHIP_SLACK = PERIOD

# A stretch of emulated hardware that a pacer stop cut into is credited its CPU time: the
# wall time before its first stop and after its last one (the board ran through them, less
# any wait for a core, which nothing tells), and the CPU time between the two as the stops
# recorded it, less RESUME_CHARGE a stop: what of a resume the host charges to the
# interpreter's CPU time (tests/bench/bench_resume.py: about 50 µs), which the gauge's
# factor takes in, as it does in the board's own code. (Its wall time less the stops
# credited the board's waits for its core too: 1.05-1.3 times its CPU time with the pacer on
# that core, or a busy one.) It is credited CREDIT_ACROSS_STOPS at most: what a stretch
# without a stop may be (_sim_channel._PAUSE_US). Such stretches are slow: a board's first
# pin read after a resume took 100-200 µs of host CPU, most of its slice, and uncredited, a
# keypad scan that two stops cut into cost the chip 40 ms.
RESUME_CHARGE = 50000  # ns
CREDIT_ACROSS_STOPS = 2000000  # ns

# How many times slower than this host's unix port the ESP32 runs bytecode.
# micropython-pystone-lowmem on the unix port, unpaced, scores ~260,000 pystones per second of
# the interpreter's CPU time on the 2-core build machine; public ESP32 (240 MHz) figures are
# 1,075-1,661, so the chip is ~200 times slower (ESP32_SPEED_RATIO: host CPU time x this =
# the chip's time for the same bytecode, the figure of a board run at full speed).
ESP32_SPEED_RATIO = 200.0
# The pacer's factor (budget = wall time / factor) is smaller, and it moves: each resume
# leaves the interpreter slow for a while (on the build VM its caches and the hypervisor's
# page tables are cold after a stop, and the stop and continue themselves are charged to
# it), so a paced CPU-second does less work than an unpaced one, the less the shorter its
# slices and the quieter the host (beside busy loops on both cores, 2.5 times as much). The
# gauge reads it off the host as it is (pacer.Gauge); this is where it starts, what
# pystone on a paced board called for on quiet evenings (tests/bench/bench_pystone.py).
ESP32_FACTOR = 74.0
# What a paced board's user is told when its pacer could not be real-time (pacer._place).
NOT_REALTIME = ("pacer not real-time: a busy host may run the board fast "
                "(allow real-time priority: docs/virtual-board.md, Pace)")
# The core every paced interpreter runs on, the gauge's included: the host's speed moves on
# each core on its own, and the gauge measures the boards' (croupier.sim.pacer).
PACE_CPU = max(os.sched_getaffinity(0))


class Profile:
    """What a paced board emulates. factor: the pacer's (budget = wall time / factor) to
    start from, then the gauge's while gauged, else fixed; speed_ratio: host CPU time x
    speed_ratio = the chip's time for the same work. rx_buffer: serial bytes the chip's stdin
    ring holds before it loses them. Flash (µs): a page program
    of 256 bytes at most, the first byte and each further one of a short program, a 4 KiB
    sector erase."""

    def __init__(self, name, factor, speed_ratio, baud, rx_buffer, page_us, byte_first_us, byte_us, erase_us,
                 gauged=True):
        self.name, self.factor, self.speed_ratio, self.gauged = name, factor, speed_ratio, gauged
        self.baud, self.rx_buffer = baud, rx_buffer
        self.page_us, self.byte_first_us, self.byte_us, self.erase_us = page_us, byte_first_us, byte_us, erase_us

    def with_factor(self, factor):
        """The same profile paced at a fixed factor, not the gauge's (to calibrate it)."""
        other = copy.copy(self)
        other.factor, other.gauged = factor, False
        return other

    def flash_timing(self) -> str:
        """The flash figures as the board side reads them (CROUPIER_SIM_FLASH_US)."""
        return "%d,%d,%d,%d" % (self.page_us * 10, self.byte_first_us * 10, self.byte_us * 10, self.erase_us * 10)


# ESP32-WROOM-32: ESP32 at 240 MHz; UART0 and the stdin ring as every virtual board has
# them (croupier.sim.uart); 4 MB
# SPI NOR flash, figures of the Winbond W25Q32JV datasheet (typical): page program tPP
# 0.4 ms, byte program tBP1 30 µs + tBP2 2.5 µs per further byte, 4 KB sector erase tSE 45 ms.
ESP32 = Profile("esp32", ESP32_FACTOR, ESP32_SPEED_RATIO, baud=uart.BAUD, rx_buffer=uart.RING,
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


class ChipClock:
    """The chip's own time on a paced board, in ns on the monotonic clock's scale (the two
    agree when the pacer starts; the chip runs ahead only by a burst, behind by what the
    host kept it from running): factor x the CPU time
    the interpreter used (less what was credited as emulated hardware) and, after a sleep
    (an emulated bus or flash wait, a sleep, a wait for input), the sleep's length on top,
    ending at the host's time at most: the board's clock is the host's, so its sleeps end
    at a time on it. A burst puts the chip ahead of the host (a period's work in a few
    hundred µs); a sleep takes up that lead first, as the chip would still have been
    working. (Counting each sleep in full on top of the burst's work ran this clock ahead
    of the host without bound, 900 ms in 3 s of typing, until every byte sent fell due the
    moment it arrived.) The time the pacer held it stopped is not counted (the factor
    stands for it), nor the time it waited for one of the host's cores (run_delay in
    /proc/<pid>/schedstat): a host late to run the board (a busy core, a pacer late to stop
    it that then stops it longer to pay back) does not age the chip, which stays that much
    behind the host: its sleeps last as long as the firmware's clock (the host's) measures
    them. (Catching up with the host at any sleep, a chip 45 ms behind took a few µs of a
    stop's bookkeeping for a sleep and leapt 45 ms: all the bytes of a request sent
    meanwhile fell due at once, beyond its buffer.) A process in state R may be in a wait
    for a core the kernel has not counted yet: the clock then counts its CPU time alone (a
    lower bound), exact again once it sleeps or stops."""

    def __init__(self, pid, factor, stopped_ns, credited_ns):
        self._factor = factor  # callables: the pacer's factor now, and its records
        self._stopped_ns, self._credited_ns = stopped_ns, credited_ns
        self._clock = cpu_clock(pid)
        self._stat = os.open("/proc/%d/stat" % pid, os.O_RDONLY)
        self._schedstat = os.open("/proc/%d/schedstat" % pid, os.O_RDONLY)
        self._exact = self._sample()  # (wall, cpu, run_delay, stopped, credited) when _chip was exact
        self._chip = self._shown = self._exact[0]
        self._owed = 0  # ns of credit beyond the CPU time counted since it came

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
        # credit comes after the CPU time it stands for (the board reports it in steps), often
        # while the board is stopped: what is more than the CPU since is owed, not dropped
        net = (cpu - cpu0) - (credited - credited0) - self._owed
        chip = self._chip + int(self._factor() * max(0, net))
        if not waiting:
            self._owed = max(0, -net)
            slept = (now - wall0) - (cpu - cpu0) - (delay - delay0) - (stopped - stopped0)
            if slept > 0 and now > chip:
                chip = min(now, chip + slept)
                if chip == now:
                    self._owed = 0  # caught up with the host: what was owed is spent
            self._chip = chip
            self._exact = sample
        self._shown = max(self._shown, chip)  # credit arriving late must not turn it back
        return self._shown

    def close(self):
        os.close(self._stat)
        os.close(self._schedstat)


class Throttle:
    """Holds process `pid` to wall time / factor of CPU time from start() on, through a
    pacer process (croupier.sim.pacer): gauged (gauge_path: the gauge's MICROPYPATH, with
    the board's modules and pystone), the factor moves with the host's speed from `factor`
    on, else it stays `factor`. Budget the emulation spent doing what is hardware on
    a chip comes back through credit()."""

    last_factor = None  # the last gauged board's: where the next one starts

    def __init__(self, pid, factor, gauge_path=None):
        gauged = gauge_path is not None
        self.pid = pid
        os.sched_setaffinity(pid, {PACE_CPU})
        self.record = Record.create()
        self.record.factor = (Throttle.last_factor or factor) if gauged else factor
        self._gauged = gauged
        self._clock = cpu_clock(pid)
        self._cpu0 = self._cpu = 0
        self._started = self._ended = None
        self.chip = None  # its ChipClock, from start() on
        self._offered = threading.Lock()
        self._hold = Hold(self.record, pid)
        self._stat = os.open("/proc/%d/stat" % pid, os.O_RDONLY)  # held() waits on its state
        control_read, self._control = os.pipe()
        gauge = [toolchain.micropython(), gauge_path] if gauged else []
        try:
            self._proc = subprocess.Popen(
                [sys.executable, pacer.__file__, str(pid), str(self.record.fd), str(control_read), str(PACE_CPU)]
                + [str(arg) for arg in gauge], pass_fds=(self.record.fd, control_read), stdin=subprocess.DEVNULL)
        finally:
            os.close(control_read)

    @property
    def factor(self):
        """The factor the pacer holds it to now."""
        return self.record.factor

    def start(self):
        """Stop it, and from here on let it run only in the slices the pacer gives it."""
        with self._hold.locked():
            self._hold.stop()
        self._started = time.monotonic_ns()
        self._cpu0 = self._cpu = time.clock_gettime_ns(self._clock)
        self.chip = ChipClock(self.pid, lambda: self.factor, self.record.stopped_ns, lambda: self.credited_ns)
        os.write(self._control, b"g")
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
        """The CPU time it may have had since start(): wall time / factor, summed as the
        factor moved."""
        return self.record.fields[Record.BUDGET]

    @property
    def credited_ns(self):
        """CPU time credited back: the emulation's own code, from the moment the board
        reported it (the chip's clock, which reads this, no longer runs on that CPU time
        until the pacer's next look, up to a slice later), and the host's wake-ups."""
        fields = self.record.fields
        return fields[Record.CREDIT_OFFERED] + fields[Record.WOKEN]

    @property
    def slices(self):
        """Times the process was let run."""
        return self.record.fields[Record.SLICES]

    @property
    def realtime(self):
        """Whether the pacer got real-time scheduling (None: not known yet)."""
        flag = self.record.fields[Record.REALTIME]
        return None if flag < 0 else bool(flag)

    def close(self):
        """End the pacer (it continues the process first)."""
        if self._proc is None:
            return
        self.cpu_ns
        if self._started is not None:
            self._ended = self._ended or time.monotonic_ns()
        os.close(self._control)  # the pacer's end of file
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc = None
        if self._gauged and self._started is not None:
            Throttle.last_factor = self.factor
        if self.chip:
            self.chip.close()
        self._hold.close()
        os.close(self._stat)
        os.close(self.record.fd)  # its memory stays readable: the figures after the end

    @contextlib.contextmanager
    def held(self):
        """The process stopped for the while, whether the pacer had it stopped or not, and
        not continued meanwhile: for work on its input that its reads must not race."""
        with self._hold.locked():
            stopped_here = self.record.fields[Record.STOPPED_SINCE] < 0
            if stopped_here:
                self._hold.stop()
            try:
                while state(self._stat) not in (b"T", b"Z", b"X"):  # stopped, or gone
                    time.sleep(pacer.SETTLE_WAIT)
                yield
            finally:
                if stopped_here:
                    self._hold.resume()

    def credit(self, ns):
        """CPU time the board spent in emulated hardware: it does not count against the budget."""
        with self._offered:
            self.record.fields[Record.CREDIT_OFFERED] += ns

    def credit_across_stops(self, ended_ns, lasted_ns):
        """A stretch of emulated hardware that ended at ended_ns (monotonic) and lasted
        lasted_ns, during which the pacer stopped the board: credited its CPU time less a
        RESUME_CHARGE a stop, up to CREDIT_ACROSS_STOPS. A stretch with no stop in it went to
        sleep or waited for a core: no CPU time, nothing credited."""
        began_ns = ended_ns - lasted_ns
        try:
            cpu_now = time.clock_gettime_ns(self._clock)  # exact if a stop is under way
        except OSError:
            return  # it ended
        stops, first_began, last_ended, between = self.record.stops_within(began_ns, ended_ns, cpu_now)
        if stops:
            ran = (first_began - began_ns) + between + (ended_ns - last_ended)
            self.credit(min(max(0, ran - stops * RESUME_CHARGE), CREDIT_ACROSS_STOPS))
