"""Host side of the Croupier serial protocol (docs/protocol.md, version 2).

One frame per line: `@` + JSON + `|` + CRC-32 (8 lowercase hex) + `\\n`. Every wait has a
deadline. Lines that are not frames (boot banners, REPL output, frames whose CRC fails) are
kept in `noise` for logs and otherwise ignored; events are kept in `events`.

Flow control: the request bytes sent and not yet known read (the window) never exceed what
the board's receive path holds. The board reads lines in order and answers every `@` line
once, so an answer to request k proves every byte sent up to k read. A newly opened port, or
a board that just booted, may still hold unread bytes nobody counted: the link then sends one
small `hello` and nothing else until it is answered.

The board reads a line up to its newline, so bytes left on the line without one (noise, a
request whose newline was lost) would swallow the next request. The opening hello, and the
first request after a timeout, therefore begin with a newline that ends any such stray line.
"""
import binascii
import contextlib
import json
import os
import stat
import time
from collections import deque

from croupier import port_registry
from croupier.rules.canon import dumps as canon

PROTO = 2
# The ESP32's console receive path holds 259 bytes (ports/esp32/mphalport.c's
# stdin_ringbuf_array[260]; a ring keeps one slot free) and drops what does not fit.
RING = 259
LINE_MAX = 220      # bytes of one request line, `@` to `\n`: the board's one line buffer
WINDOW = 220        # request bytes sent and not yet known read (what `hello` announces may be less)
OPENING = 36        # the hello on a newly opened port, leading `\n` included: WINDOW + OPENING <= RING
OPENING_IDS = 99    # opening hellos take ids 1-99 (two digits keep them within OPENING) ...
FIRST_ID = 100      # ... and every other request counts from here
DEFAULT_TIMEOUT = 5.0  # s for an answer: a busy board (flash erases, a collection, a stall) is still there
MAX_LINE = 1 << 20  # a device line longer than this is runaway noise: dropped
POLL = 0.05         # seconds one serial read may block, so deadlines are kept
BOOT_POLL = 0.5     # seconds between `hello`s while waiting for a board to boot
BOOT_TIMEOUT = 15.0
# Commands the device may safely receive twice: a lost answer is simply asked for again
# (a `roster` with `add` appends: sent twice, it would add twice).
IDEMPOTENT = frozenset({"hello", "state", "screen", "log", "ack", "roster", "clock"})
# What to shorten when a request is longer than the board takes.
SHORTEN = {"new": "use shorter or fewer names", "roster": "use shorter names", "play": "use a shorter card"}
# The `key` command's name of each keypad label that is not its own name (digits are).
DIGITS = tuple("0123456789")
KEY_NAMES = {"#": "ok", "*": "undo", "A": "a", "B": "b", "C": "c", "D": "menu"}
NOT_SERIAL = "%s is not a serial device (it is %s): pass the board's port, e.g. /dev/ttyUSB0 (`croupier ports` lists them)"
READ_NOTHING = ("the board has read nothing for %.1f s (stalled, or not the Croupier firmware); "
                "nothing more was sent, so nothing was lost")


DAMAGED = object()  # a frame arrived but failed its CRC or JSON check
NULL_ID = object()  # write_raw: the line is answered once with id null (bad_frame, too_long)
STRAY = object()    # the refusal of a stray line: no request of ours
BOOTED = object()   # a boot event arrived


class LinkError(Exception):
    """Anything that stops a conversation with the board, in words a user can act on."""


class LinkTimeout(LinkError):
    pass


class WrongProtocol(LinkError):
    """The board speaks another protocol version; `info` is its hello answer."""

    def __init__(self, info, port_name):
        proto, fw = info.get("proto"), info.get("fw", "?")
        if not isinstance(proto, int) or isinstance(proto, bool):
            text = ("the board's hello names no protocol version (proto %r, fw %s): is the Croupier firmware "
                    "running on %s?" % (proto, fw, port_name))
        elif proto < PROTO:
            text = ("the board runs protocol-%d firmware (fw %s); this croupier speaks protocol %d: "
                    "update the board with `croupier flash --port %s`" % (proto, fw, PROTO, port_name))
        else:
            text = ("the board speaks protocol %r (fw %s); this croupier speaks protocol %d: update croupier"
                    % (proto, fw, PROTO))
        super().__init__(text)
        self.info = info


class DeviceError(LinkError):
    """The device answered `ok: false`."""

    def __init__(self, cmd, error, message):
        super().__init__("%s (%s)" % (message or error, error))  # shown after `croupier CMD: `: no prefix of its own
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


