"""Fixtures for the firmware tests.

`mpy` runs a script on the real MicroPython unix port with the firmware (and this folder's
device-side helpers) importable; `board` is a fresh virtual board running the whole firmware
(real littlefs, emulated ESP32 parts, a real pty), with `frames` to talk raw protocol to it.
"""
import binascii
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from croupier.sim import FIRMWARE_HEAP

HERE = Path(__file__).resolve().parent
# The virtual board's heap for this suite: croupier.sim.FIRMWARE_HEAP (CROUPIER_TEST_HEAP).
HEAP = FIRMWARE_HEAP
REPO = HERE.parent.parent
FIRMWARE = REPO / "firmware"


@pytest.fixture
def mpy(micropython, tmp_path):
    """run(code, *args, timeout=60) -> stdout of MicroPython running code (a string or a
    path); fails the test on a non-zero exit, with MicroPython's own output."""

    def run(code, *args, timeout=60):
        if isinstance(code, str) and "\n" in code:
            script = tmp_path / "script.py"
            script.write_text(code)
            code = script
        env = dict(os.environ, MICROPYPATH="%s:%s:.frozen" % (FIRMWARE, HERE))
        proc = subprocess.run([micropython, "-X", "heapsize=2M", str(code)] + [str(a) for a in args],
                              capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp_path)
        if proc.returncode:
            pytest.fail("MicroPython exited %d:\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
        return proc.stdout

    return run


def crc_hex(payload: bytes) -> str:
    return "%08x" % (binascii.crc32(payload) & 0xFFFFFFFF)


def frame(obj=None, raw=None, crc=True) -> bytes:
    """A request line: obj as compact JSON (or raw bytes), `|crc` unless crc is False."""
    payload = raw if raw is not None else json.dumps(obj, separators=(",", ":")).encode()
    return b"@" + payload + ((b"|" + crc_hex(payload).encode()) if crc else b"") + b"\n"


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
        while time.monotonic() < deadline:
            obj = self.read_frame(deadline - time.monotonic())
            if obj is None:
                break
            if "ev" in obj:
                self.events.append(obj)
            elif obj.get("id") == rid:
                return obj
        raise AssertionError("no response with id %r within %.1fs" % (rid, timeout))

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
        answer = self.call(cmd, **args)
        assert answer["ok"] is True, answer
        return answer


@pytest.fixture
def board():
    """A fresh virtual board running the firmware, its boot event already read."""
    from croupier.sim import VirtualBoard

    with VirtualBoard(heap=HEAP) as vb:
        yield vb


@pytest.fixture
def frames(board):
    """Frames on the board's serial port, after the firmware's `boot` event."""
    import serial

    with serial.Serial(board.port, 115200, timeout=0.1) as port:
        f = Frames(port)
        wait_for_boot(f)
        yield f


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
