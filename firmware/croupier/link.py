# The serial protocol of docs/protocol.md (protocol 2) over sys.stdin/stdout.
# Lines starting with `@` are requests; anything else on the line (REPL chatter, a person
# typing) is ignored. A host never has more request bytes unread here than the board's
# receive path holds (its window, WINDOW <= the ESP32's 259-byte console ring), so the link
# may take its time: nothing is lost however long the board is busy. It reads a byte at a
# time, only while poll says one waits (on the ESP32 a read of n bytes blocks until n came),
# into one preallocated line buffer, and answers a line in the task step that read its last
# byte: the answer is what gives the host its window back. Every `@` line gets one answer.
# Every reply and event goes out as canonical JSON with its CRC-32: 7-bit ASCII that never
# holds Ctrl-C or Ctrl-D.
from micropython import const
import asyncio
import gc
import json
import select
import sys

import croupier
from croupier.journal import JournalError, Sealer, crc_hex
from croupier.rules import Illegal, SetupError
from croupier.rules.canon import check, dump, dumps

PROTO = const(2)
LINE_MAX = const(220)  # bytes of a request line, `@` to its `\n` inclusive
WINDOW = const(220)  # request bytes a host may have sent and not yet know read
MAX_NAMES = const(16)
_MAX_NAME_LEN = const(16)

# command -> (required arguments, optional arguments); its handler is Link._<command>, or
# for the requests about the box rather than the game, croupier.link_box.<command>: that
# module loads for the request and is dropped once it is answered (heap).
_COMMANDS = {
    "hello": ((), ()),
    "state": ((), ()),
    "new": (("game", "players"), ("options",)),
    "play": (("card",), ()),
    "undo": ((), ()),
    "redo": ((), ()),
    "key": (("key",), ("hold",)),
    "screen": ((), ()),
    "log": ((), ("from", "max")),
    "ack": (("upto",), ()),
    "roster": (("names",), ("add",)),
    "get_roster": ((), ()),
    "clock": (("epoch",), ()),
}