def idempotent(cmd, args):
    return cmd in IDEMPOTENT and not args.get("add")


def _count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


class Link:
    """A protocol conversation over an open pyserial-like port (read/write/timeout)."""

    def __init__(self, port, transcript=None, timeout=DEFAULT_TIMEOUT):
        self.port = port
        self.port.timeout = POLL
        self.timeout = timeout
        self.transcript = transcript  # fn(direction "rx"/"tx", raw bytes), e.g. for HIL logs
        self.events = deque(maxlen=1000)
        self.noise = deque(maxlen=1000)
        self.info = None  # the last `hello` answer
        self.line_max, self.window = LINE_MAX, WINDOW  # lowered to what the board announces
        self._next_id = FIRST_ID
        self._buffer = bytearray()
        self._line_clean = False  # False: end any stray partial line before the next request
        # 1 after such a newline: the stray line may have been `@`-garbage, which the board
        # refuses with an id-less bad_frame; that one refusal is not our request's
        self._stray_refusal = 0
        # The window: (what the board answers the bytes with: a request id, NULL_ID or None
        # for nothing; their size), in the order sent, until something proves them read.
        self._sent = deque()
        self.unread = 0  # the bytes in the window
        # Until an opening hello is answered the window is unknown (a killed host may have
        # left its window unread, a board that booted may hold what was sent meanwhile).
        self._opening = True
        self._opening_rid = None  # the opening hello on its way
        self._openings = 0
        self._maybe_lost = False  # a request timed out: only a later answer frees the window
        self._probe_rid = None    # the hello sent to learn what the board has read
        self._awaited = set()     # ids sent whose answers a caller will collect
        self._kept = {}           # their answers, read while waiting for something else

    # -- raw line I/O -------------------------------------------------------------
    def write_raw(self, data: bytes, reply=None):
        """Send bytes as they are (the HIL suite's malformed frames), within the window.
        reply: what the board answers them with: None (no `@` line: nothing), the request id
        of the line, or NULL_ID (a refusal with id null). A line longer than the window is
        sent only when it draws an answer, into an empty window, and only up to
        RING - OPENING bytes (the board's too_long). Bytes that draw no answer leave room for
        a probe hello after them: only an answer can free them."""
        if self._opening:
            self._open(self.timeout)
        room = len(data) + (self._probe_size() if reply is None else 0)
        if room > self.window:
            if reply is None or len(data) > RING - OPENING:
                raise LinkError("%d raw bytes do not fit the window: send at most %d that draw no answer, or %d "
                                "that do" % (len(data), self.window - self._probe_size(), RING - OPENING))
            room = self.window  # into an empty window
        self._make_room(room, self.timeout)
        self._write(data, reply)
        if not data.endswith((b"\n", b"\r")):
            self._line_clean = False

    def _write(self, data, reply):
        self._sent.append((reply, len(data)))
        self.unread += len(data)
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
            msg = self._next(deadline, stop_on_damage)[0]
            if msg is not BOOTED:
                return msg

    def _next(self, deadline, stop_on_damage=False):
        """(next_message's frame or BOOTED after a boot event; the request id or NULL_ID it
        answers, STRAY for a stray line's refusal, or None)."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None, None
            obj = decode_frame(line)
            if obj is None:
                if line.strip():
                    self.noise.append(line)
                if stop_on_damage and line.startswith(b"@"):
                    return DAMAGED, None
                continue
            if "ev" in obj and "id" not in obj:
                self.events.append(obj)
                if obj.get("ev") == "boot":
                    self._booted(obj)
                    return BOOTED, None
                continue
            return obj, self._account(obj)

    # -- the window -------------------------------------------------------------------
    def _account(self, msg):
        """Release what an answer proves read; -> the request id (or NULL_ID) it answers,
        STRAY for a stray line's refusal, None when it answers nothing in the window."""
        rid = msg.get("id")
        if isinstance(rid, int) and not isinstance(rid, bool):
            self._stray_refusal = 0  # a refusal of the stray line would have come first
            self._release_through(rid)
            if rid == self._opening_rid:
                self._opening, self._opening_rid = False, None
            return rid
        if rid is None and msg.get("ok") is False:
            if self._stray_refusal:
                self._stray_refusal = 0  # conservative: releases nothing
                self.noise.append(b"(refusal of a stray line) " + encode_frame(msg))
                return STRAY
            # the line refused is the oldest one still to be answered (lines are read in order)
            oldest = next((reply for reply, _ in self._sent if reply is not None), None)
            if oldest is not None:
                self._release_through(oldest)
                if oldest == self._opening_rid:
                    self._opening_rid = None  # read but garbled: another may be sent
            return oldest
        return None

    def _release_through(self, reply):
        """Everything sent up to the line answered with `reply` is read."""
        if reply not in [sent for sent, _ in self._sent]:
            return  # answers a line released before: proves nothing more
        while True:
            sent, size = self._sent.popleft()
            self.unread -= size
            if sent == self._probe_rid:
                self._probe_rid = None
            if sent == reply:
                break
        if not self._sent:
            self._maybe_lost = False

    def _booted(self, event):
        """The board restarted: what was sent may be lost, or wait in its fresh receive path
        (sent after the reset, before this event): it counts until an opening hello is answered."""
        self._opening, self._opening_rid, self._probe_rid = True, None, None
        self._line_clean, self._stray_refusal = False, 0
        self._adopt(event)

    def _adopt(self, info):
        """Take the board's smaller line_max and window (from hello or boot)."""
        if _count(info.get("line_max")):
            self.line_max = min(LINE_MAX, info["line_max"])
        if _count(info.get("window")):
            self.window = min(WINDOW, info["window"])

    def _open(self, timeout):
        """The answer to an opening hello: one small hello, nothing else until it is answered
        (a boot event asks for another). WrongProtocol from a board of another version."""
        deadline = time.monotonic() + timeout
        while True:
            if self._opening_rid is None:
                self._openings += 1
                rid = (self._openings - 1) % OPENING_IDS + 1
                self._write(b"\n" + encode_frame({"cmd": "hello", "id": rid}), rid)
                self._opening_rid, self._line_clean, self._stray_refusal = rid, True, 1
            rid = self._opening_rid
            msg = self._wait_answer({rid}, deadline, False, until_boot=True)
            if msg is None:
                self._give_up(timeout)
            if msg is BOOTED:
                deadline = max(deadline, time.monotonic() + self.timeout)  # it answers from now on
            elif msg.get("ok") is True:
                return self._checked(msg)
            elif msg.get("id") == rid:
                raise DeviceError("hello", msg.get("error"), msg.get("message"))
            # else refused with id null: it arrived garbled, and another is sent

    def _checked(self, info):
        if info.get("proto") != PROTO:
            raise WrongProtocol(info, getattr(self.port, "port", None) or "PORT")
        self._adopt(info)
        self.info = info
        return info

    def _make_room(self, size, timeout):
        """Wait until `size` more bytes fit the window. When nothing sent may draw an answer
        any more (a request timed out, only noise was sent), a hello is sent as a probe if it
        fits: its answer proves everything before it read (one probe a wait: an earlier one
        may have been lost). LinkTimeout when nothing is released for `timeout` seconds."""
        deadline = time.monotonic() + timeout
        self._probe_rid = None
        while self.unread + size > self.window:
            if self._opening:
                self._open(timeout)
                continue
            expected = any(reply is not None for reply, _ in self._sent)
            if (self._maybe_lost or not expected) and self._probe_rid is None:
                if self.unread + self._probe_size() <= self.window:
                    self._probe_rid = self._write_request(encode_frame({"cmd": "hello", "id": self._next_id}),
                                                          self._next_id)
                    self._next_id += 1
            before = self.unread
            self._keep(*self._next(deadline))
            if self.unread < before or self._opening:
                deadline = time.monotonic() + timeout
            elif time.monotonic() >= deadline:
                self._give_up(timeout)

    def _give_up(self, timeout):
        """LinkTimeout; the link is then as a newly opened port: what it counted stays at most
        a window, and the next request opens with one small hello, as a new host would."""
        self._sent.clear()
        self.unread = 0
        self._opening, self._opening_rid, self._probe_rid = True, None, None
        self._line_clean, self._maybe_lost = False, False
        raise LinkTimeout(READ_NOTHING % timeout)

    def _probe_size(self):
        """Bytes of the next probe hello, with the newline that may end a stray line first."""
        return len(encode_frame({"cmd": "hello", "id": self._next_id})) + (not self._line_clean)

    def _keep(self, msg, owner):
        if owner in self._awaited:
            self._kept[owner] = msg

    # -- requests -------------------------------------------------------------------
    def _write_request(self, frame, rid):
        if not self._line_clean:
            frame = b"\n" + frame
            self._line_clean, self._stray_refusal = True, 1
        self._write(frame, rid)
        return rid

    def _check_size(self, cmd, args, frame):
        most = min(self.line_max, self.window)
        if len(frame) > most:
            advice = SHORTEN.get(cmd) or "shorten %s" % (", ".join(sorted(args)) or "it")
            raise LinkError("the %s request is %d bytes, the board takes at most %d: %s" % (cmd, len(frame), most, advice))

    def send(self, cmd, timeout=None, **args):
        """Write one request frame once the window has room for it and return its id (no
        wait for the answer). LinkError for a request longer than the board takes (nothing
        is sent), LinkTimeout when the board reads nothing for timeout seconds."""
        timeout = self.timeout if timeout is None else timeout
        rid = self._next_id
        self._next_id += 1
        frame = encode_frame(dict(args, id=rid, cmd=cmd))
        self._check_size(cmd, args, frame)
        if self._opening:
            self._open(max(timeout, self.timeout))  # a request of its own: never a shorter wait
            self._check_size(cmd, args, frame)  # the board may take less
        self._make_room(len(frame) + (not self._line_clean), timeout)
        self._awaited.add(rid)
        return self._write_request(frame, rid)

    def call(self, cmd, timeout=None, retries=None, **args):
        """Send `cmd` and return its `ok` result (a dict). Raises DeviceError or LinkTimeout.

        Idempotent commands are sent again when the answer is lost or the request arrived
        garbled (`bad_frame` with id null); others are sent once. A request sent again counts
        in the window with the one that timed out.
        """
        timeout = self.timeout if timeout is None else timeout
        again = idempotent(cmd, args)  # asking twice does nothing twice
        if retries is None:
            retries = 4 if again else 0
        ids = set()  # an answer to any attempt will do
        try:
            for attempt in range(retries + 1):
                ids.add(self.send(cmd, timeout=timeout, **args))
                answer = self._attempt(cmd, ids, timeout, again)
                if answer is not None:
                    return answer
        finally:
            self._forget(ids)
        raise LinkTimeout("no intact answer to %r after %d attempt(s) of %.1f s: is the Croupier firmware running on this port?"
                          % (cmd, retries + 1, timeout))

    def answer(self, cmd, rid, timeout=None):
        """The `ok` result of request `rid`, sent with send() (maybe before the answers to
        earlier requests came: the device answers in order, and a host collects them in
        the order sent). One wait, no retry: DeviceError, or LinkTimeout when no intact
        answer came within timeout seconds."""
        timeout = self.timeout if timeout is None else timeout
        try:
            # the caller may ask again (sync does); the request's args are not known here, and
            # the ones collected this way (sync's `log` pages) carry no `add`
            answer = self._attempt(cmd, {rid}, timeout, idempotent(cmd, {}))
        finally:
            self._forget({rid})
        if answer is None:
            raise LinkTimeout("no intact answer to %r within %.1f s" % (cmd, timeout))
        return answer

    def _forget(self, ids):
        self._awaited -= ids
        for rid in ids:
            self._kept.pop(rid, None)

    def _attempt(self, cmd, ids, timeout, again):
        """The `ok` answer to any of ids within timeout seconds, or None when it was lost or
        the request arrived garbled (it may be sent again); DeviceError when refused. again:
        the request is idempotent (idempotent()), so it may be asked again at once."""
        # A damaged frame while waiting is most likely the answer: ask again at once, unless
        # asking twice could do something twice.
        answer = self._wait_answer(ids, time.monotonic() + timeout, again)
        if answer is None:
            # our request may sit on the board as a partial line, or never have arrived
            self._line_clean, self._maybe_lost = False, True
            return None
        if answer is DAMAGED:
            return None
        if answer.get("ok") is True:
            return answer
        if answer.get("id") is None and answer.get("error") == "bad_frame":
            return None  # our request was damaged on the way
        raise DeviceError(cmd, answer.get("error"), answer.get("message"))

    def _wait_answer(self, ids, deadline, stop_on_damage, until_boot=False):
        """The answer to one of ids (a refusal with id null counts as the oldest request's),
        None at the deadline, DAMAGED (stop_on_damage), BOOTED after a boot event (until_boot)."""
        for rid in [rid for rid in self._kept if rid < min(ids)]:
            del self._kept[rid]  # answers to requests given up (their answers are collected in order)
        for rid in ids:
            if rid in self._kept:
                return self._kept.pop(rid)
        while True:
            msg, owner = self._next(deadline, stop_on_damage)
            if msg is None or msg is DAMAGED or owner in ids or (msg is BOOTED and until_boot):
                return msg
            self._keep(msg, owner)  # any other answer is to a request given up: dropped

    # -- events -----------------------------------------------------------------------
    def poll(self, seconds=0.0):
        """Read whatever arrives within `seconds` (collecting events and noise)."""
        deadline = time.monotonic() + seconds
        while True:
            msg, owner = self._next(deadline)
            if msg is None:
                return
            self._keep(msg, owner)  # an answer a caller collects later

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
            self._keep(*self._next(min(deadline, time.monotonic() + 0.1)))

    def hello(self, within=None):
        """The `hello` answer, checking the protocol version (WrongProtocol). `within`
        seconds: wait that long for a board that is booting (its boot event, or the
        answer); hellos are asked again every BOOT_POLL only as the window allows, and after
        a boot event the link opens again."""
        if within is None:
            return self._open(self.timeout) if self._opening else self._checked(self.call("hello"))
        deadline = time.monotonic() + within
        while True:
            left = deadline - time.monotonic()
            if self._opening:
                return self._open(max(0.0, left))
            try:
                return self._checked(self.call("hello", timeout=BOOT_POLL, retries=max(0, int(left / BOOT_POLL) - 1)))
            except LinkTimeout:
                if not self._opening or time.monotonic() >= deadline:
                    raise

    # -- roster -----------------------------------------------------------------------
    def set_roster(self, names, attempts=3):
        """Set the board's roster to `names`: one `roster` request, or, when they do not fit
        one line, `roster` with the first names, then `roster` with `add` for the rest. A
        lost answer repeats the whole sequence (an `add` sent twice would add twice)."""
        parts = self._roster_parts(list(names))
        for attempt in range(attempts):
            try:
                for i, part in enumerate(parts):
                    self.call("roster", retries=0, names=part, **({"add": True} if i else {}))
                return len(parts)
            except LinkTimeout:
                if attempt == attempts - 1:
                    raise

    def _roster_parts(self, names):
        """names cut into runs, each of which fits one `roster` request."""
        def fits(part, add):
            frame = encode_frame(dict({"cmd": "roster", "id": self._next_id + 999, "names": part},
                                      **({"add": True} if add else {})))
            return len(frame) <= min(self.line_max, self.window)

        parts = [[]]
        for name in names:
            if parts[-1] and not fits(parts[-1] + [name], len(parts) > 1):
                parts.append([])
            parts[-1].append(name)
        return parts


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
        raise LinkError(NOT_SERIAL % (name, kind))


