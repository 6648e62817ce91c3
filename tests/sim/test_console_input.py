"""The virtual board's console input as the ESP32 port's C code makes it, per release
(host/croupier/sim/mpy/_sim_stdio.py), and the receive path in front of it: the UART's
batches into a 259-byte ring (croupier.sim.uart)."""
import binascii
import json
import select
import signal
import subprocess
import sys
import time

import pytest
import serial

from croupier.cli import main
from croupier.sim import VirtualBoard, uart
from croupier.sim.board import RELEASES
from croupier.tui.sim import SimApp


def wait_line(vb, start, since=0, timeout=10):
    """-> the board's output since a mark once a line beginning with `start` has ended."""
    deadline = time.monotonic() + timeout
    while True:
        out = vb.output(since)
        at = out.find(start)
        if at >= 0 and b"\r\n" in out[at:]:
            return out
        if time.monotonic() > deadline:
            raise TimeoutError("no whole line %r in %r" % (start, out[-400:]))
        time.sleep(0.02)


def send(vb, data):
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        port.write(data)
        port.flush()
        vb.wait_delivered(timeout=10)


READ_N = """import sys
print("reading")
print("got", sys.stdin.buffer.read(5))
"""


def test_a_read_of_n_bytes_waits_for_all_n(make_board):
    # shared/runtime/sys_stdio_mphal.c stdio_buffer_read calls mp_hal_stdin_rx_chr once a
    # byte, and ports/esp32/mphalport.c's loops until the ring has one (v1.22.0 .. v1.28.0)
    vb = make_board(READ_N)
    mark = vb.wait_output(b"reading\r\n") and vb.mark()
    send(vb, b"abc")
    time.sleep(0.3)
    assert b"got" not in vb.output(mark)
    send(vb, b"de")
    assert b"got b'abcde'" in wait_line(vb, b"got", mark)


READLINES = """import sys
print("reading")
print("raw", sys.stdin.buffer.readline())
print("cut", sys.stdin.buffer.readline(4))
print("text", repr(sys.stdin.readline()))
"""


def test_readline_stops_only_at_a_newline_or_its_limit(make_board):
    # py/stream.c stream_unbuffered_readline: byte by byte until \n or the limit; the text
    # stream reads \r as \n (sys_stdio_mphal.c stdio_read), the buffer leaves it
    vb = make_board(READLINES)
    mark = vb.wait_output(b"reading\r\n") and vb.mark()
    send(vb, b"ab\rcd\nefghij\rk\n")
    out = wait_line(vb, b"text", mark)
    assert b"raw b'ab\\rcd\\n'\r\ncut b'efgh'\r\ntext 'ij\\n'\r\n" in out, out


POLL = """import select, sys
p = select.poll()
p.register(sys.stdin.buffer, select.POLLIN)
print("empty", p.poll(0))
print("waiting")
print("woke", [e for _, e in p.poll(5000)])
print("byte", sys.stdin.buffer.read(1), "then", p.poll(0))
"""


def test_poll_says_readable_exactly_while_the_ring_holds_a_byte(make_board):
    # mp_hal_stdio_poll (ports/esp32/mphalport.c): POLLIN iff the ring is not empty
    vb = make_board(POLL)
    mark = vb.wait_output(b"waiting\r\n") and vb.mark()
    assert b"empty []" in vb.output()
    send(vb, b"x")
    out = wait_line(vb, b"byte", mark)
    assert b"woke [1]\r\nbyte b'x' then []" in out, out


LENT = """import io, os, select, sys

class Newline(io.IOBase):  # a dupterm stream that reads as a newline, and counts its reads
    asked = 0
    def readinto(self, buf):
        Newline.asked += 1
        buf[0] = 10
        return 1
    def write(self, buf):
        return len(buf)
    def ioctl(self, request, arg):
        return 0

print("reading")
p = select.poll()
p.register(sys.stdin.buffer, select.POLLIN)
p.poll()  # the first bytes are in the ring
os.dupterm(Newline())
line = sys.stdin.buffer.readline()
os.dupterm(None)
print("line", line, Newline.asked > 0)
"""


