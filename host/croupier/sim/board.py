"""VirtualBoard: the Croupier hardware around a real MicroPython unix port.

The supervisor runs `micropython` on a console pty and relays it to a serial-port pty that
outlives every reset. Between the two sit the serial line model (faults, baud rate) and the
Ctrl-C wire: a 0x03 from the host becomes SIGINT, as the UART's interrupt character does
on the board. A side channel (a unix socket) carries the emulated hardware: key contacts
in, I2C writes, PWM changes, flash writes and reset requests out. One I/O thread does all
of it; the public methods are safe to call from any thread.
"""
import ctypes
import fcntl
import hashlib
import json
import os
import random
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import termios
import threading
import time
from pathlib import Path

from croupier.paths import hardware_dir
from croupier.sim import channel, flash, pace as paces, ptys, pystone, toolchain, uart
from croupier.sim.ds3231 import DS3231, cell_of
from croupier.sim.line import LATE_AFTER, Early, Line, Outbox
from croupier.sim.oled import SSD1306

SIM_HEAP = 64 * 1024  # heap for the emulation's own modules (about 54 KB), held back from the firmware
PWRON_RESET, HARD_RESET, SOFT_RESET = 1, 2, 5  # machine.reset_cause() values on the ESP32
SOFT_REBOOT_CODES = {3: "friendly", 4: "raw"}  # exit codes of mpy/_sim_boot.py
INTERRUPT = 0x03
OUTPUT_KEPT = 4 << 20  # bytes of board output kept for wait_output()
UNSENT_KEPT = 1 << 20  # bytes waiting for a reader of the serial port; older ones are lost
# The MicroPython releases whose ESP32 console the board can model (_sim_stdio): the
# firmware supports 1.23 and newer; 1.22 shows its "too old" screen.
RELEASES = ("1.22", "1.23", "1.24", "1.25", "1.26", "1.27", "1.28")
LINE_TICK = 0.001  # a line with a baud rate moves its bytes this often (not one wake-up per byte)
# A paced board runs each period's work in a burst of a few hundred µs, then is stopped: the
# line into it gives bytes this long before they are due, so that it can read them in the
# burst they are due in, not one period late (its buffer counts only the bytes due: _settle_rx).
LOOK_AHEAD = paces.PERIOD
SIDE_DEADLINE = 5.0  # seconds the board may take to read a side-channel message
LOGICAL_KEYS = {"ok": "#", "undo": "*", "a": "A", "b": "B", "c": "C", "d": "D", "menu": "D"}


def load_pins(path: Path = None) -> dict:
    return json.loads(Path(path or hardware_dir() / "pins.json").read_text())


def _gpios(pins, prefix):
    return [s["gpio"] for s in sorted((s for s in pins["signals"] if s["signal"].startswith(prefix)),
                                      key=lambda s: s["signal"])]