def _is_terminal(name):
    """False for a device that is no terminal (/dev/null), which pyserial fails to configure;
    True when that cannot be told."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return True
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def open_serial(url, baudrate=115200):
    """Open a device path or any pyserial URL for this process alone (port_registry.hold, and
    pyserial's exclusive flock, which mpremote and esptool also take), without toggling the
    ESP32 auto-reset lines. The port's close() lets it go."""
    import serial

    check_port(url)
    held = contextlib.ExitStack()
    try:
        held.enter_context(port_registry.hold(url))
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=POLL, do_not_open=True, exclusive=True)
        port.dtr = False
        port.rts = False
        port.open()
    except BaseException as exc:
        held.close()
        if isinstance(exc, port_registry.PortBusy):
            raise LinkError(str(exc)) from None
        if "exclusively lock" in str(exc):
            raise LinkError("port busy: another program has %s open (mpremote, esptool, a serial terminal?)"
                            % url) from None
        if isinstance(exc, serial.SerialException) and "://" not in url and not _is_terminal(url):
            raise LinkError(NOT_SERIAL % (url, "no terminal")) from None
        if isinstance(exc, (serial.SerialException, ValueError)):
            raise LinkError("cannot open %s: %s" % (url, exc)) from exc
        raise
    close = port.close

    def close_and_let_go():
        try:
            close()
        finally:
            held.close()

    port.close = close_and_let_go  # `with port:` and every caller's close() end the hold too
    return port


@contextlib.contextmanager
def connect(name, transcript=None, timeout=DEFAULT_TIMEOUT):
    """A Link over the serial port `name` (a device path or pyserial URL), once the firmware
    has answered `hello` (kept in `link.info`)."""
    port = open_serial(name)
    try:
        link = Link(port, transcript=transcript, timeout=timeout)
        link.hello(within=BOOT_TIMEOUT)
        yield link
    finally:
        port.close()
