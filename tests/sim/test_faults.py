"""Serial line faults: drop, corrupt (seeded, replayable) and a baud-rate limit."""
import pytest
import serial

from croupier.sim.line import Line


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
    line = Line(slack=1.0)
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
    line = Line(slack=0.05)
    line.configure(baud=1000)
    line.push(b"x" * 50)
    assert line.take(10.0) == b"x"
    assert len(line.take(10.5)) == 6  # begun at 10.45, 10.46 ... 10.50
    assert line.wait(10.5) == pytest.approx(0.01)  # and on at line rate from there


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
