"""`croupier sim --headless`: a serial link for other tools, a clean end on SIGTERM/SIGINT."""
import contextlib
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from mpremote_run import mpremote
from croupier.sim import SimError, flash


def children_of(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_headless_link_serves_mpremote_and_stops_cleanly(tmp_path, stop):
    link = tmp_path / "tty"
    image = tmp_path / "flash.img"
    flash.create(image)  # an empty filesystem: this tests the board, not the firmware
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(link),
                             "--flash", str(image), "--heap", "96k", "--baud", "921600"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "virtual board running" in proc.stdout.readline()
        assert link.is_symlink() and os.readlink(link).startswith("/dev/pts/")
        interpreters = children_of(proc.pid)
        assert len(interpreters) == 1
        assert mpremote(link, "exec", "import gc; print(gc.mem_free() > 90000)").strip() == "True"
        proc.send_signal(stop)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert not link.exists() and not link.is_symlink()
    for pid in interpreters:
        deadline = time.monotonic() + 5
        while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not os.path.exists("/proc/%d" % pid), "interpreter %d left running" % pid


def test_bad_arguments_are_refused_clearly(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--heap", "lots"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "heap size must be like 64k" in proc.stderr


@pytest.mark.parametrize("kind", ["missing", "not a program"])
def test_an_interpreter_that_cannot_run_is_named(tmp_path, kind):
    interpreter = tmp_path / "micropython"
    if kind == "not a program":
        interpreter.write_bytes(b"\x00 not an executable\n")
        interpreter.chmod(0o755)
    env = dict(os.environ, MICROPYTHON=str(interpreter))
    proc = subprocess.run([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(tmp_path / "tty")],
                          capture_output=True, text=True, timeout=30, env=env)
    assert proc.returncode != 0
    expected = "no MicroPython unix port at" if kind == "missing" else "cannot run the MicroPython unix port at"
    assert "%s %s" % (expected, interpreter) in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_interpreter_that_cannot_run_is_named_after_a_board_ran_on_another(make_board, tmp_path, monkeypatch):
    make_board().close()
    broken = tmp_path / "micropython"
    broken.write_bytes(b"\x00 not an executable\n")
    broken.chmod(0o755)
    monkeypatch.setenv("MICROPYTHON", str(broken))
    with pytest.raises(SimError, match="cannot run the MicroPython unix port at " + re.escape(str(broken))):
        make_board()


@contextlib.contextmanager
def headless_sim(link, image, *options):
    """`croupier sim --headless --link link --flash image` running until the block ends (SIGTERM, exit 0)."""
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(link),
                             "--flash", str(image), "--heap", "96k"] + list(options),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "virtual board running" in proc.stdout.readline()
        yield proc
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_a_second_sim_leaves_a_running_sims_link_alone(tmp_path):
    link = tmp_path / "tty"
    image = tmp_path / "flash.img"
    flash.create(image)
    with headless_sim(link, image):
        port = os.readlink(link)
        second = subprocess.run([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(link),
                                 "--heap", "96k"], capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert "%s links to %s, a port still open" % (link, port) in second.stderr
        assert os.readlink(link) == port  # neither taken over nor removed on the way out
        assert mpremote(link, "exec", "print(6 * 7)").strip() == "42"  # still the first board's
    assert not link.is_symlink()


def test_a_second_board_on_a_running_boards_image_refuses_and_names_it(tmp_path):
    image = tmp_path / "board.img"
    flash.create(image)
    with headless_sim(tmp_path / "tty", image) as first:
        second = subprocess.run([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--flash", str(image),
                                 "--heap", "96k"], capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        lines = second.stderr.splitlines()
        assert len(lines) == 1, second.stderr
        assert "flash image %s is in use by another virtual board (pid %d: croupier sim --headless" % (
            image, first.pid) in lines[0]
        assert mpremote(tmp_path / "tty", "exec", "print(6 * 7)").strip() == "42"  # the first runs on
    with headless_sim(tmp_path / "tty", image):  # stopped, it let the image go
        pass


def test_a_headless_board_on_its_temporary_image_says_what_stopping_lost(tmp_path):
    from croupier.link import Link, open_serial

    link = tmp_path / "tty"
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(link)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "(temporary: deleted when the board stops)" in proc.stdout.readline()
        port = open_serial(str(link))
        try:
            board = Link(port, timeout=5.0)
            board.hello(within=20)
            board.call("new", game="basta", players=["Ann", "Bob"])
            board.call("play", card="12")
        finally:
            port.close()
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert proc.returncode == 0
    assert ("virtual board stopping: its temporary flash image held 2 journal records no database has "
            "acknowledged and an unfinished basta game of Ann, Bob, now lost; next time, to keep them, sync "
            "first (`croupier sync --port ") in out
    assert "`croupier sim --flash FILE`" in out


def test_a_board_removes_only_its_own_link(make_board, tmp_path):
    link = tmp_path / "tty"
    link.symlink_to("/dev/no-such-pty")  # left by a board that died: taken over
    board = make_board(link=link)
    assert os.readlink(link) == board.port
    link.unlink()
    link.symlink_to(tmp_path)  # another program's link put there meanwhile
    board.close()
    assert os.readlink(link) == str(tmp_path)


@pytest.mark.parametrize("fitted", [True, False])
def test_rtc_fits_the_clock_module_on_the_i2c_bus(tmp_path, fitted):
    link, image = tmp_path / "tty", tmp_path / "flash.img"
    flash.create(image)
    with headless_sim(link, image, *(["--rtc"] if fitted else [])):
        scan = mpremote(link, "exec", "from machine import I2C, Pin; print(I2C(0, scl=Pin(22), sda=Pin(21)).scan())")
        assert scan.strip() == ("[60, 104]" if fitted else "[60]")
