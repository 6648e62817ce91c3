# The serial protocol of docs/protocol.md over sys.stdin/stdout.
# Lines starting with `@` are requests; anything else on the line (REPL chatter, a person
# typing) is ignored. Each wake-up reads every byte waiting: a board buffers only a few
# hundred (the ESP32's UART FIFO and stdin ring), so input read a byte per wake-up would be
# lost at line rate. The board's console_read takes them at C speed (a Python loop of
# one-byte reads is slower than the line on an ESP32). They go into one preallocated line
# buffer, so garbage of any length costs no memory. A key's handling and a redraw take
# longer than the receive buffer lasts: the app does them in a lull (in_a_lull()), where no
# request can be arriving. Every reply and event goes out as canonical JSON with its CRC-32:
# 7-bit ASCII that never holds Ctrl-C or Ctrl-D.
from micropython import const
import asyncio
from asyncio import core
import binascii
import gc
import json
import select
import sys
import time

import croupier
from croupier.journal import JournalError, Sealer, crc_hex
from croupier.rules import Illegal, SetupError
from croupier.rules.canon import check, dump, dumps

PROTO = const(1)
MAX_LINE = const(1024)  # bytes of a request line, `@` and `|crc` included, newline not
LOG_PAGE = const(64)  # most records one `log` reply carries (`hello`'s log_max): a segment
LOG_DEFAULT = const(32)  # records of a `log` request without `max` (what protocol 1 began with)
MAX_NAMES = const(16)
MAX_NAME_LEN = const(16)
READ_CHUNK = const(128)  # most bytes one console read takes (the port allocates that much)
HELD_MAX = const(1088)  # input drain() can hold: a longest request and a bit
TALK_MS = const(1000)  # a request answered this recently: the host is talking
PAUSE_MS = const(20)  # no byte for this long: the sender of a line paused (a person, a cut)
HOST_TURN_MS = const(200)  # no request this long after an answer: the host has fallen silent
LULL_MS = const(250)  # most a lull's work keeps a host waiting for its answer
_B64_SLICE = const(96)  # bytes encoded at a time: a multiple of 3, so no padding inside

# command -> (required arguments, optional arguments); its handler is Link._<command>.
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
    "roster": (("names",), ()),
    "get_roster": ((), ()),
    "clock": (("epoch",), ()),
}


class Base64:
    """A reply value sent as a base64 JSON string straight from a buffer."""

    def __init__(self, data):
        self.data = data


class Canonical:
    """A reply value that is a list of values already written as canonical JSON, streamed:
    each(take) calls take(text) for every one (journal records as stored, bytes). They go
    out as they are read, so a page of any length needs no room in the heap."""

    def __init__(self, each):
        self.each = each