@pytest.mark.parametrize("release, line", [("1.27", b"line b'abcd\\n' False"), ("1.28", b"line b'ab\\n' True")])
def test_a_read_asks_dupterm_when_the_ring_is_empty_from_1_28(make_board, release, line):
    # mp_hal_stdin_rx_chr asks mp_os_dupterm_rx_chr once the ring is empty from v1.28.0
    # (commit a63cc639, ports/esp32/mphalport.c); up to v1.27.0 it waits on the ring alone
    vb = make_board(LENT, micropython_version=release)
    mark = vb.wait_output(b"reading\r\n") and vb.mark()
    send(vb, b"ab")
    time.sleep(0.3)
    send(vb, b"cd\n")
    assert line in wait_line(vb, b"line", mark)


LENT_POLL = """import io, os, select, sys

class Ready(io.IOBase):  # a dupterm stream that says it has input and gives none
    def readinto(self, buf):
        return None
    def write(self, buf):
        return len(buf)
    def ioctl(self, request, arg):
        return arg & select.POLLIN if request == 3 else 0

os.dupterm(Ready())
p = select.poll()
p.register(sys.stdin.buffer, select.POLLIN)
print("polled", p.poll(0))
os.dupterm(None)
"""


@pytest.mark.parametrize("release, polled", [("1.23", b"polled []"), ("1.24", b"polled [(")])
def test_a_poll_of_stdin_includes_dupterm_from_1_24(make_board, release, polled):
    # mp_hal_stdio_poll includes mp_os_dupterm_poll from v1.24.0 (ports/esp32/mphalport.c)
    vb = make_board(LENT_POLL, micropython_version=release)
    assert polled in wait_line(vb, b"polled")


ECHO = """import io, os

class Copy(io.IOBase):
    def __init__(self):
        self.got = bytearray()
    def readinto(self, buf):
        return None
    def write(self, buf):
        self.got += buf
        return len(buf)

copy = Copy()
os.dupterm(copy)
print("one")
os.dupterm(None)
print("copied", bytes(copy.got))
"""


def test_console_output_goes_to_a_dupterm_stream_too(make_board):
    # mp_hal_stdout_tx_strn (ports/esp32/mphalport.c) calls mp_os_dupterm_tx_strn: the
    # stream gets the output as the UART does, line ends cooked
    vb = make_board(ECHO)
    assert b"one\r\ncopied b'one\\r\\n'" in wait_line(vb, b"copied")


def test_dupterm_has_one_slot_on_the_esp32(make_board):
    # MICROPY_PY_OS_DUPTERM is 1 in ports/esp32/mpconfigport.h: index 1 is refused
    vb = make_board("import os\ntry:\n    os.dupterm(None, 1)\nexcept ValueError as e:\n    print('refused', e)\n")
    assert b"refused invalid dupterm index" in wait_line(vb, b"refused")


STALLED = """import select, sys, time
print("stalled")
time.sleep_ms(1500)  # busy: the line fills the ring meanwhile
p = select.poll()
p.register(sys.stdin.buffer, select.POLLIN)
got = bytearray()
while p.poll(0):
    got += sys.stdin.buffer.read(1)
print("read", len(got), got == bytes(%r[:len(got)]))
"""


@pytest.mark.parametrize("size", [uart.RING - 20, uart.RING, uart.RING + 100])
def test_the_ring_keeps_259_unread_bytes_and_counts_the_rest_lost(make_board, size):
    # ports/esp32/mphalport.c stdin_ringbuf_array[260], a ringbuf keeps one slot empty; the
    # UART interrupt drops what does not fit (ports/esp32/uart.c): the oldest bytes are kept
    data = bytes(65 + i % 26 for i in range(size))
    vb = make_board(STALLED % data)
    vb.wait_output(b"stalled\r\n")
    send(vb, data)
    out = wait_line(vb, b"read ")
    kept = min(size, uart.RING)
    assert b"read %d True" % kept in out, out
    assert vb.rx_overflow == size - kept
    assert SimApp(vb).status().endswith("MicroPython 1.28 · 259-byte receive ring · serial bytes lost: %d"
                                        % (size - kept))


BATCHES = """import select, sys
p = select.poll()
p.register(sys.stdin.buffer, select.POLLIN)
one = bytearray(1)
sizes, got = [], 0
print("reading")
while got < %d:
    p.poll()
    woke = 0
    while p.poll(0):  # all that waits, a byte at a time
        sys.stdin.buffer.readinto(one)
        woke += 1
    sizes.append(woke)
    got += woke
print("sizes", sizes)
"""


