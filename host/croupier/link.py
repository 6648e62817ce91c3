"""Host side of the Croupier serial protocol (docs/protocol.md, version 1).

One frame per line: `@` + JSON + `|` + CRC-32 (8 lowercase hex) + `\\n`. Every wait has a
deadline. Lines that are not frames (boot banners, REPL output, frames whose CRC fails) are
kept in `noise` for logs and otherwise ignored; events are kept in `events`.

The board reads a line up to its newline, so bytes left on the line without one (noise, a
request whose newline was lost) would swallow the next request. The first request, and the
first after a timeout, therefore begin with a newline that ends any such stray line.
"""
import binascii
import contextlib
import json
import os
import stat
import time
from collections import deque

from croupier.rules.canon import dumps as canon

PROTO = 1
DEFAULT_TIMEOUT = 3.0
MAX_REQUEST = 1024  # bytes of one host -> device frame, newline included
MAX_LINE = 1 << 20  # a device line longer than this is runaway noise: dropped
POLL = 0.05         # seconds one serial read may block, so deadlines are kept
BOOT_POLL = 0.5     # seconds between `hello`s while waiting for a board to boot
BOOT_TIMEOUT = 15.0
# Commands the device may safely receive twice: a lost answer is simply asked for again.
IDEMPOTENT = frozenset({"hello", "state", "screen", "log", "ack", "roster", "clock"})
# The `key` command's name of each keypad label that is not its own name (digits are).
DIGITS = tuple("0123456789")
KEY_NAMES = {"#": "ok", "*": "undo", "A": "a", "B": "b", "C": "c", "D": "menu"}


DAMAGED = object()  # a frame arrived but failed its CRC or JSON check


class LinkError(Exception):
    """Anything that stops a conversation with the board, in words a user can act on."""


class LinkTimeout(LinkError):
    pass


class DeviceError(LinkError):
    """The device answered `ok: false`."""

    def __init__(self, cmd, error, message):
        super().__init__("%s: %s (%s)" % (cmd, message or error, error))
        self.cmd, self.error, self.message = cmd, error, message


def key_name(key: str) -> str:
    """The `key` command's name for a key given by its printed label (`7`, `#`, `D`) or by
    that name (`ok`, `menu`); ValueError for anything else."""
    name = KEY_NAMES.get(key.upper(), key.lower())
    if name in KEY_NAMES.values() or name in DIGITS:
        return name
    raise ValueError("no key %r: the keypad's keys are 0-9 A B C D # * (or ok, undo, menu, a, b, c)" % key)


def crc_hex(payload: bytes) -> str:
    return "%08x" % (binascii.crc32(payload) & 0xFFFFFFFF)


def encode_frame(obj) -> bytes:
    """`@json|crc\\n` with the canonical JSON the firmware uses (sorted keys, ASCII)."""
    payload = canon(obj).encode("ascii")
    return b"@" + payload + b"|" + crc_hex(payload).encode("ascii") + b"\n"


