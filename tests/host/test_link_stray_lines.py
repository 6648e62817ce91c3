"""On the virtual board: a partial line left by noise never swallows the host's next request.

The board reads a request up to its newline. When the line drops a newline, whatever comes
next joins the garbage line and is discarded with it, unless the host ends the stray line
first: before its first request, and after any timeout.
"""
import time

import pytest

from croupier.link import Link, LinkTimeout, open_serial
from croupier.sim.line import Line

DROP = 0.2  # per byte, on the line to the board
NOISE = b'@{"cmd":"state","id":99}|00000000\n'  # a line that reaches the board cut short


def seed_losing_the_newline():
    """A seed for which the faulty line delivers NOISE's `@` but not its newline: what the
    board's line (seeded the same way) will do with it."""
    for seed in range(1000):
        line = Line()
        line.configure(drop=DROP, seed=seed)
        line.push(NOISE)
        got = line.take(0.0)
        if got.startswith(b"@") and not got.endswith(b"\n"):
            return seed
    raise AssertionError("no seed in 1000 drops the newline alone")


def through_faults(vboard, write, **faults):
    """Run write() -> bytes it wrote, with the line to the board faulty; the faults end once
    the board's side of the port has taken all those bytes."""
    start = vboard.received
    vboard.faults(direction="to_board", **faults)
    try:
        count = write()
        deadline = time.monotonic() + 10
        while vboard.received < start + count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert vboard.received == start + count
    finally:
        vboard.faults()


def write_noise(vboard, port):
    def write():
        port.write(NOISE)
        port.flush()
        return len(NOISE)
    through_faults(vboard, write, drop=DROP, seed=seed_losing_the_newline())


def test_a_new_links_first_request_survives_a_stray_line(vboard):
    with open_serial(vboard.port) as port:
        Link(port).hello(within=15)  # booted
        write_noise(vboard, port)
        fresh = Link(port, timeout=2)  # another program takes the port
        assert fresh.call("state", retries=0)["ok"] is True


def test_the_request_after_a_timeout_survives_a_stray_line(vboard):
    with open_serial(vboard.port) as port:
        sent = []
        link = Link(port, timeout=2, transcript=lambda way, data: sent.append(len(data)) if way == "tx" else None)
        link.hello(within=15)
        write_noise(vboard, port)

        def lost_request():  # the line drops it whole: the stray line is still there after it
            before = sum(sent)
            with pytest.raises(LinkTimeout):
                link.call("state", retries=0, timeout=0.5)
            return sum(sent) - before
        through_faults(vboard, lost_request, drop=1.0)
        assert link.call("state", retries=0)["ok"] is True
