"""VirtualBoard's supervisor: runs `micropython` on a console pty and restarts it as resets,
power cuts and crashes call for. One I/O thread serves, under one lock, the serial line to a
pty that outlives every reset (relay), the side channel that carries the emulated hardware
(side) and the faults a test injects (faults). Public methods are safe from any thread.
"""
import ctypes
import hashlib
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import tty
from pathlib import Path

from croupier.paths import hardware_dir
from croupier.sim import channel, flash, pace as paces, pacer, toolchain, uart
from croupier.sim.audio import Audio
from croupier.sim.channel import HARD_RESET, PWRON_RESET, SOFT_RESET
from croupier.sim.ds3231 import DS3231, cell_of
from croupier.sim.faults import Faults
from croupier.sim.line import Line
from croupier.sim.oled import SSD1306
from croupier.sim.relay import INTERRUPT, SerialRelay
from croupier.sim.side import SideChannel

# The heap a virtual board gives the firmware unless told otherwise: the one place that
# sets it (CROUPIER_TEST_HEAP overrides it). Above the ESP32's because the unix port is a
# 64-bit build; the smallest at which everything passes (docs/benchmarks.md, "Heap"). A
# board with the voices speaks every input: its longest session needs 160 KB
# (docs/benchmarks.md, "Speech"), so `croupier sim` never runs short.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "136k")
SPEAKING_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "168k")
SIM_HEAP = 64 * 1024  # for the emulation (46 KB at boot): _sim_boot.hold_back holds back the rest
SOFT_REBOOT_CODES = {3: "friendly", 4: "raw"}  # exit codes of mpy/_sim_boot.py
# The MicroPython releases whose ESP32 console the board can model (_sim_stdio): the
# firmware supports 1.23 and newer; 1.22 shows its "too old" screen.
RELEASES = ("1.22", "1.23", "1.24", "1.25", "1.26", "1.27", "1.28")


def load_pins() -> dict:
    return json.loads((hardware_dir() / "pins.json").read_text())


def _gpios(pins, prefix):
    return [s["gpio"] for s in sorted((s for s in pins["signals"] if s["signal"].startswith(prefix)),
                                      key=lambda s: s["signal"])]