def _die_with_parent():
    """In the child: get SIGKILL if the supervisor dies, so no interpreter is left behind.
    (The signal follows the forking thread: interpreters are started on the I/O thread.)"""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class VirtualBoard:
    """See docs/virtual-board.md. Use as a context manager, or start() and close()."""

    def __init__(self, flash=None, heap=None, link=None, firmware=True, uid=None, pins=None, rtc=False, pace=None,
                 micropython_version=RELEASES[-1]):
        """flash: image file (created, with the firmware, when missing; None: a temporary
        one). firmware: True for the current build, a folder to install instead, or False
        for an empty filesystem; used only when the image is created. link: a path made a
        symlink to the serial port. uid: 6 bytes for machine.unique_id() (default: derived
        from the image path). rtc: fit the optional DS3231 clock module; its time is kept
        beside the flash image (ds3231.cell_of), so it counts on while the board is off.
        pace: 'esp32' runs the board at that chip's speed and limits
        (croupier.sim.pace); None or 'none': full speed. micropython_version: the ESP32
        release ('1.22' .. '1.28') whose console the board models and whose version
        sys.implementation reports."""
        if micropython_version not in RELEASES:
            raise ValueError("MicroPython version must be one of %s (the ESP32 releases modelled); not %r"
                             % (", ".join(RELEASES), micropython_version))
        self.micropython_version = micropython_version
        self.pace = paces.profile(pace)
        # the pace's gauge runs pystone: fetched now, so that a failure starts nothing
        self._pystone = pystone.source().parent if self.pace and self.pace.gauged else None
        self._pins = load_pins(pins)
        self.labels = self._pins["keypad"]["labels"]
        if heap is None:
            from croupier.sim import FIRMWARE_HEAP as heap  # noqa: N811 (the product's default)
        self.heap = toolchain.heap_bytes(heap)
        self.link = Path(link) if link else None
        self._flash_arg = Path(flash) if flash else None
        self._firmware = firmware
        self._uid = uid
        self.oled = SSD1306()
        self.received = 0  # bytes the host wrote to the serial port (before line faults)
        self._fit_rtc = rtc
        self.rtc = None  # the DS3231 model once start() fitted it
        self.flash_writes = 0  # progs + erases since start()
        self.boots = 0  # interpreter starts that reached the REPL/boot.py stage
        self.formats = 0  # times the board found its flash unreadable and formatted it
        self.crashes = 0  # interpreter deaths nobody asked for
        self.rx_overflow = 0  # serial bytes lost because the stdin ring was full (croupier.sim.uart)
        self.rx_peak = 0  # the most serial bytes the ring held unread (reset at will)
        self.powered = False
        self._tones = []
        self._keys = 0
        self._keys_at = time.monotonic()  # when the key state last changed
        self._cut = None  # armed power cut message, resent to each new interpreter
        self._rtc = "0"
        self._cause = PWRON_RESET
        self._output = bytearray()
        self._output_base = 0  # stream position of _output[0]
        self._listeners = []
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._thread = None
        self._proc = None
        self.throttle = None  # the running interpreter's pace.Throttle (paced boards)
        self._side = None  # the connected side-channel socket
        self._console = None  # console master fd
        self._ready = False  # the interpreter said BOOTED: serial input may flow to it
        self._unsent = bytearray()  # board output waiting for the serial port to take it
        self._fifo = uart.Fifo()  # unpaced: input the UART has, not yet in the ring
        self._rx = bytearray()  # input for the ring the console has not taken yet (paced: the FIFO too)
        self._early = Early()  # paced: the input given before it was due, by the chip's clock
        self._to_board = Line(never_forge=bytes((INTERRUPT,)),
                              slack=(LATE_AFTER, paces.CHIP_SLACK) if self.pace else (LATE_AFTER,),
                              lead=LOOK_AHEAD if self.pace else 0.0)
        self._to_host = Line(slack=(float("inf"),))  # the host's end buffers: bytes the relay came late to arrive at once
        self._outbox = Outbox()  # paced: output the chip's clock has not written yet
        self.faults()  # the line into the board runs at the UART's baud rate
        self._last_interrupt = 0.0
        self._next_start = None  # (mode, cause) of the interpreter to start after this one
        self._spawn_request = None  # (mode, cause) to start now, on the I/O thread
        self._killing = False  # the supervisor stopped the interpreter (reset, power)
        self._quick_crashes = 0
        self._closing = False
        self._tmp = None

    # --- lifecycle -------------------------------------------------------------------------
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self):
        self._t0 = time.monotonic()  # tone times count from here
        self._tmp = Path(tempfile.mkdtemp(prefix="croupier-sim-"))
        try:
            self.flash = self._flash_arg or self._tmp / "flash.img"
            if not self.flash.exists():
                content = flash.firmware_staging() if self._firmware is True else self._firmware or None
                flash.create(self.flash, content)
            flash.check(self.flash)
            self._image_lock = flash.lock(self.flash)  # an fd: close() releases it with the others
            if self._fit_rtc:
                self.rtc = DS3231(cell_of(self.flash), self._pins["rtc"]["address"])
            self._modules = toolchain.board_modules()
            self._micropython = toolchain.micropython()
            self._free = toolchain.bare_free(self.heap)
            self._serial, self._serial_slave, self.port = ptys.serial_port()
            if self.link:
                self._take_link()
            self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._listener.bind(str(self._tmp / "side"))
            self._listener.listen(2)
            self._wake_r, self._wake_w = os.pipe()
            self._selector = selectors.DefaultSelector()
            self._selector.register(self._serial, selectors.EVENT_READ, self._on_serial)
            self._selector.register(self._listener, selectors.EVENT_READ, self._on_accept)
            self._selector.register(self._wake_r, selectors.EVENT_READ, self._on_wake)
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
            if getattr(self, "_listener", None):
                self._listener.close()
            if self._owns_link():
                self.link.unlink()
            if self._tmp:
                shutil.rmtree(self._tmp, ignore_errors=True)
            self.powered = False
            self._changed.notify_all()

    def _take_link(self):
        """Make self.link a symlink to our port. A link to a port that still exists belongs
        to a running board and is left alone; a stale one (its board gone) is replaced."""
        if self.link.is_symlink() and (not self.link.exists() or self._owns_link()):
            self.link.unlink()  # the port it named is gone (or was given to us again)
        try:
            self.link.symlink_to(self.port)
        except FileExistsError:
            what = ("links to %s, a port still open (a running virtual board's?)" % os.readlink(self.link)
                    if self.link.is_symlink() else "exists and is not a link")
            raise toolchain.SimError("%s %s: choose another --link (or stop that board)" % (self.link, what)) from None

    def _owns_link(self):
        """True when self.link is our symlink: another board's link is never removed."""
        port = getattr(self, "port", None)
        return bool(self.link and port and self.link.is_symlink() and os.readlink(self.link) == port)

    # --- resets and power ------------------------------------------------------------------
    def hard_reset(self):
        """The EN button: restart with the flash kept, boot.py and main.py run."""
        self._restart(HARD_RESET)

    def restart(self):
        """Power on again (after a power cut or power_off), or power-cycle a running board."""
        self._restart(PWRON_RESET)

    def power_off(self):
        """Cut the power now, whatever the board is doing (an armed cut is dropped)."""
        with self._lock:
            self._next_start = None
            self._cut = None
            self._kill()
        self._wake()

    def stall(self, seconds):
        """Stop the interpreter for `seconds` (SIGSTOP), then continue it: a chip busy in a
        flash erase, a collection or a debugger. The line keeps delivering meanwhile, into the
        receive path, whose overflow counts (rx_overflow). Not for a paced board (its pacer
        stops and continues the interpreter too). Returns at once when no interpreter runs."""
        if self.pace:
            raise ValueError("stall() is for an unpaced board: a paced one's pacer stops it too")
        with self._lock:
            proc = self._proc
            if proc is None:
                return
            os.kill(proc.pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            with self._lock:
                if self._proc is proc:
                    os.kill(proc.pid, signal.SIGCONT)

    def cut_power(self, after_writes=None, within=None, seed=None, tear=True):
        """Arm a power cut at the after_writes-th next flash write (prog or erase), or at a
        random one of the next `within` (seeded). tear: the cut write lands half-done.
        The board stays off until restart(). Armed before start(), it counts from the first
        write after power-on. -> the write count it will die at."""
        if (after_writes is None) == (within is None):
            raise ValueError("give after_writes or within")
        n = after_writes if within is None else random.Random(seed).randint(1, within)
        if n < 1:
            raise ValueError("after_writes must be at least 1")
        with self._lock:
            self._cut = channel.arm_cut(n, tear)
            self._send(self._cut)
        return n

    def _restart(self, cause):
        with self._lock:
            if self._closing:
                return
            self._cut = None
            if self._proc:
                self._next_start = ("friendly", cause)
                self._kill()
            else:
                self._spawn_request = ("friendly", cause)
        self._wake()

    # --- keys --------------------------------------------------------------------------------
    def key_bit(self, key: str) -> int:
        label = LOGICAL_KEYS.get(key, key.upper() if len(key) == 1 else key)
        if label not in self.labels:
            raise ValueError("no key %r on the keypad (labels: %s)" % (key, " ".join(self.labels)))
        return 1 << self.labels.index(label)

    def key_down(self, key):
        with self._lock:
            self._keys |= self.key_bit(key)
            self._send_keys()

    def key_up(self, key):
        with self._lock:
            self._keys &= ~self.key_bit(key)
            self._send_keys()

    def press(self, key, ms=100, gap=60):
        """Hold a key for ms milliseconds, release it and wait gap ms (real debounce timing)."""
        self.key_down(key)
        time.sleep(ms / 1000)
        self.key_up(key)
        time.sleep(gap / 1000)

    @property
    def keys_down(self):
        return [label for i, label in enumerate(self.labels) if self._keys >> i & 1]

    # --- what the board shows --------------------------------------------------------------
    @property
    def i2c_bytes(self):
        """Bytes written on the I2C bus so far, control bytes included."""
        return self.oled.bytes_received

    def glass(self) -> bytes:
        """The OLED as seen on the glass: 1024 bytes in page order, like the `screen` command."""
        with self._lock:
            return self.oled.glass()

    def image(self, scale=4):
        from croupier.oled_render import render

        with self._lock:
            return render(self.oled.glass(), scale=scale, contrast=self.oled.contrast)

    @property
    def tones(self):
        """[(t_ms since start(), freq, duty_u16), ...]: every PWM change; duty 0 = silent."""
        with self._lock:
            return list(self._tones)

    def faults(self, drop=0.0, corrupt=0.0, baud=None, seed=None, direction="both"):
        """Serial line faults on the relay: drop/corrupt probabilities per byte, a baud rate
        (8N1 timing; default: the UART's, 115200, into the board, and out of a paced one; an
        unpaced board's output is not held back) and a seed; direction 'both', 'to_board'
        or 'to_host'."""
        lines = {"both": (self._to_board, self._to_host), "to_board": (self._to_board,),
                 "to_host": (self._to_host,)}
        if direction not in lines:
            raise ValueError("direction must be one of %s" % ", ".join(lines))
        with self._lock:
            for i, line in enumerate(lines[direction]):
                rate = baud if baud is not None else uart.BAUD if line is self._to_board or self.pace else None
                line.configure(drop, corrupt, rate, None if seed is None else seed + i)
        self._wake()

    # --- board output ------------------------------------------------------------------------
    def mark(self) -> int:
        """A position in the board's output stream, for output()/wait_output()."""
        with self._lock:
            return self._output_base + len(self._output)

    def output(self, since=0) -> bytes:
        """What the board printed (before line faults) since a mark()."""
        with self._lock:
            return bytes(self._output[max(0, since - self._output_base):])

    def wait_output(self, pattern: bytes, timeout=10.0, since=0) -> bytes:
        """Wait until the output since a mark contains pattern; -> that output."""
        self._wait(lambda: pattern in self.output(since), timeout,
                   lambda: "board output never showed %r; got %r" % (pattern, self.output(since)[-400:]))
        return self.output(since)

    def wait_sent(self, timeout=10.0):
        """Wait until everything the board printed has crossed the line to the serial port."""
        self._wait(lambda: not (self._outbox.pending() or self._to_host.pending() or self._unsent), timeout,
                   lambda: "board output still on its way to the port (%d bytes)" % len(self._unsent))

    def wait_delivered(self, timeout=60.0):
        """Wait until the line into the board has carried what the relay took from the
        serial port (into the board's stdin ring, or lost to it). Paced, that may be
        well past its line time: the line waits while the host keeps the board from running."""
        self._wait(lambda: not (self._to_board.pending() or len(self._fifo)), timeout,
                   lambda: "serial input still on its way to the board")

    def wait_boot(self, count=1, timeout=10.0):
        """Wait until the board has booted `count` times since start()."""
        self._wait(lambda: self.boots >= count, timeout, lambda: "board did not boot (%d boots)" % self.boots)

    def wait_off(self, timeout=10.0):
        self._wait(lambda: not self.powered, timeout, lambda: "board still powered")

    def subscribe(self, listener):
        """listener(event, data) from the I/O thread: ('output', bytes), ('display', None),
        ('boot', count), ('power', bool)."""
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

    # --- the interpreter ---------------------------------------------------------------------
    def _uid_text(self):
        uid = self._uid or b"\x24\x0a\xc4" + hashlib.sha256(str(Path(self.flash).resolve()).encode()).digest()[:3]
        return ":".join("%02x" % b for b in uid)

    def _spawn(self, mode, cause):
        self._cause = cause
        master, slave = ptys.console()
        self._console_name = os.ttyname(slave)
        # A second, non-blocking descriptor of the console: the board takes a byte off its
        # ring through it, and waits on stdin only when the ring is empty.
        waiting = os.open(self._console_name, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        env = dict(os.environ, MICROPYPATH=str(self._modules))
        env.update({"CROUPIER_SIM_" + k: str(v) for k, v in {
            "SOCK": self._tmp / "side", "FLASH": self.flash, "MODE": mode, "RESET_CAUSE": cause,
            "UID": self._uid_text(), "RTC": self._rtc, "FREE": self._free, "CONSOLE_WAITING": waiting,
            "FLASH_US": self.pace.flash_timing() if self.pace else "0,0,0,0", "PACED": int(bool(self.pace)),
            "RELEASE": self.micropython_version,
            "KEYPAD": "%s/%s" % (",".join(map(str, _gpios(self._pins, "key_row"))),
                                 ",".join(map(str, _gpios(self._pins, "key_col")))),
            "I2C": "%d,%d,%d" % (_gpios(self._pins, "i2c_sda")[0], _gpios(self._pins, "i2c_scl")[0],
                                 self._pins["i2c"]["address"]),
            "I2C_MORE": self.rtc.address if self.rtc else "",
        }.items()})
        try:
            self._proc = subprocess.Popen(
                [self._micropython, "-X", "heapsize=%d" % (self.heap + SIM_HEAP), "-m", "_sim_boot"],
                stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                pass_fds=(waiting,), preexec_fn=_die_with_parent)
        finally:
            os.close(slave)
            os.close(waiting)
        if self.pace:  # paced once booted: the emulation's own start-up is a chip's ROM and C init
            gauge = os.pathsep.join((str(self._modules), str(self._pystone))) if self._pystone else None
            self.throttle = paces.Throttle(self._proc.pid, self.pace.factor, gauge)
        self._console = master
        self._started_at = time.monotonic()
        self._ready = False
        self.powered = True
        self._selector.register(master, selectors.EVENT_READ, self._on_console)
        self._emit("power", True)

    def _kill(self):
        if self._proc and self._proc.poll() is None:
            self._killing = True
            os.killpg(self._proc.pid, signal.SIGKILL)

    def _reap(self):
        """The interpreter is gone (or going): close its ends. -> its exit code."""
        code = None
        if self.throttle:
            self.throttle.close()
        if self._proc:
            try:
                code = self._proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                code = self._proc.wait(5)
            self._proc = None
        for end in ("_console", "_side"):
            obj = getattr(self, end)
            if obj is not None:
                self._selector.unregister(obj)
                os.close(obj) if isinstance(obj, int) else obj.close()
                setattr(self, end, None)
        self._ready = False
        self._rx.clear()
        self._fifo.clear()
        self._early.clear()
        return code

    def _on_exit(self):
        """The console closed: the interpreter ended. Decide what the board does next."""
        planned, self._next_start = self._next_start, None
        on_purpose, self._killing = self._killing, False
        code = self._reap()
        self.powered = False
        if self._closing:
            return
        if planned:
            self._spawn(*planned)
        elif code in SOFT_REBOOT_CODES:
            self._spawn(SOFT_REBOOT_CODES[code], self._cause)
        elif on_purpose:
            self._emit("power", False)  # power_off() or a power cut: off until restart()
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
            self._spawn("friendly", SOFT_RESET)  # as a panic reboots the ESP32

    # --- the I/O thread ------------------------------------------------------------------------
    def _loop(self):
        while True:
            with self._lock:
                if self._closing:
                    return
                if self._spawn_request:  # spawned here only: PDEATHSIG follows this thread
                    request, self._spawn_request = self._spawn_request, None
                    try:
                        self._spawn(*request)
                    except OSError as exc:
                        self._board_output(("virtual board: cannot start MicroPython: %s\r\n" % exc).encode())
                timeout = self._pump()
            for key, _ in self._selector.select(timeout):
                with self._lock:
                    if self._closing:
                        return
                    if self._selector.get_map().get(key.fd) is key:  # not closed by an earlier event
                        key.data()

    def _pump(self):
        """Move bytes along both lines as far as their timing allows. -> seconds to sleep."""
        now = time.monotonic()
        line_in_now = self._line_in_now(now) if self._ready else None  # one reading of the chip's clock a pass
        if self._ready and self._console is not None:
            data = self._to_board.take(*line_in_now)
            if data:
                per_byte = self._to_board.byte_time
                if self.pace:  # each byte is due once it has crossed, by the chip's clock
                    self._early.add(self._to_board.began[1] + per_byte, len(data), per_byte)
                    self._to_console(data)
                else:  # in the FIFO once it has crossed
                    self._fifo.arrive(data, self._to_board.began[0] + len(data) * per_byte, per_byte)
                if not self._to_board.pending():
                    self._changed.notify_all()  # for wait_delivered()
            elif self._rx:
                self._flush_rx()
            if self._fifo.due(now):
                self._to_ring(self._fifo.take())
                self._changed.notify_all()  # for wait_delivered()
            if self.pace and (self._early.pending() or self._rx):
                self._settle_rx(line_in_now[1])
        self._to_host.push(self._outbox.due(now))
        self._unsent += self._to_host.take(now)
        if self._unsent:
            try:
                sent = os.write(self._serial, self._unsent)
                del self._unsent[:sent]
                if not self._unsent:
                    self._changed.notify_all()  # for wait_sent()
            except BlockingIOError:
                del self._unsent[:max(0, len(self._unsent) - UNSENT_KEPT)]
        waits = [w and max(w, LINE_TICK) for w in (self._to_board.wait(*line_in_now) if self._ready else None,
                                                    self._to_host.wait(now), self._outbox.wait(now))
                 if w is not None]
        if len(self._fifo):  # the UART's silence interrupt: one timer, on time
            waits.append(self._fifo.wait(now))
        if self._unsent or self._rx:
            waits.append(0.01)  # a reader is behind: retry soon
        if self._early.pending():
            waits.append(LINE_TICK)  # input given early falls due: what overflows is lost then
        return min(waits) if waits else None

    def _to_console(self, data: bytes):
        """Paced: input that has crossed the line, into the console (the ring) a period
        early at most (LOOK_AHEAD): a paced board runs a period's work in one burst and
        must find there the bytes due in it. What did not fit the ring is cut once due by
        the chip's clock (_settle_rx). Each Ctrl-C becomes SIGINT (_interrupt)."""
        parts = data.split(bytes((INTERRUPT,)))
        for i, part in enumerate(parts):
            self._rx += part
            if i < len(parts) - 1:
                self._interrupt()
        self._flush_rx()

    def _to_ring(self, batch: bytes):
        """Unpaced: the UART interrupt's batch into the ring (croupier.sim.uart): what does not
        fit is lost, the newest first; each Ctrl-C becomes SIGINT (_interrupt)."""
        parts = batch.split(bytes((INTERRUPT,)))
        for i, part in enumerate(parts):
            unread = self._ring_queued() + len(self._rx)
            room = max(0, uart.RING - unread)
            self.rx_overflow += max(0, len(part) - room)
            self._rx += part[:room]
            self.rx_peak = max(self.rx_peak, unread + min(len(part), room))
            if i < len(parts) - 1:
                self._interrupt()
        self._flush_rx()

    def _interrupt(self):
        """A Ctrl-C: SIGINT, as the UART's interrupt character schedules a KeyboardInterrupt."""
        now = time.monotonic()
        if self._proc and now - self._last_interrupt > 0.1:  # a second SIGINT before the first is handled kills the unix port
            os.kill(self._proc.pid, signal.SIGINT)
            self._last_interrupt = now

    def _settle_rx(self, chip_now):
        """Paced: of the input due by the chip's clock (the line gave it early) and not read
        yet, what the UART's interrupt moved into a full ring is lost, the newest first. The
        due bytes still held back as the FIFO's (_flush_rx) are not in the ring yet. Done
        with the interpreter stopped (throttle.held()), so that its reads do not race the
        relay taking the console's queue back to cut it."""
        unread = self._unread()
        in_ring = self._due_in_ring(unread, chip_now)
        self.rx_peak = max(self.rx_peak, min(in_ring, uart.RING))
        if in_ring <= uart.RING:
            return
        try:
            with self.throttle.held():
                held = len(self._rx)
                waiting = self._take_console_queue() + self._rx
                over = self._due_in_ring(len(waiting), chip_now, held) - uart.RING
                if over > 0:
                    del waiting[uart.RING:uart.RING + over]
                    self.rx_overflow += over
                self._rx = waiting
                self._flush_rx()
        except OSError:
            self._rx.clear()  # the interpreter is going away

    def _due_in_ring(self, unread, chip_now, held=None):
        """Of `unread` bytes (the console's queue, then the held-back _rx), those due by the
        chip's clock and past the FIFO: the newest are not due yet, and the due ones held
        back (a batch not complete) are still the FIFO's."""
        not_due = min(self._early.not_due(chip_now), unread)
        in_fifo = max(0, (len(self._rx) if held is None else held) - not_due)
        return unread - not_due - in_fifo

    def _take_console_queue(self) -> bytearray:
        """The input queued in the console for the interpreter, taken out of it (through its
        slave end, opened for the while)."""
        taken = bytearray()
        fd = os.open(self._console_name, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            while True:
                try:
                    data = os.read(fd, 4096)
                except BlockingIOError:
                    break
                if not data:
                    break
                taken += data
        finally:
            os.close(fd)
        return taken

    def _line_in_now(self, now):
        """The readings (s) of the clocks the line into the board keeps: the host's (now)
        and, paced, the chip's own (pace.ChipClock). That one stands still while the host
        keeps the board from running (no core for it, a stop to pay back a slice a late
        pacer let run long): bytes sent meanwhile cross once the board runs again, as they
        would have reached the chip, not in one burst into its small buffer."""
        return (now, self._chip_now(now)) if self.pace else (now,)

    def _chip_now(self, now):
        """The chip's clock (s, pace.ChipClock) of a paced board; the host's, now, else."""
        chip = self.throttle and self.throttle.chip
        try:
            return chip.read() / 1e9 if chip else now
        except OSError:
            return now  # the interpreter is going away

    def _unread(self):
        """Serial input the interpreter has not read: held back, and in the console's queue."""
        return len(self._rx) + self._ring_queued()

    def _ring_queued(self):
        """Bytes in the console's queue (the ring): its slave end, opened for a moment, tells."""
        try:
            fd = os.open(self._console_name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return 0  # the interpreter is going away
        try:
            return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
        finally:
            os.close(fd)

    def _flush_rx(self):
        if self.pace and len(self._rx) < uart.BATCH and self._to_board.pending():
            return  # more is on its way: the UART interrupts at a batch or at a pause
        try:
            del self._rx[:os.write(self._console, self._rx)]
        except BlockingIOError:
            pass  # the interpreter is not reading right now
        except OSError:
            self._rx.clear()  # it is going away

    def _on_serial(self):
        try:
            data = os.read(self._serial, 4096)
        except OSError:
            return
        self.received += len(data)
        self._to_board.push(data)

    def _on_console(self):
        try:
            data = os.read(self._console, 4096)
        except OSError:
            data = b""
        if data:
            self._board_output(data)
        else:
            self._on_exit()

    def _board_output(self, data):
        self._output += data
        if len(self._output) > OUTPUT_KEPT:
            cut = len(self._output) - OUTPUT_KEPT
            del self._output[:cut]
            self._output_base += cut
        self._to_serial(data)
        self._emit("output", data)

    def _to_serial(self, data):
        """Output onto the line to the serial port; paced, not before the chip's clock
        wrote it (line.Outbox)."""
        now = time.monotonic()
        self._to_host.push(self._outbox.put(data, self._chip_now(now), now))

    def _on_accept(self):
        conn, _ = self._listener.accept()
        if self._side is not None:
            self._selector.unregister(self._side)
            self._side.close()
        conn.settimeout(SIDE_DEADLINE)  # a stuck board must not hang the host
        self._side = conn
        self._decoder = channel.Decoder()
        self._selector.register(conn, selectors.EVENT_READ, self._on_side)
        self._keys_at = time.monotonic()  # the next change's state before it starts now
        self._send(channel.keys(self._keys))
        if self._cut:
            self._send(self._cut)

    def _on_side(self):
        try:
            data = self._side.recv(65536)
        except OSError:
            data = b""
        if not data:
            self._selector.unregister(self._side)
            self._side.close()
            self._side = None
            return
        for kind, arg, length, payload in self._decoder.feed(data):
            self._on_message(kind, arg, length, payload)

    def _on_message(self, kind, arg, length, payload):
        if kind == channel.BOOTED:
            if self.throttle:
                self.throttle.start()
            self._send(channel.reply(0))  # the board waits for this: paced from here on
            self._ready = True
            self.boots += 1
            self._emit("boot", self.boots)
        elif kind == channel.I2C_WRITE and self.rtc and arg == self.rtc.address:
            self.rtc.write(payload)
        elif kind == channel.I2C_WRITE:
            self.oled.write(payload)
            self._emit("display")
        elif kind == channel.I2C_READ and self.rtc and arg == self.rtc.address:
            self._send(channel.reply(0, self.rtc.read(length)))
        elif kind == channel.I2C_READ:
            self._send(channel.reply(0, bytes((self.oled.read_status(),)) * length))
        elif kind == channel.TONE:
            freq, duty = channel.tone(payload)
            self._tones.append((int((time.monotonic() - self._t0) * 1000), freq, duty))
            self._emit("tone", (freq, duty))
        elif kind == channel.HELLO:
            self._send(channel.reply(0))  # after the state sent on connect: the board has it all
        elif kind == channel.FLASH_WRITE:
            self.flash_writes += 1
        elif kind == channel.POWER_CUT:
            self._cut = None
            self._kill()
        elif kind == channel.RESET:
            self._next_start = ("friendly", SOFT_RESET)  # esp_restart(): ESP_RST_SW
            self._kill()
        elif kind == channel.RTC_SET:
            self._rtc = payload.decode()
        elif kind == channel.FORMATTED:
            self.formats += 1
        elif kind == channel.EMULATED and self.throttle:
            self.throttle.credit(length * 1000)
        elif kind == channel.EMULATED_ACROSS_STOPS and self.throttle:
            self.throttle.credit_across_stops(*channel.stretch(payload, time.monotonic_ns()))

    def _send(self, message: bytes) -> bool:
        """-> False when the board has not taken the message within SIDE_DEADLINE s."""
        if self._side is not None:
            try:
                self._side.sendall(message)
            except socket.timeout:
                return False  # alive but not reading: the firmware is stuck
            except OSError:
                pass  # the interpreter is going away; the next one gets the state on connect
        return True

    def _send_keys(self):
        now = time.monotonic()
        lasted_ms, self._keys_at = (now - self._keys_at) * 1000, now
        if not self._send(channel.keys(self._keys, lasted_ms)):
            raise toolchain.SimError("the board has not read its keypad for %g s: is the firmware stuck? "
                           "(last output: %r)" % (SIDE_DEADLINE, self.output()[-200:]))

    def _wake(self):
        if getattr(self, "_wake_w", None) is not None:
            os.write(self._wake_w, b"!")

    def _on_wake(self):
        os.read(self._wake_r, 4096)