def test_input_arrives_in_the_uarts_batches(make_board):
    """As the ESP32's UART interrupt delivers it (ports/esp32/uart.c RXFIFO_FULL_THR,
    RXFIFO_RX_TIMEOUT): 120 bytes at a time while the line is busy, the rest when it falls
    silent, so a waiting board wakes once a batch."""
    vb = make_board(BATCHES % 1000)
    mark = vb.wait_output(b"reading\r\n") and vb.mark()
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        port.write(b"y" * 1000)
        text = vb.wait_output(b"]\r\n", timeout=30, since=mark)
    sizes = [int(n) for n in text[text.index(b"[") + 1:text.index(b"]")].split(b",")]
    assert sum(sizes) == 1000 and vb.rx_overflow == 0
    assert min(sizes[:-1]) >= uart.BATCH, sizes


def test_the_line_into_an_unpaced_board_runs_at_115200_baud(make_board):
    vb = make_board("import sys\nprint('reading')\nsys.stdin.buffer.read(1150)\nprint('done')\n")
    mark = vb.wait_output(b"reading\r\n") and vb.mark()
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        started = time.monotonic()
        port.write(b"z" * 1150)  # 0.1 s at 115200 baud 8N1
        vb.wait_output(b"done", since=mark)
        took = time.monotonic() - started
    assert took >= 1150 * 10 / uart.BAUD, took


def test_the_board_reports_the_release_picked_and_lacks_what_it_lacked(make_board):
    # sys.implementation.version is (major, minor, micro, prerelease) (py/modsys.c); the
    # vfs module came in v1.23.0
    program = ("import sys\nprint('version', sys.implementation.version)\n"
               "try:\n    import vfs\n    print('vfs')\nexcept ImportError:\n    print('no vfs')\n")
    assert b"version (1, 22, 0, '')\r\nno vfs\r\n" in wait_line(make_board(program, micropython_version="1.22"), b"vfs")
    assert b"version (1, 28, 0, '')\r\nvfs\r\n" in wait_line(make_board(program), b"vfs")


def test_an_unsupported_release_is_refused_in_one_line(capsys):
    with pytest.raises(ValueError, match="1.22, 1.23, 1.24, 1.25, 1.26, 1.27, 1.28"):
        VirtualBoard(micropython_version="1.29")
    assert main(["sim", "--headless", "--micropython-version", "1.21"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "croupier sim: MicroPython version must be one of 1.22" in err, err


def test_croupier_sim_runs_the_release_asked_for_and_says_what_it_lost():
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--micropython-version", "1.25"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        running = proc.stdout.readline()
        port = running.split("serial port ")[1].split(",")[0].split(" ")[0]
        with serial.Serial(port, 115200, timeout=1) as s:
            seen = b""
            deadline = time.monotonic() + 20
            while not seen.endswith(b">>> ") and time.monotonic() < deadline:
                s.write(b"\x03")  # whatever runs, the REPL
                seen += s.read(4096)
            s.write(b"import sys; sys.implementation.version\r\n")
            while b"(1, 25, 0, '')" not in seen and time.monotonic() < deadline:
                seen += s.read(256)
        assert b"(1, 25, 0, '')" in seen, seen
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert "virtual board stopped; serial bytes lost to a full receive ring: 0" in out, (out, err)


def request(command, rid):
    body = json.dumps({"cmd": command, "id": rid}, separators=(",", ":")).encode()
    return b"\n@" + body + b"|%08x\n" % (binascii.crc32(body) & 0xFFFFFFFF)


@pytest.mark.parametrize("release", [RELEASES[1], RELEASES[-1]])
def test_the_firmware_answers_hello_on_the_oldest_and_newest_release(tmp_path, release):
    """The firmware's own reading code against the console of the oldest and the newest
    supported release: a firmware whose read blocks at a request never answers."""
    with VirtualBoard(flash=tmp_path / "flash.img", micropython_version=release) as vb:
        vb.wait_boot(timeout=30)
        with serial.Serial(vb.port, 115200, timeout=0.2) as port:
            answer = b""
            deadline = time.monotonic() + 30
            port.write(request("hello", 1))
            while b'"id":1' not in answer and time.monotonic() < deadline:
                answer += port.read(4096)
        assert b'"id":1' in answer and b'"ok":true' in answer, answer[-400:]
        assert vb.rx_overflow == 0


def test_the_firmware_says_why_it_cannot_run_on_1_22(tmp_path):
    # the vfs module came in v1.23.0: the firmware checks sys.implementation.version at boot
    with VirtualBoard(flash=tmp_path / "flash.img", micropython_version=RELEASES[0]) as vb:
        vb.wait_boot(timeout=30)
        assert b"MicroPython 1.22" in vb.wait_output(b"too old", timeout=30)