def _raw_pty():
    """-> (master fd, non-blocking; slave fd) of a pty with no echo, line editing, signals or
    output processing: the serial port (kept for the board's life, across every reset), or
    an interpreter's console, raw as on a board (mpy/_sim_stdio.py cooks "\n" to "\r\n")."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


def _die_with_parent():
    """In the child: SIGKILL when the supervisor dies, so no interpreter is left behind
    (the signal follows the forking thread: interpreters are started on the I/O thread)."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class VirtualBoard(SerialRelay, SideChannel, Faults):
    """See docs/virtual-board.md. Use as a context manager, or start() and close()."""

    def __init__(self, flash=None, heap=None, link=None, firmware=True, rtc=False, pace=None,
                 micropython_version=RELEASES[-1], voices=False):
        """The arguments: docs/virtual-board.md, "From Python"."""
        if voices and firmware is not True:
            raise ValueError("voices=True puts the synthesized voices beside the current firmware build "
                             "(firmware=True), not beside %r" % (firmware,))
        if micropython_version not in RELEASES:
            raise ValueError("MicroPython version must be one of %s (the ESP32 releases modelled); not %r"
                             % (", ".join(RELEASES), micropython_version))
        self.micropython_version = micropython_version
        self.pace = paces.profile(pace)
        self._pins = load_pins()
        self.labels = self._pins["keypad"]["labels"]
        self.heap = toolchain.heap_bytes(heap if heap is not None else SPEAKING_HEAP if voices else FIRMWARE_HEAP)
        self.link = Path(link) if link else None
        self._flash_arg = Path(flash) if flash else None
        self._firmware = firmware
        self._voices = voices
        self.oled = SSD1306()
        self._lock = threading.RLock()
        self.audio = Audio(self._lock, self._emit, lambda port: self._send(channel.i2s_done(port)))
        self.received = 0  # bytes the host wrote to the serial port (before line faults)
        self._fit_rtc = rtc
        self.rtc = None  # the DS3231 model once start() fitted it
        self.flash_writes = 0  # progs + erases since start()
        self.flash_us = 0  # µs the chip's flash is busy for them (croupier.sim.pace.ESP32)
        self.bus_us = 0.0  # µs of I2C bus time since start()
        self.boots = 0  # interpreter starts that reached the REPL/boot.py stage
        self.formats = 0  # times the board found its flash unreadable and formatted it
        self.crashes = 0  # interpreter deaths nobody asked for
        self.rx_overflow = 0  # serial bytes lost because the stdin ring was full (croupier.sim.uart)
        self.powered = False
        self._tones = []
        self._keys = 0
        self._keys_since = None  # when _keys took its value (None: as the interpreter started)
        self._cut = None  # armed power cut message, resent to each new interpreter
        self._rtc = "0"
        self._output = bytearray()
        self._output_base = 0  # stream position of _output[0]
        self._listeners = []
        self._changed = threading.Condition(self._lock)
        self._thread = None
        self._proc = None
        self.throttle = None  # the running interpreter's pacer.Throttle (paced boards)
        self._side = None  # the connected side-channel socket
        self._console = None  # console master fd
        self._ready = False  # the interpreter said BOOTED: serial input may flow to it
        self._unsent = bytearray()  # board output waiting for the serial port to take it
        self._fifo = uart.Fifo()  # input the UART has, not yet in the ring
        self._rx = bytearray()  # input for the ring the console has not taken yet
        self._to_board = Line(never_forge=bytes((INTERRUPT,)))
        self._to_host = Line(slack=float("inf"))  # the host's end buffers: bytes the relay came late to arrive at once
        self.faults()  # the line into the board runs at the UART's baud rate
        self._last_interrupt = 0.0
        self._spawn_request = None  # (mode, cause) to start on the I/O thread once none runs
        self._killing = False  # the supervisor stopped the interpreter (reset, power)
        self._quick_crashes = 0
        self._closing = False
        self._tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def start(self):
        self._t0 = time.monotonic()  # tone times count from here
        self._tmp = Path(tempfile.mkdtemp(prefix="croupier-sim-"))
        try:
            self.flash = self._flash_arg or self._tmp / "flash.img"
            if not self.flash.exists():
                from croupier.build import build_firmware, with_voices  # what `croupier flash` deploys

                content = build_firmware() if self._firmware is True else self._firmware or None
                flash.create(self.flash, with_voices(content) if self._voices else content)
            flash.check(self.flash)
            self._image_lock = flash.lock(self.flash)  # an fd: close() releases it with the others
            if self._fit_rtc:
                self.rtc = DS3231(cell_of(self.flash), self._pins["rtc"]["address"])
            self._modules = toolchain.board_modules()
            self._unix_port = toolchain.unix_port()
            self._free = toolchain.bare_free(self._unix_port.command, self.heap)
            self._serial, self._serial_slave = _raw_pty()  # the slave kept open: clients come and go
            self.port = os.ttyname(self._serial_slave)
            if self.link:
                self._take_link()
            self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._listener.bind(str(self._tmp / "side"))
            self._listener.listen(2)
            self._wake_r, self._wake_w = os.pipe()
            self._selector = selectors.DefaultSelector()
            self._register(self._serial, self._on_serial)
            self._register(self._listener, self._on_accept)
            self._register(self._wake_r, lambda: os.read(self._wake_r, 4096))
            self._spawn_request = ("friendly", PWRON_RESET)
            self._thread = threading.Thread(target=self._loop, name="virtual-board", daemon=True)
            self._thread.start()
        except BaseException:
            self.close()
            raise
        return self

    def close(self):
        """Stop the interpreter and the relay; remove the link and temporary files."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            self._kill()
        self._wake()
        if self._thread:
            self._thread.join(10)
        with self._lock:
            self._reap()
            for fd in ("_serial", "_serial_slave", "_wake_r", "_wake_w", "_image_lock"):
                if getattr(self, fd, None) is not None:
                    os.close(getattr(self, fd))
                    setattr(self, fd, None)
            for end in ("_listener", "_selector"):
                if getattr(self, end, None):
                    getattr(self, end).close()
            if self._owns_link():
                self.link.unlink()
            if self._tmp:
                shutil.rmtree(self._tmp, ignore_errors=True)
            self.powered = False
            self._changed.notify_all()

    def hard_reset(self):
        """The EN button: restart with the flash kept, boot.py and main.py run."""
        self._restart(HARD_RESET)

    def restart(self):
        """Power on again (after a power cut or power_off), or power-cycle a running board."""
        self._restart(PWRON_RESET)

    def power_off(self):
        """Cut the power now, whatever the board is doing (an armed cut is dropped)."""
        self._restart(None)

    def _restart(self, cause):
        """Stop the interpreter if one runs; start one with this reset cause (None: stay off)."""
        with self._lock:
            if self._closing:
                return
            self._cut = None
            self._spawn_request = ("friendly", cause) if cause is not None else None
            self._kill()
        self._wake()

    def work(self) -> dict:
        """The interpreter's CPU ns and wake-ups (/proc/<pid>/schedstat), its read and write
        system calls (/proc/<pid>/io, each one the emulation's: chiptime.chip_parts takes them out)
        and the emulated I2C bus and flash busy µs, so far."""
        with self._lock:
            if self._proc is None:
                raise toolchain.SimError("the board is off: no interpreter's work to read")
            with open("/proc/%d/schedstat" % self._proc.pid) as f, open("/proc/%d/io" % self._proc.pid) as io:
                sched = f.read().split()
                calls = {k: int(v) for k, v in (line.split(":") for line in io)}
            return {"cpu_ns": int(sched[0]), "runs": int(sched[2]), "io_calls": calls["syscr"] + calls["syscw"],
                    "bus_us": self.bus_us, "flash_us": self.flash_us}

    def wait_boot(self, count=1, timeout=10.0):
        """Wait until the board has booted `count` times since start()."""
        self._wait(lambda: self.boots >= count, timeout, lambda: "board did not boot (%d boots)" % self.boots)

    def wait_off(self, timeout=10.0):
        self._wait(lambda: not self.powered, timeout, lambda: "board still powered")

    def subscribe(self, listener):
        """listener(event, data) from the I/O thread: ('output', bytes), ('display', None),
        ('boot', count), ('power', bool), ('tone', (freq, duty)), ('audio', samples played))."""
        self._listeners.append(listener)

    def _wait(self, done, timeout, message):
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0 or self._closing:
                    raise TimeoutError(message())
                self._changed.wait(min(left, 0.5))

    def _emit(self, event, data=None):
        self._changed.notify_all()
        for listener in list(self._listeners):
            listener(event, data)

    def _spawn(self, mode, cause):
        self._cause = cause
        self._console, slave = _raw_pty()
        self._register(self._console, self._on_console)  # from here, a failed start is _reap()ed
        ends = [slave]  # the interpreter's: closed here once it has them
        try:
            self._console_name = os.ttyname(slave)
            # A second, non-blocking descriptor of the console: the board takes a byte off its
            # ring through it, and waits on stdin only when the ring is empty.
            waiting = os.open(self._console_name, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
            ends.append(waiting)
            env = dict(os.environ, MICROPYPATH=str(self._modules))
            # machine.unique_id(): Espressif's OUI and 3 bytes that name the image
            uid = b"\x24\x0a\xc4" + hashlib.sha256(str(self.flash.resolve()).encode()).digest()[:3]
            env.update({"CROUPIER_SIM_" + k: str(v) for k, v in {
                "SOCK": self._tmp / "side", "FLASH": self.flash, "MODE": mode, "RESET_CAUSE": cause,
                "UID": uid.hex(":"), "RTC": self._rtc, "FREE": self._free, "CONSOLE_WAITING": waiting,
                "FLASH_US": paces.ESP32.flash_timing(), "PACED": int(bool(self.pace)),
                "RELEASE": self.micropython_version,
                "KEYPAD": "/".join(",".join(map(str, _gpios(self._pins, lines))) for lines in ("key_row", "key_col")),
                "I2C": "%d,%d,%d" % (_gpios(self._pins, "i2c_sda")[0], _gpios(self._pins, "i2c_scl")[0],
                                     self._pins["i2c"]["address"]),
                "I2C_MORE": self.rtc.address if self.rtc else "",
            }.items()})
            self._proc = subprocess.Popen(
                [*self._unix_port.command, "-X", "heapsize=%d" % (self.heap + SIM_HEAP), "-m", "_sim_boot"],
                stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                pass_fds=(waiting,), preexec_fn=_die_with_parent)
        finally:
            for fd in ends:
                os.close(fd)
        if self.pace:  # from its boot on (side.py): the emulation's own start-up is a chip's ROM and C init
            self.throttle = pacer.Throttle(self._proc.pid, self.pace.throttle_factor)
        self._started_at = time.monotonic()
        self._ready = False
        self.powered = True
        self._emit("power", True)

    def _kill(self):
        if self._proc:  # even one that ended by itself, its end not read yet: no reboot or crash now
            self._killing = True
            if self._proc.poll() is None:
                os.killpg(self._proc.pid, signal.SIGKILL)

    def _reap(self):
        """The interpreter is gone or going (or failed to start): end it, close its ends. -> its exit code."""
        code = None
        if self.throttle:
            self.throttle.close()
            self.throttle = None
        if self._proc:
            self._kill()  # if its console closed yet it runs: it is ending (a kill keeps its code), or stuck
            code = self._proc.wait()
            self._proc = None
        for end in ("_console", "_side"):
            obj = getattr(self, end)
            if obj is not None:
                self._selector.unregister(obj)
                os.close(obj) if isinstance(obj, int) else obj.close()
                setattr(self, end, None)
        self._ready = self._killing = False
        self.audio.turn_off()  # the I2S peripheral stops with the interpreter
        self._rx.clear()
        self._fifo = uart.Fifo()  # what the UART held goes with the interpreter
        return code

    def _on_exit(self):
        """The console closed: the interpreter ended. Decide what the board does next."""
        on_purpose = self._killing
        code = self._reap()
        self.powered = False
        if on_purpose and self._spawn_request in (None, ("friendly", PWRON_RESET)):
            self.oled.reset()  # the board's power went (power_off, a cut, restart()): the OLED's too
        if self._closing or self._spawn_request:
            return  # a reset: _loop starts the next interpreter
        if on_purpose:
            self._emit("power", False)  # power_off() or a power cut: off until restart()
        elif code in SOFT_REBOOT_CODES:
            self._spawn_request = (SOFT_REBOOT_CODES[code], self._cause)
        else:
            self.crashes += 1
            quick = time.monotonic() - self._started_at < 2
            self._quick_crashes = self._quick_crashes + 1 if quick else 0
            note = "\r\nvirtual board: MicroPython ended (exit code %s)" % code
            if self._quick_crashes >= 3:
                self._board_output((note + ", three times in a row at boot: board off\r\n").encode())
                self._emit("power", False)
                return
            self._board_output((note + ", rebooting\r\n").encode())
            self._spawn_request = ("friendly", SOFT_RESET)  # as a panic reboots the ESP32

    def _register(self, fileobj, handler):
        self._selector.register(fileobj, selectors.EVENT_READ, handler)

    def _loop(self):
        while True:
            with self._lock:
                if self._closing:
                    return
                if self._spawn_request and self._proc is None:  # here only: PDEATHSIG follows this thread
                    request, self._spawn_request = self._spawn_request, None
                    try:
                        self._spawn(*request)
                    except (OSError, toolchain.SimError) as exc:
                        self._reap()  # nothing of it stays: the board is off
                        self._board_output(("virtual board: cannot start MicroPython: %s\r\n" % exc).encode())
                self.audio.advance()
                timeout = min((w for w in (self._pump(), self.audio.wait()) if w is not None), default=None)
            for key, _ in self._selector.select(timeout):
                with self._lock:
                    if self._closing:
                        return
                    if self._selector.get_map().get(key.fd) is key:  # not closed by an earlier event
                        key.data()

    def _wake(self):
        if getattr(self, "_wake_w", None) is not None:
            os.write(self._wake_w, b"!")