def decode_frame(line: bytes):
    """The JSON object of one device line, or None when the line is not a valid frame."""
    line = line.rstrip(b"\r\n")
    if not line.startswith(b"@"):
        return None
    payload, sep, crc = line[1:].rpartition(b"|")
    if not sep or crc != crc_hex(payload).encode("ascii"):
        return None
    try:
        obj = json.loads(payload.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


class Link:
    """A protocol conversation over an open pyserial-like port (read/write/timeout)."""

    def __init__(self, port, transcript=None, timeout=DEFAULT_TIMEOUT):
        self.port = port
        self.port.timeout = POLL
        self.timeout = timeout
        self.transcript = transcript  # fn(direction "rx"/"tx", raw bytes), e.g. for HIL logs
        self.events = deque(maxlen=1000)
        self.noise = deque(maxlen=1000)
        self._next_id = 1
        self._buffer = bytearray()
        self._line_clean = False  # False: end any stray partial line before the next request
        # 1 after such a newline: the stray line may have been `@`-garbage, which the board
        # refuses with an id-less bad_frame; that one refusal is not our request's
        self._stray_refusal = 0
        self.info = None  # the last `hello` answer

    # -- raw line I/O -------------------------------------------------------------
    def write_raw(self, data: bytes):
        """Send bytes as they are (the HIL suite sends malformed frames on purpose)."""
        if self.transcript:
            self.transcript("tx", data)
        self.port.write(data)
        self.port.flush()

    def _read_line(self, deadline):
        """One line from the device (without the newline), or None at the deadline."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > MAX_LINE:
                self.noise.append(bytes(self._buffer[:200]) + b"... (runaway line dropped)")
                del self._buffer[:]
            if time.monotonic() >= deadline:
                return None
            chunk = self.port.read(max(1, self.port.in_waiting))
            if chunk:
                if self.transcript:
                    self.transcript("rx", chunk)
                self._buffer += chunk

    def next_message(self, deadline, stop_on_damage=False):
        """The next valid frame object; noise lines are recorded on the way. None at the
        deadline, DAMAGED for a frame that failed its check when stop_on_damage."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            obj = decode_frame(line)
            if obj is None:
                if line.strip():
                    self.noise.append(line)
                if stop_on_damage and line.startswith(b"@"):
                    return DAMAGED
                continue
            if "ev" in obj and "id" not in obj:
                self.events.append(obj)
                continue
            return obj

    # -- requests -------------------------------------------------------------------
    def send(self, cmd, **args):
        """Write one request frame and return its id (no wait)."""
        rid = self._next_id
        self._next_id += 1
        request = dict(args, id=rid, cmd=cmd)
        frame = encode_frame(request)
        if len(frame) > MAX_REQUEST:
            raise LinkError("%s: request is %d bytes, the device accepts at most %d" % (cmd, len(frame), MAX_REQUEST))
        if not self._line_clean:
            frame = b"\n" + frame
            self._line_clean, self._stray_refusal = True, 1
        self.write_raw(frame)
        return rid

    def call(self, cmd, timeout=None, retries=None, **args):
        """Send `cmd` and return its `ok` result (a dict). Raises DeviceError or LinkTimeout.

        Idempotent commands are sent again when the answer is lost or the request arrived
        garbled (`bad_frame` with id null); others are sent once.
        """
        timeout = self.timeout if timeout is None else timeout
        if retries is None:
            retries = 4 if cmd in IDEMPOTENT else 0
        ids = set()  # an answer to any attempt will do
        for attempt in range(retries + 1):
            ids.add(self.send(cmd, **args))
            answer = self._attempt(cmd, ids, timeout)
            if answer is not None:
                return answer
        raise LinkTimeout("no intact answer to %r after %d attempt(s) of %.1f s: is the Croupier firmware running on this port?"
                          % (cmd, retries + 1, timeout))

    def answer(self, cmd, rid, timeout=None):
        """The `ok` result of request `rid`, sent with send() (maybe before the answers to
        earlier requests came: the device answers in order). One wait, no retry: DeviceError,
        or LinkTimeout when no intact answer came within timeout seconds."""
        timeout = self.timeout if timeout is None else timeout
        answer = self._attempt(cmd, {rid}, timeout)
        if answer is None:
            raise LinkTimeout("no intact answer to %r within %.1f s" % (cmd, timeout))
        return answer

    def _attempt(self, cmd, ids, timeout):
        """The `ok` answer to any of ids within timeout seconds, or None when it was lost or
        the request arrived garbled (it may be sent again); DeviceError when refused."""
        # A damaged frame while waiting is most likely the answer: ask again at once, unless
        # asking twice could do something twice.
        answer = self._wait_answer(ids, time.monotonic() + timeout, cmd in IDEMPOTENT)
        if answer is None:
            self._line_clean = False  # our request may sit on the board as a partial line
            return None
        if answer is DAMAGED:
            return None
        if answer.get("ok") is True:
            return answer
        if answer.get("id") is None and answer.get("error") == "bad_frame":
            return None  # our request was damaged on the way
        raise DeviceError(cmd, answer.get("error"), answer.get("message"))

    def _wait_answer(self, ids, deadline, stop_on_damage):
        while True:
            msg = self.next_message(deadline, stop_on_damage)
            if msg is None or msg is DAMAGED:
                return msg
            rid = msg.get("id")
            if isinstance(rid, int) and rid in ids:
                self._stray_refusal = 0  # a refusal of the stray line would have come first
                return msg
            if rid is None and msg.get("ok") is False:
                if self._stray_refusal:
                    self._stray_refusal = 0
                    self.noise.append(b"(refusal of a stray line) " + encode_frame(msg))
                    continue
                return msg  # an unparsable request: maybe ours
            # any other id answers an earlier request that timed out: drop it

    # -- events -----------------------------------------------------------------------
    def poll(self, seconds=0.0):
        """Read whatever arrives within `seconds` (collecting events and noise)."""
        deadline = time.monotonic() + seconds
        while self.next_message(deadline) is not None:
            pass

    def wait_event(self, name, timeout=None):
        """The first collected event called `name` (removed from `events`), waiting up to timeout."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            for ev in self.events:
                if ev.get("ev") == name:
                    self.events.remove(ev)
                    return ev
            if time.monotonic() >= deadline:
                raise LinkTimeout("no %r event within %.1f s" % (name, timeout))
            self.next_message(min(deadline, time.monotonic() + 0.1))

    def hello(self, within=None):
        """The `hello` answer, checking the protocol version. `within` seconds: keep asking
        every half second until then (a board that is booting drops what it is sent)."""
        if within is None:
            info = self.call("hello")
        else:
            attempts = max(1, int(within / BOOT_POLL))
            info = self.call("hello", timeout=BOOT_POLL, retries=attempts - 1)
        if info.get("proto") != PROTO:
            raise LinkError("the device speaks protocol %r; this croupier speaks %d: update one of them" % (info.get("proto"), PROTO))
        self.info = info
        return info


def check_port(name):
    """A LinkError when `name` is a path that is no serial device: missing, or another kind of
    file. URLs (rfc2217://, socket://) and Windows' COM ports are left to pyserial."""
    if "://" in name or os.name == "nt":
        return  # COM3 is no file to look at
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        raise LinkError("there is no serial port %s: is the board plugged in? (`croupier ports` lists the ports)" % name) from None
    except OSError as exc:
        raise LinkError("cannot look at %s: %s" % (name, exc.strerror or exc)) from None
    if not stat.S_ISCHR(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a file" if stat.S_ISREG(mode) else "no device"
        raise LinkError("%s is not a serial device (it is %s): pass the board's port, e.g. /dev/ttyUSB0 "
                        "(`croupier ports` lists them)" % (name, kind))


def open_serial(url, baudrate=115200):
    """Open a device path or any pyserial URL without toggling the ESP32 auto-reset lines."""
    import serial

    check_port(url)
    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=POLL, do_not_open=True)
        port.dtr = False
        port.rts = False
        port.open()
    except (serial.SerialException, ValueError) as exc:
        raise LinkError("cannot open %s: %s" % (url, exc)) from exc
    return port


@contextlib.contextmanager
def board_port(port_arg):
    """Yield the serial port name to use: `sim` starts a fresh virtual board for the duration,
    None picks the only connected board (see croupier.ports)."""
    if port_arg == "sim":
        from croupier.sim import SimError, VirtualBoard

        try:
            board = VirtualBoard().start()
        except SimError as exc:
            raise LinkError("cannot start a virtual board: %s" % exc) from exc
        try:
            yield board.port
        finally:
            board.close()
        return
    if port_arg is None:
        from croupier.ports import pick_board

        port_arg = pick_board()
    yield port_arg


@contextlib.contextmanager
def connect(port_arg, transcript=None, timeout=DEFAULT_TIMEOUT):
    """A Link to the board named by `--port` (path, pyserial URL, `sim` or None), once the
    firmware has answered `hello` (kept in `link.info`)."""
    with board_port(port_arg) as name:
        port = open_serial(name)
        try:
            link = Link(port, transcript=transcript, timeout=timeout)
            link.hello(within=BOOT_TIMEOUT)
            yield link
        finally:
            port.close()
