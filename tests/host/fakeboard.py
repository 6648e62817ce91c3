"""A board behind a fake serial port, for the link's unit tests.

It keeps what the host writes in a receive path of RING bytes, reads it only as fast as the
test lets it (`pace`: bytes per host read; None for all, 0 for a stalled board), and answers
lines as protocol-2 firmware does: every `@` line once, in order; `too_long` (id null) for a
line over LINE_MAX; `bad_frame` (id null) for one that does not parse; nothing for a line that
does not start with `@`. A write that would leave more bytes unread than `limit` fails the
test on the spot: that is a host that could lose bytes on a stalled board.
"""
import json
import threading
import time

from croupier.link import LINE_MAX, WINDOW, crc_hex, encode_frame

HELLO = {"proto": 2, "fw": "0.2.0", "line_max": LINE_MAX, "window": WINDOW, "device": "fa4e", "board": "fake",
         "log_epoch": "e", "last_seq": 0, "acked": 0, "boot": 1, "uptime_ms": 5000}


class FakeBoard:
    """A pyserial-like port (read, write, in_waiting, timeout) with a board behind it."""

    def __init__(self, pace=None, limit=WINDOW, leftover=b"", hello=None, handlers=None):
        self.port = "/dev/fake"
        self.timeout = None
        self.pace = pace            # bytes the board reads per host read; None: all, 0: none
        self.limit = limit          # the most unread bytes the host may leave
        self.unread = bytearray(leftover)  # left by a host before (a killed one)
        self.hello = dict(HELLO, **(hello or {}))
        self.handlers = handlers or {}  # cmd -> fn(request) -> answer fields (ok true) or an answer
        self.lose = 0               # the host's next `lose` writes never arrive
        self.writes = []            # (bytes, answers sent before it) for each write that arrived
        self.requests = []          # the requests handled, in order
        self.answers = 0
        self._line = bytearray()
        self._too_long = False
        self._out = bytearray()
        self._lock = threading.Lock()

    # -- the host's side --------------------------------------------------------------
    def write(self, data):
        with self._lock:
            if self.lose:
                self.lose -= 1
                return len(data)
            self.writes.append((bytes(data), self.answers))
            self.unread += data
            assert len(self.unread) <= self.limit, \
                "the host left %d bytes unread on the board (at most %d): %r" % (len(self.unread), self.limit, data)
        return len(data)

    def flush(self):
        pass

    @property
    def in_waiting(self):
        return len(self._out)

    def read(self, size=1):
        with self._lock:
            self._take(len(self.unread) if self.pace is None else self.pace)
            data = bytes(self._out[:size])
            del self._out[:size]
        if not data:
            time.sleep(0.002)
        return data

    def close(self):
        pass

    # -- the board's side ---------------------------------------------------------------
    def sent(self):
        """Every byte that reached the board, in order."""
        return b"".join(data for data, _ in self.writes)

    def frames(self):
        """The request objects the host sent, in order (lines that parse)."""
        out = []
        for line in self.sent().replace(b"\r", b"\n").split(b"\n"):
            payload = line[1:].rpartition(b"|")[0]
            if line.startswith(b"@") and payload:
                out.append(json.loads(payload))
        return out

    def take(self, count=None):
        """Read `count` bytes now (all unread with None), answering the lines they end."""
        with self._lock:
            self._take(len(self.unread) if count is None else count)

    def boot(self):
        """A reset: the receive path starts empty, then the `boot` event goes out."""
        with self._lock:
            self.unread.clear()
            self._line.clear()
            self._too_long = False
            self._out += encode_frame(dict(self.hello, ev="boot"))

    def say(self, data):
        """Bytes from the board that answer nothing (an event, noise)."""
        with self._lock:
            self._out += data

    def _take(self, count):
        for byte in bytes(self.unread[:count]):
            del self.unread[:1]
            if byte in b"\r\n":
                self._end_line()
            elif len(self._line) < LINE_MAX - 1:  # room for the line end in the board's buffer
                self._line.append(byte)
            else:
                self._too_long = True

    def _end_line(self):
        line, too_long = bytes(self._line), self._too_long
        self._line.clear()
        self._too_long = False
        if not line.startswith(b"@"):
            return
        if too_long:
            return self._answer({"error": "too_long", "id": None, "message": "over %d bytes" % LINE_MAX, "ok": False})
        request = self._parse(line[1:])
        if request is None:
            return self._answer({"error": "bad_frame", "id": None, "message": "unparsable", "ok": False})
        self.requests.append(request)
        handler = self.handlers.get(request["cmd"])
        answer = handler(request) if handler else (dict(self.hello) if request["cmd"] == "hello" else {})
        if "ok" not in answer:
            answer = dict(answer, ok=True)
        self._answer(dict(answer, id=request["id"]))

    @staticmethod
    def _parse(text):
        payload, sep, crc = text.rpartition(b"|")
        if sep and len(crc) == 8:
            if crc != crc_hex(payload).encode():
                return None
        else:
            payload = text
        try:
            request = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(request, dict) or not isinstance(request.get("id"), int):
            return None
        return request

    def _answer(self, answer):
        self.answers += 1
        self._out += encode_frame(answer)


def roster_handlers():
    """Handlers keeping a roster as protocol-2 firmware does: `roster` replaces it, with
    `add` appends (at most 16 names); -> (handlers, the roster list)."""
    roster = []

    def handle(request):
        names = request["names"]
        if len(names) + (len(roster) if request.get("add") else 0) > 16:
            return {"error": "bad_args", "message": "at most 16 names", "ok": False}
        if not request.get("add"):
            roster.clear()
        roster.extend(names)
        return {}

    return {"roster": handle}, roster
