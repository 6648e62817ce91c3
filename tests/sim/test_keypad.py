"""The keypad is electrical: a matrix scan on the board sees exactly the pressed keys."""
import os
import re
import time

import pytest

from croupier.sim import SimError
SCANNER = """
import sys, time, micropython
from machine import Pin
rows = [Pin(n, Pin.OUT, value=1) for n in (32, 33, 25, 26)]
cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (27, 14, 4, 18)]
labels = "123A456B789C*0#D"
found = bytearray(16)

def scan():
    for r in range(4):
        rows[r].value(0)
        for c in range(4):
            found[r * 4 + c] = cols[c].value() == 0
        rows[r].value(1)

micropython.heap_lock()  # scanning must not allocate
scan()
micropython.heap_unlock()
print("ready")
while True:
    line = sys.stdin.readline()
    scan()
    print("keys:" + "".join(labels[i] for i in range(16) if found[i]) + ".")
"""


def scan(board, port):
    mark = board.mark()
    port.write(b"\n")
    text = board.wait_output(b".\r\n", since=mark)
    return text[text.index(b"keys:") + 5:text.index(b".\r\n")].decode()


def test_scan_sees_exactly_the_pressed_keys(make_board):
    import serial

    board = make_board(main=SCANNER)
    board.wait_output(b"ready")
    with serial.Serial(board.port, timeout=5) as port:
        assert scan(board, port) == ""
        board.key_down("5")
        assert scan(board, port) == "5"
        board.key_down("#")
        board.key_down("A")
        assert scan(board, port) == "A5#"  # several at once, in scan order (row by row)
        board.key_up("5")
        board.key_up("A")
        assert scan(board, port) == "#"
        board.key_up("#")
        for key in ("1", "4", "2"):  # three corners of a rectangle: the fourth ghosts, as on real hardware
            board.key_down(key)
        assert scan(board, port) == "1245"
        board.key_up("1")
        board.key_up("4")
        board.key_up("2")
        board.key_down("ok")  # logical names work too
        assert scan(board, port) == "#"


def test_unknown_key_is_refused(make_board):
    import pytest

    board = make_board(start=False)
    with pytest.raises(ValueError, match="no key"):
        board.key_down("E")


LOCKED_SCANS = SCANNER.split("micropython.heap_lock()")[0] + """
down = up = n = 0
print("scanning")
micropython.heap_lock()  # key changes arriving mid-scan must not allocate either
while not up and n < 10000:  # until key 5 went down and up again (at most ~20 s)
    scan()
    if found[5]:
        down = 1
    elif down:
        up = 1
    time.sleep_ms(2)
    n += 1
micropython.heap_unlock()
print("seen", down + up == 2)
"""


def test_scanning_allocates_nothing_while_keys_change(make_board):
    board = make_board(main=LOCKED_SCANS)
    mark = board.mark()
    board.wait_output(b"scanning")
    for _ in range(50):  # a loaded machine may let a short press go by between two scans
        board.press("5", ms=60, gap=60)
        if b"seen " in board.output(mark):
            break
    assert b"seen True" in board.wait_output(b"seen ", since=mark)


def test_a_board_that_stops_scanning_fails_key_presses_instead_of_hanging(make_board):
    board = make_board(main="print('spinning')\nwhile True:\n    pass\n")
    board.wait_output(b"spinning")
    started = time.monotonic()
    with pytest.raises(SimError, match="has not read its keypad"):
        for _ in range(200000):  # fills the side channel: the board never reads it
            board.key_down("1")
            board.key_up("1")
    assert time.monotonic() - started < 60


SCANNING_EDGES = """
import select, sys, time, machine
from machine import Pin
rows = [Pin(n, Pin.OPEN_DRAIN, value=0) for n in (32, 33, 25, 26)]
cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (27, 14, 4, 18)]
edges = []

def edge(pin):
    for _ in range(12):  # a whole scan's column reads: each takes key changes in
        pin.value()
    edges.append(RECORD)

cols[0].irq(edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)
print("armed")
"""


