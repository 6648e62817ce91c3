"""Serial line faults: drop, corrupt (seeded, replayable) and a baud-rate limit."""
import pytest
import serial

from croupier.sim.line import Early, Line, Outbox


def test_line_without_faults_passes_everything_at_once():
    line = Line()
    line.push(b"hello")
    assert line.take(0.0) == b"hello" and line.wait(0.0) is None


def test_drop_and_corrupt_are_seeded_and_counted():
    data = bytes(range(256)) * 8
    first, second = Line(never_forge=b"\x03"), Line(never_forge=b"\x03")
    for line in (first, second):
        line.configure(drop=0.1, corrupt=0.1, seed=42)
        line.push(data)
    out = first.take(0.0)
    assert out == second.take(0.0)  # the same seed replays the same faults
    assert len(out) == len(data) - first.dropped
    assert 100 < first.dropped < 310 and 100 < first.corrupted < 310
    clean = Line()
    clean.configure(drop=0.1, seed=42)
    clean.push(b"\x01" * 5000)
    assert set(clean.take(0.0)) == {1}  # dropping alone never alters a byte


def test_corruption_never_forges_the_interrupt_character():
    line = Line(never_forge=b"\x03")
    line.configure(corrupt=1.0, seed=1)
    line.push(b"\x02\x01\x07" * 2000)
    out = line.take(0.0)
    assert 3 not in out and len(out) == 6000 and line.corrupted == 6000


def test_baud_rate_paces_bytes_at_ten_bits_each():
    line = Line(slack=(1.0,))
    line.configure(baud=1000)  # 100 bytes per second
    line.push(b"x" * 50)
    assert line.take(10.0) == b"x"  # the first byte goes at once
    assert line.wait(10.0) == pytest.approx(0.01)
    assert len(line.take(10.1)) == 10
    assert len(line.take(11.0)) == 39 and line.wait(11.0) is None
    line.push(b"y")
    assert line.take(50.0) == b"y"  # an idle line does not bank time: no burst later
    line.push(b"z" * 3)
    assert line.take(50.0) == b""


def test_a_late_taker_finds_that_the_line_paused():
    """A relay that comes to the line late (a busy host) gets the bytes begun within the
    slack, not a burst no receiver on a real line could have met."""
    line = Line(slack=(0.05,))
    line.configure(baud=1000)
    line.push(b"x" * 50)
    assert line.take(10.0) == b"x"
    assert len(line.take(10.5)) == 6  # begun at 10.45, 10.46 ... 10.50
    assert line.wait(10.5) == pytest.approx(0.01)  # and on at line rate from there


def test_a_line_with_two_clocks_is_no_faster_by_either():
    """The line into a paced board keeps the host's clock and the chip's: while the chip's
    stands still (the host keeps the board from running) nothing crosses; when it runs ahead,
    the host's still holds the line to its baud rate."""
    line = Line(slack=(0.05, 0.06))
    line.configure(baud=1000)
    line.push(b"x" * 50)
    assert line.take(10.0, 20.0) == b"x"
    assert line.take(10.03, 20.0) == b""  # the chip's clock stood still
    assert len(line.take(10.03, 20.5)) == 3  # it ran ahead: 3 bytes begun by the host's
    assert len(line.take(10.06, 20.5)) == 3
    assert len(line.take(10.2, 20.505)) == 1  # the chip's clock is the one behind now


def test_a_line_with_a_lead_gives_bytes_that_long_before_they_are_due():
    """A paced board runs a period's work in one burst: the line into it gives each byte a
    period early, so the burst can read the bytes due in it; Early tells which are due."""
    line = Line(slack=(0.05,), lead=0.1)
    line.configure(baud=1000)
    line.push(b"x" * 50)
    assert len(line.take(10.0)) == 11  # the first byte is due at once, then 10 within 0.1 s
    assert line.began == [10.0]
    assert line.take(10.0) == b"" and line.wait(10.0) == pytest.approx(0.01)
    assert len(line.take(10.05)) == 5  # one period ahead, still at line rate
    assert line.began == [10.11]
    early = Early()
    early.add(10.01, 11, 0.01)  # each byte due once its 10 ms have passed
    early.add(10.12, 5, 0.01)
    assert early.not_due(10.0) == 16 and early.not_due(10.055) == 11
    assert early.not_due(10.11) == 5 and early.pending()
    assert early.not_due(10.16) == 0 and not early.pending()  # all due: forgotten


def test_a_board_ahead_of_the_host_sends_its_output_when_its_clock_wrote_it():
    """A paced board runs a period's work in a burst, its clock ahead of the host's: what it
    writes leaves it at the chip's time, in order, so a host's answer cannot reach the chip
    before the chip sent what it answers."""
    outbox = Outbox()
    assert outbox.put(b"boot", 9.99, 10.0) == b"boot" and not outbox.pending()  # not ahead
    assert outbox.put(b"reply", 10.03, 10.0) == b""  # 30 ms ahead
    assert outbox.put(b"+event", 10.0, 10.01) == b""  # written later: leaves after the reply
    assert outbox.wait(10.01) == pytest.approx(0.02)
    assert outbox.due(10.02) == b""
    assert outbox.due(10.03) == b"reply+event" and not outbox.pending()
    assert outbox.wait(10.03) is None


def test_bad_fault_settings_are_refused():
    line = Line()
    for kwargs in ({"drop": 1.5}, {"corrupt": -0.1}, {"baud": 0}):
        with pytest.raises(ValueError):
            line.configure(**kwargs)


def test_faults_apply_on_the_relay_not_on_the_board(make_board):
    board = make_board(main="import time\ntime.sleep_ms(300)\nprint('x' * 400)")
    board.faults(corrupt=1.0, seed=5, direction="to_host")
    with serial.Serial(board.port, timeout=5) as port:
        got = port.read(400 + 2)
    assert board.wait_output(b"x" * 400)  # what the board printed
    assert len(got) == 402 and b"x" not in got  # what the host received: every byte garbled
    with pytest.raises(ValueError):
        board.faults(direction="sideways")


def test_a_flood_the_board_does_not_read_stalls_nothing(make_board):
    board = make_board(main="import time\nfor i in range(15):\n    print('tick', i)\n    time.sleep_ms(20)")
    with serial.Serial(board.port, timeout=5, write_timeout=10) as port:
        port.write(b"#" * 300_000)  # the supervisor keeps draining the port; the board's buffer overflows
        assert b"tick 14" in board.wait_output(b"tick 14")