class RequestError(Exception):
    """A request answered with an error: code (docs/protocol.md) and a human message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _int(value, name, low=0):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RequestError("bad_args", "%s must be an integer >= %d" % (name, low))
    return value


def _str(value, name):
    if not isinstance(value, str) or not value:
        raise RequestError("bad_args", "%s must be a non-empty string" % name)
    return value


def _names(value, name, fewest):
    if not isinstance(value, list) or not fewest <= len(value) <= MAX_NAMES:
        raise RequestError("bad_args", "%s must be a list of %d to %d names"
                           % (name, fewest, MAX_NAMES))
    for item in value:
        if not isinstance(item, str) or not 0 < len(item) <= MAX_NAME_LEN:
            raise RequestError("bad_args", "each name must be a string of 1 to %d characters"
                               % MAX_NAME_LEN)
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


async def _readable(stream):
    """Until stream has input waiting, without reading it: asyncio's own wait for a stream
    (what its StreamReader does before each read). A read after the wait could block: long
    work may have drained the input meanwhile (Link.drain)."""
    yield core._io_queue.queue_read(stream)


def _line_end(data, start, end):
    """Where the first \\n or \\r in data[start:end] is; end if none."""
    newline, ret = data.find(b"\n", start, end), data.find(b"\r", start, end)
    if newline < 0:
        return end if ret < 0 else ret
    return newline if ret < 0 or newline < ret else ret


def _is_hex(text):
    for byte in text:
        if not (48 <= byte <= 57 or 97 <= byte <= 102):  # 0-9 a-f
            return False
    return True


class Link:
    def __init__(self, controller, journal, keypad, display, board, stdout=None):
        self.controller = controller
        self.journal = journal
        self.keypad = keypad
        self.display = display
        self.board = board
        # Raw bytes: the text stream would turn each frame's \n into \r\n on an ESP32.
        self._out = stdout or sys.stdout.buffer
        self._line = bytearray(MAX_LINE)
        self._view = memoryview(self._line)
        self._size = 0  # bytes of the line so far; past MAX_LINE it is over-long
        self._held = bytearray(HELD_MAX)  # input drain() took while long work ran
        self._held_n = 0
        self._reading = False  # a console read is under way: its bytes are not in _held yet
        self._feeding = False  # catch_up feeds what _held holds to the line: drain() waits
        self.after_read = None  # called once a console read's bytes are held (the keypad
        # takes the sample its interrupt's handler left when it cut into the read)
        self._wait_io_event = None  # asyncio's, while take_in_at_every_turn is on
        waiting = select.poll()
        waiting.register(sys.stdin.buffer, select.POLLIN)
        self._ready = waiting.ipoll
        self._arriving = False  # the line taken in so far is an open request
        self._input_at = 0  # ticks_ms when input was last taken from the receive ring
        self._answered_at = None  # ticks_ms when the last request was answered
        self._untidy = False  # a collection was left to the next request (tidy)
        self._running = True  # False once run() ended: a restarted app makes a new Link
        # `play` events of inputs from the keypad wait until the screen shows the input (the
        # event costs more than the frame); those of the link's own requests go before the
        # reply. Either way, in the order of their inputs.
        self._events = []
        self._events_due = asyncio.Event()
        self._in_request = False
        self._after_answer = None  # work a request leaves for after its answer is out (ack)
        self._lull_steps = []  # in_a_lull()'s work, waiting for a lull
        self._lulled = asyncio.Event()  # ... a lull ran them
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
            if isinstance(value, Base64):
                _base64(value.data, sealer)
            elif isinstance(value, Canonical):
                _canonical_list(value.each, sealer)
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
        self.take_in_at_every_turn(True)
        try:
            await self._serve()
        finally:
            self.take_in_at_every_turn(False)
            sender.cancel()
            self._running = False  # its successor sends the events from now on

    def take_in_at_every_turn(self, on):
        """While on, every turn of asyncio's between two task steps takes the input in
        first. asyncio runs one step per turn and queues the reader's, when input wakes it,
        behind the steps already due (a click, a scan, a redraw): together they can outlast
        the receive buffer on a busy chip. A turn is also where nothing is on the stack
        that a request could upset."""
        queue = core._io_queue
        if not on:
            queue.wait_io_event = self._wait_io_event
            return
        wait = self._wait_io_event = queue.wait_io_event
        loop = asyncio.get_event_loop()

        def take_in_then_wait(dt):
            if not dt:  # a task is due: the turn between two steps (else asyncio may sleep)
                try:
                    self.catch_up()
                except Exception as exc:  # a bug: the app's handler shows it, as a task's
                    loop.call_exception_handler({"message": "link", "exception": exc})
            wait(dt)

        queue.wait_io_event = take_in_then_wait

    async def _serve(self):
        self.send(self._hello_fields({"ev": "boot"}))
        stdin = sys.stdin.buffer
        while True:
            await _readable(stdin)  # asleep until a byte is there
            # Nothing to take: long work took it first (a wait again then sleeps until the
            # next byte: a pause here would leave the ring unread while a request streams
            # in), or stdin is closed (a wait again would wake at once: pause).
            if not self.catch_up() and self._closed():
                await asyncio.sleep_ms(PAUSE_MS)

    def _closed(self):
        """Whether stdin has hung up or failed (poll says so, with nothing to read)."""
        for entry in self._ready(0):
            return bool(entry[1] & (select.POLLHUP | select.POLLERR))
        return False

    def drain(self):
        """Move the serial input waiting into the held buffer, unread. Long work (a frame's
        transfers, a key's handling) calls this between its steps: it outlasts the receive
        buffer (34 ms at line rate on an ESP32). catch_up() takes it in, in order. So does the
        keypad's interrupt handler, which runs between two bytecodes of anything: into a drain
        between two of its reads, whose next read then goes after what this one held; while
        catch_up feeds the held input to the line it leaves the input alone. -> False only when
        it cut into a console read, whose bytes are not held yet (what it read would go before
        them): after_read() is called once they are."""
        if self._reading:
            return False
        if not self._feeding:
            self._drain()
        return True

    def _drain(self):
        for _ in self._ready(0):  # a byte waits (ipoll allocates nothing)
            break
        else:
            return
        read, held, start = self.board.console_read, self._held, self._held_n
        while self._held_n < HELD_MAX:
            want = min(READ_CHUNK, HELD_MAX - self._held_n)
            self._reading = True
            data = read(want)
            # No jump from the read to the flag's end: the interrupt's handler runs only at
            # one (MicroPython's pending check), so a drain of its own cannot come between.
            n = self._held_n
            got = len(data)
            held[n:n + got] = data
            self._held_n = n + got
            self._reading = False
            if self.after_read is not None:
                self.after_read()
            if got < want and (not got or data[got - 1] != 10):
                break  # the receive ring ran dry
        if self._held_n != start:
            self._input_at = time.ticks_ms()

    def catch_up(self):
        """Take in what drain() held and all that waits now, answering the requests it ends.
        The reader's work, and that of long work at its end, where nothing is on the stack
        that a request could upset. -> whether there was any."""
        any_input = False
        while True:
            self._drain()
            # No jump from the flag to the buffer's reset: an interrupt handler's drain comes
            # before (its bytes are fed with these) or finds the flag (they wait their turn).
            self._feeding = True
            n = self._held_n
            self._held_n = 0
            try:
                if n:
                    self._size = self._take(self._held, self._size, n)
            finally:
                self._feeding = False
            if not n:
                return any_input
            self._arriving = self._size and self._line[0] == 64  # `@`: a request on its way
            any_input = True
            if n < HELD_MAX:
                return True  # drain() found the ring dry

    def _take(self, data, size, n=-1):
        """Add input bytes (the first n of data, all if n < 0) to the line of `size` bytes,
        feeding each line they end (at \\n or \\r, a terminal's Enter). -> the size of the
        line still open."""
        if n < 0:
            n = len(data)
        start = 0
        while start < n:
            end = _line_end(data, start, n)
            count = end - start
            if count:
                if size < MAX_LINE:
                    take = min(count, MAX_LINE - size)
                    self._view[size:size + take] = memoryview(data)[start:start + take]
                size += count
            if end == n:
                break
            if size:
                self.feed(self._view[:size] if size <= MAX_LINE else None)
                size = 0
            start = end + 1
        return size

    def receiving(self):
        """Whether a request is arriving, its last bytes taken in less than PAUSE_MS ago:
        the keypad's scans wait meanwhile (a scan can take a slice of the chip's time the
        reader needs; its pin interrupts still sample each change)."""
        return self._arriving and time.ticks_diff(time.ticks_ms(), self._input_at) < PAUSE_MS

    def talking(self):
        """Whether a host is talking: a request arriving, or one answered less than
        TALK_MS ago (its next request may be on its way, not yet in sight)."""
        if self._arriving:
            return True
        at = self._answered_at
        return at is not None and time.ticks_diff(time.ticks_ms(), at) < TALK_MS

    def tidy(self, collect):
        """Tidy the heap with collect() (croupier.tidy_heap, gc.collect) now, unless a host
        is talking: a collection could then keep the first bytes of its next request, not yet
        in sight (the UART hands them over 120 at a time), unread for longer than the receive
        buffer lasts. The next request then collects before it is handled, while the host
        waits, so that its long-lived allocations still go into a tidy heap."""
        if self.talking():
            self._untidy = True
        else:
            collect()
            self._untidy = False

    async def quiet(self):
        """Returns once no request is arriving. Work that would keep the reader away for
        longer than the receive buffer lasts (34 ms at line rate on an ESP32) waits for
        this: a key stays queued until the line has ended, its bytes would be lost. A line
        whose sender paused for PAUSE_MS holds nothing back; input waiting in the receive
        ring means it did not (the board was too busy to take it), and is taken in. It looks
        again when that pause would be over, not sooner: each look costs the chip a wake-up
        while the line needs it. It returns only right after a look: a request that began
        while the chip was busy (its host sent it the moment an answer was out, maybe while
        this waited for the one before) holds the work back, the reader's turn among the
        tasks may still be far off."""
        self.catch_up()
        while self._arriving:
            left = PAUSE_MS - time.ticks_diff(time.ticks_ms(), self._input_at)
            if left <= 0:
                return  # nothing for PAUSE_MS, nothing waiting (just looked): the sender paused
            await asyncio.sleep_ms(left)
            self.catch_up()

    async def in_a_lull(self, step):
        """Run step() (long work: a key's, whose journal write may erase a flash sector,
        45 ms on the chip, or a frame's) until it returns False, where no request can be
        arriving meanwhile: such work outlasts the receive buffer. Right away while no host
        talks; else just before the next request is handled, while its host waits for the
        answer (a host sends its next request soon after an answer, often while the work
        would still run), or once the host has been silent for HOST_TURN_MS. Steps waiting
        together run in the order they came. They stop early when input comes, or after
        LULL_MS: the rest wait for the next lull."""
        steps, lulled = self._lull_steps, self._lulled
        steps.append(step)
        try:
            while step in steps:
                await self.quiet()
                if step not in steps:
                    break  # a request that ended meanwhile had it done first
                left = self._host_turn_left()
                if left <= 0:
                    self._lull()
                    self.catch_up()  # what came during the last step
                    break
                lulled.clear()
                try:
                    await asyncio.wait_for_ms(lulled.wait(), left)
                except asyncio.TimeoutError:
                    pass
        finally:
            if step in steps:  # cancelled
                steps.remove(step)

    def _host_turn_left(self):
        """ms until a host that has not sent a request since the last answer is silent."""
        at = self._answered_at
        return 0 if at is None else HOST_TURN_MS - time.ticks_diff(time.ticks_ms(), at)

    def _lull(self):
        steps, began = self._lull_steps, time.ticks_ms()
        try:
            while steps:
                step = steps.pop(0)
                while (step() and not self._input_waiting()
                       and time.ticks_diff(time.ticks_ms(), began) < LULL_MS):
                    pass
        finally:
            self._lulled.set()

    def _input_waiting(self):
        """Whether input waits, moved aside (drain) or in the receive ring."""
        self.drain()
        if self._held_n:
            return True
        for _ in self._ready(0):
            return True
        return False

    def feed(self, line):
        """Handle one input line (bytes without the newline); None for an over-long line."""
        if line is None:
            if self._line[0] == 64:  # `@`: a request we could not take
                self._answer({"id": None, "ok": False, "error": "too_long",
                              "message": "requests are at most %d bytes" % MAX_LINE})
            return
        if line[0] != 64:
            return  # not protocol
        if self._lull_steps:  # the host waits for the answer: nothing arrives
            self._lull()
            self._send_events()  # the work's, in the same lull
        rid = None
        self._in_request = True
        try:
            request = parse(bytes(line[1:]))
            rid = request["id"]
            if self._untidy:  # the handling's long-lived allocations go into a tidy heap
                self._untidy = False
                gc.collect()
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
        gc.collect()  # while the host waits for the answer: no request can arrive now, and the
        # heap stays unfragmented (requests without a pause between them, a sync)
        self._answer(reply)
        self._answered_at = time.ticks_ms()
        work, self._after_answer = self._after_answer, None
        if work is not None:
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
            return getattr(self, "_" + cmd)(request) or {}
        except Illegal as exc:
            raise RequestError("illegal", _reason(exc))
        except SetupError as exc:
            raise RequestError("bad_args", _reason(exc))
        except JournalError as exc:  # nothing was written: the state is as it was
            raise RequestError("internal", exc.reason)

    def _hello_fields(self, out):
        journal = self.journal
        out["device"] = self.board.unique_id()
        out["fw"] = croupier.VERSION
        out["proto"] = PROTO
        out["board"] = self.board.NAME
        out["boot"] = journal.boots
        out["uptime_ms"] = journal.uptime_ms()  # the clock of the records' [boot, ms]
        out["log_epoch"] = journal.epoch
        out["last_seq"] = journal.last_seq
        out["acked"] = journal.acked
        out["log_max"] = LOG_PAGE
        keypad = self.keypad
        out["keys"] = {"registered": keypad.registered, "refused": keypad.refused, "handled": keypad.handled}
        return out

    def _hello(self, request):
        return self._hello_fields({})

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

    def _screen(self, request):
        display = self.display
        return {"w": display.width, "h": display.height, "fb": Base64(display.buffer)}

    def _log(self, request):
        start = _int(request.get("from", 0), "from")
        most = min(_int(request.get("max", LOG_DEFAULT), "max", 1), LOG_PAGE)
        journal = self.journal

        def each(take):
            journal.each_record(start, most, take)

        return {"records": Canonical(each), "last_seq": journal.last_seq,
                "log_epoch": journal.epoch}

    def _ack(self, request):
        upto = _int(request["upto"], "upto")
        if upto > self.journal.last_seq:
            raise RequestError("bad_args", "upto %d is beyond last_seq %d"
                               % (upto, self.journal.last_seq))
        # Deleting the segments and storing `acked` are flash erases and writes (half a
        # second on the chip): the host waits for the answer, not for them. They are done
        # before the next request is read, so every later answer knows them.
        journal = self.journal
        self._after_answer = lambda: journal.ack(upto)

    def _roster(self, request):
        self.controller.roster = list(_names(request["names"], "names", 0))

    def _get_roster(self, request):
        return {"names": self.controller.roster}

    def _clock(self, request):
        try:
            self.journal.set_time(_int(request["epoch"], "epoch"))
        except ValueError as exc:  # a date the real-time clock module cannot hold
            raise RequestError("bad_args", str(exc))

    # -- events -----------------------------------------------------------------------

    def _on_play(self, seq, state, effects):
        if not self._running:
            return
        self._events.append((seq, state, effects))
        if self._in_request:
            self._send_events()
        else:
            self._events_due.set()  # the app's refresh task, woken first, draws before

    async def _send_events_when_due(self):
        while True:
            await self._events_due.wait()
            await self.quiet()
            self._events_due.clear()
            self._send_events()

    def _send_events(self):
        events = self._events
        while events:
            self.drain()  # an event takes a while to write
            seq, state, effects = events.pop(0)
            try:
                self.send({"ev": "play", "seq": seq, "state": state, "effects": effects})
            except MemoryError:  # the input is journaled and applied; the host can ask `state`
                self._out.write("\n")


def _canonical_list(each, sealer):
    """The JSON list of the texts each(take) gives (bytes), through sealer."""
    sealer.flush()  # what came before is str
    items = _Items(sealer)
    each(items.take)
    items.piece(b"]" if items.sep == b"," else b"[]")
    sealer.flush()  # what follows is str


class _Items:
    """take(text): one more item of a JSON list, after the separator it needs."""

    def __init__(self, sealer):
        self.piece = sealer.piece
        self._flush = sealer.flush
        self.sep = b"["

    def take(self, text):
        piece = self.piece
        piece(self.sep)
        piece(text)
        self._flush()  # a record at a time: a page of them gathered would be a page long
        self.sep = b","


def _base64(data, sealer):
    """data as a JSON string of base64, encoded and written a slice at a time."""
    piece = sealer.piece
    piece('"')
    view = memoryview(data)
    for start in range(0, len(data), _B64_SLICE):
        piece(binascii.b2a_base64(view[start:start + _B64_SLICE], newline=False).decode())
        sealer.flush()
    piece('"')


def _writable(value):
    """True when the journal can write value (canonical JSON has no floats)."""
    try:
        check(value)
    except TypeError:
        return False
    return True


def _reason(exc):
    return getattr(exc, "reason", None) or str(exc)