class RequestError(Exception):
    """A request answered with an error: code (docs/protocol.md) and a human message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _str(value, name):
    if not isinstance(value, str) or not value:
        raise RequestError("bad_args", "%s must be a non-empty string" % name)
    return value


def _names(value, name, fewest):
    if not isinstance(value, list) or not fewest <= len(value) <= MAX_NAMES:
        raise RequestError("bad_args", "%s must be a list of %d to %d names"
                           % (name, fewest, MAX_NAMES))
    for item in value:
        if not isinstance(item, str) or not 0 < len(item) <= _MAX_NAME_LEN:
            raise RequestError("bad_args", "each name must be a string of 1 to %d characters"
                               % _MAX_NAME_LEN)
    return value


def parse(line):
    """The request object of one `@` line (bytes after the `@`). RequestError bad_frame when
    the CRC is wrong or the JSON is not an object with an integer id."""
    if len(line) > 9 and line[-9:-8] == b"|" and _is_hex(line[-8:]):
        payload = line[:-9]
        if crc_hex(payload).encode() != line[-8:]:
            raise RequestError("bad_frame", "CRC mismatch")
    else:
        payload = line  # typed by a person: no CRC
    try:
        request = json.loads(payload)
    except Exception:  # ValueError, UnicodeError, or deeper nesting than the parser takes
        raise RequestError("bad_frame", "not valid JSON")
    if not isinstance(request, dict):
        raise RequestError("bad_frame", "a request is a JSON object")
    rid = request.get("id")
    if not isinstance(rid, int) or isinstance(rid, bool):
        raise RequestError("bad_frame", "a request needs an integer id")
    return request


def _is_hex(text):
    for byte in text:
        if not (48 <= byte <= 57 or 97 <= byte <= 102):  # 0-9 a-f
            return False
    return True


_announced = []  # the boot event went out: once a power-up (a restart after a crash reads on)


class Link:
    def __init__(self, controller, journal, keypad, display, board, stdout=None):
        self.controller = controller
        self.journal = journal
        self.keypad = keypad
        self.display = display
        self.board = board
        # Raw bytes: the text stream would turn each frame's \n into \r\n on an ESP32.
        self._out = stdout or sys.stdout.buffer
        self._line = bytearray(LINE_MAX)  # the line's bytes, its line end not included
        self._view = memoryview(self._line)
        self._size = 0  # bytes of the line so far; LINE_MAX: over-long (dropped to its end)
        self._one = bytearray(1)  # the byte a read takes
        waiting = select.poll()
        waiting.register(sys.stdin.buffer, select.POLLIN)
        self._poll = waiting.ipoll  # bound once: ipoll(0) allocates nothing
        self._running = True  # False once run() ended: a restarted app makes a new Link
        # `play` events, in the order of their inputs: those of the link's own requests go
        # before the answer, those of keypad inputs when the sender task gets its turn.
        self._events = []
        self._events_due = asyncio.Event()
        self._in_request = False
        self._after_answer = None  # work a request leaves for after its answer is out (ack)
        self._box_loaded = False  # a request loaded link_box: dropped once no input waits
        controller.subscribe(self._on_play)

    # -- wire -------------------------------------------------------------------------

    def send(self, obj):
        """Write one frame: `@`, the canonical JSON of obj (a dict), `|`, its CRC-32, newline.
        Written piece by piece with a running CRC: a fragmented heap never has to find room
        for a whole reply (a log page, a screen)."""
        out = self._out
        out.write("@")
        sealer = Sealer(out.write)
        piece = sealer.piece
        sep = "{"
        for key in sorted(obj):
            piece(sep)
            dump(key, piece)
            piece(":")
            value = obj[key]
            if hasattr(value, "stream"):  # a link_box value written as it is read
                value.stream(sealer)
            else:
                dump(value, piece, sealer.gathered)
            sep = ","
            sealer.gathered()
        piece("{}" if sep == "{" else "}")
        sealer.close()

    def _answer(self, reply):
        try:
            self.send(reply)
        except Exception as exc:  # no memory, or the flash failed under a streamed log page
            # End the half-written line: its CRC cannot match, so the host drops it.
            self._out.write("\n")
            gc.collect()
            message = ("out of memory for the reply" if isinstance(exc, MemoryError)
                       else "%s: %s" % (type(exc).__name__, exc))
            self.send({"id": reply["id"], "ok": False, "error": "internal", "message": message})

    async def run(self):
        sender = asyncio.create_task(self._send_events_when_due())
        try:
            if not _announced:  # before anything is read: the host's window is empty now
                _announced.append(True)
                self._announce()
            await self._read()
        finally:
            sender.cancel()
            self._running = False  # its successor sends the events from now on

    def _announce(self):
        """The boot event. In a function of its own: a local of run() would keep link_box
        loaded for as long as the link runs."""
        from croupier import link_box

        self.send(link_box.hello_fields(self, {"ev": "boot"}))
        _drop_box()

    async def _read(self):
        """Sleep until input comes, then take it a byte at a time while more waits, up to
        the end of the line: the line is answered in the same step. Returns when stdin
        closes (nothing more can come)."""
        stdin = sys.stdin.buffer
        stream = asyncio.StreamReader(stdin)
        one = self._one
        while True:
            if not await stream.readinto(one):
                return
            while not self._take(one[0]) and self._waiting():
                if not stdin.readinto(one):
                    return

    def _waiting(self):
        """Whether input waits (or stdin hung up: its read then says so)."""
        for _ in self._poll(0):
            return True
        return False

    def _take(self, byte):
        """Add one input byte to the line; a line end (\\n, or \\r: a terminal's Enter)
        hands the line to feed(). -> whether a line ended."""
        size = self._size
        if byte == 10 or byte == 13:
            self._size = 0
            if size:
                self.feed(self._view[:size] if size < LINE_MAX else None)
            return True
        if size < LINE_MAX:  # LINE_MAX bytes before the line end: over-long, it grows no more
            self._line[size] = byte
            self._size = size + 1
        return False

    def feed(self, line):
        """Handle one input line (bytes without the line end); None for an over-long one."""
        if line is None:
            if self._line[0] == 64:  # `@`: a request we could not take
                self._answer({"id": None, "ok": False, "error": "too_long",
                              "message": "requests are at most %d bytes" % LINE_MAX})
            return
        if line[0] != 64:
            return  # not protocol
        rid = None
        self._in_request = True
        try:
            request = parse(bytes(line[1:]))
            rid = request["id"]
            reply = self.handle(request)
            reply["id"] = rid
            reply["ok"] = True
        except RequestError as exc:
            reply = {"id": rid, "ok": False, "error": exc.code, "message": exc.message}
        except Exception as exc:  # a bug, a full flash, no memory: answer, keep running
            reply = {"id": rid, "ok": False, "error": "internal",
                     "message": "%s: %s" % (type(exc).__name__, exc)}
        finally:
            self._in_request = False
        gc.collect()  # while the host waits for the answer: the heap stays unfragmented
        # through requests without a pause between them (a sync)
        self._answer(reply)
        if self._box_loaded and not self._waiting():  # requests in a row (a sync) share one load
            self._box_loaded = False
            _drop_box()
        work, self._after_answer = self._after_answer, None
        if work is not None:  # done before the next line is read: later answers know it
            try:
                work()
            except OSError:
                pass  # a flash error: the records are kept, a later `ack` deletes them

    # -- requests ---------------------------------------------------------------------

    def handle(self, request):
        """The result fields of one parsed request; RequestError when it is refused."""
        cmd = request.get("cmd")
        spec = _COMMANDS.get(cmd) if isinstance(cmd, str) else None
        if spec is None:
            raise RequestError("unknown_cmd", "unknown command %s"
                               % (dumps(cmd) if isinstance(cmd, str) else "(not a string)"))
        required, optional = spec
        for name in request:
            if name not in required and name not in optional and name not in ("id", "cmd"):
                raise RequestError("bad_args", "%s takes no argument %s" % (cmd, dumps(name)))
        for name in required:
            if name not in request:
                raise RequestError("bad_args", "%s needs %s" % (cmd, name))
        try:
            handler = getattr(self, "_" + cmd, None)
            if handler is None:
                from croupier import link_box

                self._box_loaded = True
                return getattr(link_box, cmd)(self, request) or {}
            return handler(request) or {}
        except Illegal as exc:
            raise RequestError("illegal", _reason(exc))
        except SetupError as exc:
            raise RequestError("bad_args", _reason(exc))
        except JournalError as exc:  # nothing was written: the state is as it was
            raise RequestError("internal", exc.reason)

    def _state(self, request):
        return {"state": self.controller.state()}

    def _new(self, request):
        options = request.get("options")
        if options is not None and not (isinstance(options, dict) and _writable(options)):
            raise RequestError("bad_args", "options must be an object of integers, strings, "
                               "booleans, lists and objects")
        game = _str(request["game"], "game")
        players = _names(request["players"], "players", 1)
        self.controller.new(game, players, options)
        return self._state(request)

    def _with_game(self):
        """The controller, once a game is set up."""
        if self.controller.game is None:
            raise RequestError("no_game", "no game is set up")
        return self.controller

    def _play(self, request):
        card = _str(request["card"], "card")
        return self._played(self._with_game().play(card))

    def _undo(self, request):
        return self._played(self._with_game().undo())

    def _redo(self, request):
        return self._played(self._with_game().redo())

    def _played(self, effects):
        return {"state": self.controller.state(), "effects": effects}

    def _key(self, request):
        hold = request.get("hold", False)
        if not isinstance(hold, bool):
            raise RequestError("bad_args", "hold must be true or false")
        key = _str(request["key"], "key")
        if key not in self.keypad.names:
            raise RequestError("bad_args", "unknown key %s; keys: %s"
                               % (dumps(key), " ".join(sorted(self.keypad.names))))
        try:
            self.keypad.inject(key, hold)
        except OverflowError:
            raise RequestError("busy", "the key queue is full; retry shortly")

    # -- events -----------------------------------------------------------------------

    def _on_play(self, seq, state, effects):
        if not self._running:
            return
        self._events.append((seq, state, effects))
        if self._in_request:
            self._send_events()
        else:
            self._events_due.set()

    async def _send_events_when_due(self):
        while True:
            await self._events_due.wait()
            self._events_due.clear()
            self._send_events()

    def _send_events(self):
        events = self._events
        while events:
            seq, state, effects = events.pop(0)
            try:
                self.send({"ev": "play", "seq": seq, "state": state, "effects": effects})
            except MemoryError:  # the input is journaled and applied; the host can ask `state`
                self._out.write("\n")


def _drop_box():
    """Drop link_box, and journal_sync, which some of its requests load."""
    croupier.drop_module("croupier.link_box")
    croupier.drop_module("croupier.journal_sync")


def _writable(value):
    """True when the journal can write value (canonical JSON has no floats)."""
    try:
        check(value)
    except TypeError:
        return False
    return True


def _reason(exc):
    return getattr(exc, "reason", None) or str(exc)
