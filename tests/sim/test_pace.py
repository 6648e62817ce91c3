"""`--pace`: what a user is told (croupier.sim.pace). Whether the firmware works at pace is
tests/firmware/test_at_pace.py; how fast it is, tests/bench."""
import os
import re
import subprocess
import sys

import pytest
import serial

from croupier.cli import main
from croupier.sim import SimError, VirtualBoard, pace, pystone
from croupier.tui.sim import SimApp

IDLE = "import time\nwhile True:\n    time.sleep(1)\n"


def test_unknown_pace_is_refused():
    with pytest.raises(ValueError, match="pace must be one of none, esp32"):
        VirtualBoard(pace="esp8266")


def test_the_status_line_says_the_pace_and_when_the_pacer_is_not_real_time(make_board):
    vb = make_board(IDLE, pace="esp32")
    vb.throttle.realtime = True
    assert "pace esp32" in SimApp(vb).status() and "not real-time" not in SimApp(vb).status()
    vb.throttle.realtime = False  # as when the host refuses it real-time priority
    assert pace.NOT_REALTIME in SimApp(vb).status()


def test_calibrate_prints_the_score_and_the_factor(capsys):
    assert main(["sim", "--pace", "esp32", "--calibrate"]) == 0
    out = capsys.readouterr().out
    found = re.match(r"(\d+) pystones/s at --pace esp32 \(the throttle's factor: (\d+);", out)
    assert found and int(found.group(1)) > 0 and int(found.group(2)) > 0, out


def test_calibrate_wants_a_paced_board(capsys):
    assert main(["sim", "--calibrate", "--pace", "none"]) == 2
    assert "--calibrate measures a paced board" in capsys.readouterr().err


FILLER = """import sys
print("ready")
sys.stdin.buffer.read(1)
chain, kb = None, 0
while True:  # a chain of 2 KB blocks, until the heap is full
    try:
        chain = (chain, bytearray(2048))
    except MemoryError:
        break
    kb += 2
print("filled", kb)
"""


def test_a_programs_heap_was_touched_before_it_ran(make_board):
    """The host maps a new process's pages at their first write, tens of µs of the board's
    CPU time a page, which a paced board would charge to the chip: the board writes its
    whole heap before the pace starts, so a program that fills it takes no page faults."""
    def page_faults():  # minflt, field 10 of /proc/<pid>/stat
        return int(open("/proc/%d/stat" % vb._proc.pid).read().rsplit(")", 1)[1].split()[7])

    vb = make_board(FILLER)
    vb.wait_output(b"ready\r\n", timeout=30)
    before = page_faults()
    with serial.Serial(vb.port, 115200, timeout=1) as port:
        port.write(b"x")
        vb.wait_output(b"filled", timeout=30)
    kb = int(vb.wait_output(b"\r\n", timeout=30, since=vb.output().index(b"filled")).split()[1])
    assert kb * 1024 >= vb.heap * 3 // 4, "it filled most of the firmware's heap (%d KB)" % (vb.heap // 1024)
    assert page_faults() - before <= 4, page_faults() - before


@pytest.fixture
def no_pystone(tmp_path, monkeypatch):
    """No copy of pystone in the cache, and no index to fetch it from."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # this machine's own extra indexes too
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_RETRIES", "0")
    return tmp_path


def test_pystone_without_a_copy_or_an_index_says_so(no_pystone):
    # pystone is fetched once: with no copy and no index it is refused, clearly
    tmp_path = no_pystone
    with pytest.raises(SimError, match="calibrated with pystone, fetched once from the package index"):
        pystone.source()  # what the factor and --calibrate run first
    assert not (tmp_path / "sim" / pystone.MODULE).exists()


def test_a_paced_board_starts_offline_and_calibrating_there_says_why_in_one_line(no_pystone):
    """The throttle's factor is fixed: only --calibrate needs pystone from the index."""
    tmp_path = no_pystone
    done = subprocess.run([sys.executable, "-m", "croupier.cli", "sim", "--pace", "esp32", "--calibrate"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("croupier sim: the chip's factor is calibrated with pystone"), done.stderr
    with VirtualBoard(pace="esp32", firmware=False) as vb:
        vb.wait_boot(timeout=60)
        assert vb.throttle is not None
    assert not (tmp_path / "sim" / pystone.MODULE).exists()