def scanning_edges(record, then):
    """A board whose column 0 interrupt's handler reads as a whole scan of the firmware's
    does and then appends `record` (an expression) to `edges`, running `then` after."""
    return SCANNING_EDGES.replace("RECORD", record) + then


READING_THE_CONSOLE = scanning_edges("print('edge') or pin.value()", """
sys.stdin.buffer.read(1)  # the board waits for serial input and touches no pin
print("edges %s." % edges)
""")


def test_a_board_waiting_for_its_console_still_gets_its_pin_interrupts(make_board):
    """A chip waiting in a console read runs the pending callbacks at each turn of its
    loop (ports/esp32/mphalport.c mp_hal_stdin_rx_chr, MICROPY_EVENT_POLL_HOOK): the
    board's wait takes key changes in, and the pin interrupts' handlers run in it."""
    board = make_board(main=READING_THE_CONSOLE)
    board.wait_output(b"armed")
    board.press("1", ms=100)
    board.wait_output(b"edge\r\nedge\r\n")  # both edges' handlers ran, in the wait
    port = os.open(board.port, os.O_WRONLY | os.O_NOCTTY)
    try:
        os.write(port, b"x")
    finally:
        os.close(port)
    text = board.wait_output(b"].\r\n", timeout=10)
    assert text[text.rindex(b"edges "):].startswith(b"edges [0, 1]")


READ_FIRST = """
import select, sys, time
from machine import Pin
rows = [Pin(n, Pin.OPEN_DRAIN, value=0) for n in (32, 33, 25, 26)]
cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (27, 14, 4, 18)]
waiting = select.poll()
waiting.register(sys.stdin.buffer, select.POLLIN)
left = []

def edge(pin):
    left.append(waiting.poll(0))  # what the read has not taken

cols[0].irq(edge, Pin.IRQ_FALLING)
print("armed")
time.sleep_ms(1500)  # busy: a key goes down and a line arrives meanwhile
got = sys.stdin.buffer.readline()
time.sleep_ms(10)
print("got %r left %r." % (got, left))
"""


def test_a_console_read_takes_its_bytes_before_a_key_changes_handlers_run(make_board):
    """On a chip a console read is C: the pin interrupts of a key change that came
    meanwhile run after it. Here the read takes key changes in once its bytes are taken,
    and their handlers run at the next pending check."""
    board = make_board(main=READ_FIRST)
    board.wait_output(b"armed")
    board.key_down("1")
    port = os.open(board.port, os.O_WRONLY | os.O_NOCTTY)
    try:
        os.write(port, b"ping\n")
    finally:
        os.close(port)
    text = board.wait_output(b".\r\n", timeout=10)
    board.key_up("1")
    assert b"got b'ping\\n' left [[]]." in text, text


TAPS = 40
BURST = scanning_edges("pin.value()", """
time.sleep_ms(3000)  # busy: the burst arrives all at once
start = time.ticks_ms()
while len(edges) < %d and time.ticks_diff(time.ticks_ms(), start) < 15000:  # each tap's two
    machine.idle()
print("seen %%s." %% "".join(str(level) for level in edges))
""" % (2 * TAPS))


def test_a_burst_of_key_changes_is_shown_in_the_order_it_came(make_board):
    """TAPS taps reach a busy board at once; the interrupt handlers their changes schedule
    read pins, inside the emulation taking the changes in: each change is still shown
    once, in order, so the handlers see the key go down and up each time and end up."""
    board = make_board(main=BURST)
    board.wait_output(b"armed")
    for _ in range(TAPS):
        board.press("1", ms=30, gap=30)
    text = board.wait_output(b".\r\n", timeout=40)
    seen = re.search(rb"seen ([01]*)\.\r\n", text).group(1).decode()  # not the REPL banner's line after it
    assert seen.endswith("1")
    assert seen.count("01") >= TAPS - 1, seen
