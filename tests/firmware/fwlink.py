"""Talking raw protocol to the firmware on a virtual board: frames, replies, the boot event.

Shared by the firmware tests (through conftest.py's fixtures) and the benchmarks."""
import binascii
import contextlib
import json
import time
from pathlib import Path

from croupier.sim import FIRMWARE_HEAP

HERE = Path(__file__).resolve().parent
# The virtual board's heap for this suite: croupier.sim.FIRMWARE_HEAP (CROUPIER_TEST_HEAP).
HEAP = FIRMWARE_HEAP
# Protocol 2 (docs/protocol.md): the longest request line, `@` to its newline; the request
# bytes a host may have sent and not yet know read (the board's receive path holds 259).
LINE_MAX = 220
WINDOW = 220


def crc_hex(payload: bytes) -> str:
    return "%08x" % (binascii.crc32(payload) & 0xFFFFFFFF)


def frame(obj=None, raw=None, crc=True) -> bytes:
    """A request line: obj as compact JSON (or raw bytes), `|crc` unless crc is False."""
    payload = raw if raw is not None else json.dumps(obj, separators=(",", ":")).encode()
    return b"@" + payload + ((b"|" + crc_hex(payload).encode()) if crc else b"") + b"\n"


def longest_hello(rid) -> bytes:
    """A `hello` of LINE_MAX bytes from `@` to its newline, the longest request protocol 2
    takes (JSON padded with spaces, `|crc`)."""
    head = '{"id":%d,"cmd":"hello"' % rid
    payload = head + " " * (LINE_MAX - 1 - 9 - 1 - len(head) - 1) + "}"
    line = frame(raw=payload.encode())
    assert len(line) == LINE_MAX, len(line)
    return line


def unframe(line: bytes):
    """The object of one device frame; asserts the device framing rules hold."""
    assert line.endswith(b"\n") and line.startswith(b"@"), line
    body = line.rstrip(b"\r\n")[1:]
    assert all(32 <= b < 127 for b in body), "device frames are printable 7-bit ASCII"
    payload, _, crc = body.rpartition(b"|")
    assert crc == crc_hex(payload).encode(), line
    return json.loads(payload)


class Frames:
    """Raw protocol over a serial port: send lines, read frames with deadlines."""

    def __init__(self, port):
        self.port = port
        self.boot = None  # the boot event, when frames_on waited for it
        self.events = []
        self.noise = []
        self._next_id = 1

    def send_raw(self, data: bytes):
        self.port.write(data)

    def read_frame(self, timeout=5.0):
        """The next device frame (events included), or None at the deadline."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.port.timeout = max(0.01, deadline - time.monotonic())
            line = self.port.readline()
            if not line:
                continue
            if not line.startswith(b"@"):
                self.noise.append(line)
                continue
            return unframe(line)
        return None

    def reply(self, rid, timeout=5.0):
        """The response with id rid; events met on the way are kept in events."""
        deadline = time.monotonic() + timeout
        unread = []  # answers to lines the board could not read (id null): damaged on the way?
        while time.monotonic() < deadline:
            obj = self.read_frame(deadline - time.monotonic())
            if obj is None:
                break
            if "ev" in obj:
                self.events.append(obj)
            elif obj.get("id") == rid:
                return obj
            elif obj.get("id") is None:
                unread.append(obj.get("error"))
        raise AssertionError("no response with id %r within %.1fs%s" % (
            rid, timeout, "; meanwhile the board could not read lines: %s" % ", ".join(unread) if unread else ""))

    def call(self, cmd, timeout=5.0, **args):
        rid = self._next_id
        self._next_id += 1
        self.send_raw(frame(dict(args, id=rid, cmd=cmd)))
        return self.reply(rid, timeout)

    @staticmethod
    def ok_shape(answer):
        """answer if it is a successful response, else an AssertionError."""
        assert answer is not None and answer.get("ok") is True, answer
        return answer

    def ok(self, cmd, **args):
        return self.ok_shape(self.call(cmd, **args))


@contextlib.contextmanager
def frames_on(port_name, boot=False, timeout=30.0):
    """Frames on a board's serial port (115200 baud), after its boot event (within timeout
    s) if boot."""
    import serial

    with serial.Serial(port_name, 115200, timeout=0.1) as port:
        frames = Frames(port)
        if boot:
            frames.boot = wait_for_boot(frames, timeout)
        yield frames


def wait_for_boot(frames, timeout=30.0):
    """The firmware's boot event; fails at once when the board fell back to the REPL."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        obj = frames.read_frame(min(0.5, deadline - time.monotonic()))
        if obj is not None and obj.get("ev") == "boot":
            return obj
        if any(line.startswith(b">>> ") for line in frames.noise[-2:]):
            raise AssertionError("the firmware stopped at start-up (heap %s):\n%s"
                                 % (HEAP, b"".join(frames.noise[-12:]).decode(errors="replace")))
    raise AssertionError("no boot event within %.0fs; noise: %r" % (timeout, frames.noise[-5:]))
