"""The virtual board at the ESP32's pace (croupier.sim.pace): the CPU budget calibrated by
pystone, the serial line at 115200 baud into a 388-byte receive buffer, the overflow count."""
import time

import pytest
import serial

from croupier.cli import main
from croupier.sim import VirtualBoard, pace, pystone
from croupier.sim.pace import ESP32
from croupier.sim.ui import SimApp

IDLE = "import time\nwhile True:\n    time.sleep(1)\n"  # never reads its serial input
READER = """import sys
want, got, buf = %d, 0, bytearray(256)
print("reading")
while got < want:
    got += sys.stdin.buffer.readinto(memoryview(buf)[:min(256, want - got)])
print("got", got)
"""


def test_pystone_on_a_paced_board_scores_as_an_esp32():
    runs = [pystone.run_on_board("esp32") for _ in range(3)]
    # beyond its budget by at most what it banked before the run and one overrun of a slice
    # (the controller waits for the GIL to stop it: up to Python's 5 ms switch interval)
    slack_ns = pace.SLICES_BANKED * pace.PERIOD * 1e9 / ESP32.factor + 5e6
    for run in runs:
        assert run["over_budget_ns"] <= slack_ns, "the board had more CPU time than its budget: %r" % (run,)
    # the chip's range, 1,075-1,661 reported for an ESP32 at 240 MHz: a busy host only slows
    # the board (its resumed slices get less done), so the best of three reaches the range,
    # and the middle one is no faster than the chip
    scores = sorted(run["pystones"] for run in runs)
    assert scores[2] >= 1075 and scores[1] <= 1661, runs


def test_bytes_beyond_the_receive_buffer_are_lost_and_counted(make_board):
    vb = make_board(IDLE, pace="esp32")
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        port.write(bytes(range(65, 91)) * 40)  # 1,040 bytes, no Ctrl-C among them
        seconds = 1040 * 10 / ESP32.baud
        deadline = time.monotonic() + seconds + 5
        while vb.rx_overflow < 1040 - ESP32.rx_buffer and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # nothing more is lost once the line is quiet
    assert vb.rx_overflow == 1040 - 388
    assert "pace esp32" in SimApp(vb).status() and "serial bytes lost: 652" in SimApp(vb).status()


def test_a_board_that_keeps_reading_loses_nothing_at_line_rate(make_board):
    vb = make_board(READER % 3000, pace="esp32")
    mark = vb.wait_output(b"reading\r\n", timeout=30) and vb.mark()
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        started = time.monotonic()
        port.write(b"x" * 3000)
        vb.wait_output(b"got 3000", timeout=30, since=mark)
        took = time.monotonic() - started
    assert vb.rx_overflow == 0
    assert took >= 3000 * 10 / ESP32.baud, "the line carried more than 115200 baud"


def test_a_full_speed_board_has_no_small_buffer(make_board):
    vb = make_board(IDLE)
    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        port.write(b"y" * 2000)
        time.sleep(0.5)
    assert vb.pace is None and vb.rx_overflow == 0


def test_unknown_pace_is_refused():
    with pytest.raises(ValueError, match="pace must be one of none, esp32"):
        VirtualBoard(pace="esp8266")


def test_calibrate_wants_a_paced_board(capsys):
    assert main(["sim", "--calibrate", "--pace", "none"]) == 2
    assert "--calibrate measures a paced board" in capsys.readouterr().err
