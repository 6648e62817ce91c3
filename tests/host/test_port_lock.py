"""One command at a time on a serial port: a second one is refused at once, in one line that
names the holder, and the first goes on unharmed; `croupier ports` says who holds what."""
import os
import re
import signal
import subprocess
import sys

import pytest
import serial

from croupier.cli import main
from croupier.link import LinkError, connect, open_serial
from croupier.port_registry import name_process
from croupier.sim import VirtualBoard

BUSY = "port busy: %s, pid %d has %s open; try again when it ends"


@pytest.fixture(autouse=True)
def runtime(tmp_path, monkeypatch):
    """A runtime folder of the test's own (the commands it starts see it too), and this
    process called "croupier mirror" in its locks."""
    folder = tmp_path / "run"
    folder.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("COLUMNS", "400")  # `croupier ports` rows on one line each
    name_process("croupier mirror")
    yield folder
    name_process(None)


def croupier(*args):
    return subprocess.run([sys.executable, "-m", "croupier.cli", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)


def test_sync_beside_an_open_link_is_refused_and_the_link_goes_on(tmp_path):
    db = tmp_path / "games.sqlite3"
    with VirtualBoard(link=tmp_path / "tty") as vb:
        with connect(str(tmp_path / "tty")) as link:  # held through the symlink, refused on the pty itself
            link.call("new", game="lobo77", players=["Ann", "Bob"])
            link.call("play", card="7")
            done = croupier("sync", "--port", vb.port, "--db", str(db))
            assert (done.returncode, done.stdout) == (1, "")
            assert done.stderr == "croupier sync: %s\n" % (BUSY % ("croupier mirror", os.getpid(), vb.port))
            assert not db.exists()  # refused before anything was made
            link.call("play", card="5")
            assert link.call("state")["state"]["total"] == 12
        done = croupier("sync", "--port", vb.port, "--db", str(db))
        assert done.returncode == 0, done.stderr
        assert "3 records pulled" in done.stdout


def test_a_piped_console_plays_on_while_a_sync_beside_it_is_refused(vboard, tmp_path):
    console = subprocess.Popen([sys.executable, "-m", "croupier.cli", "console", "--port", vboard.port],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        console.stdin.write("new lobo77 Ann Bob\n")
        console.stdin.flush()
        assert "total 0" in console.stdout.readline()
        done = croupier("sync", "--port", vboard.port, "--db", str(tmp_path / "games.sqlite3"))
        assert (done.returncode, done.stderr) == (1, "croupier sync: %s\n" % (BUSY % ("croupier console", console.pid,
                                                                                        vboard.port)))
        out, err = console.communicate("play 9\nplay 8\n", timeout=60)
    finally:
        console.kill()
    assert (console.returncode, err) == (0, "")
    assert [line.split(" · ")[1] for line in out.splitlines()] == ["total 9", "total 17"]


def test_a_port_another_program_holds_is_refused_by_name(vboard):
    with serial.Serial(vboard.port, exclusive=True):  # as mpremote and esptool open it
        done = croupier("roster", "--port", vboard.port, "Ann")
    assert done.returncode == 1
    assert done.stderr == ("croupier roster: port busy: another program has %s open (mpremote, esptool, a serial "
                           "terminal?)\n" % vboard.port)


def test_a_lock_left_by_a_killed_command_holds_nothing(vboard, runtime, capsys):
    holder = subprocess.Popen([sys.executable, "-c", "from croupier.link import open_serial\n"
                               "from croupier.port_registry import name_process\n"
                               "name_process('croupier console')\n"
                               "port = open_serial(%r)\nprint('open', flush=True)\ninput()" % vboard.port],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "open\n"
    with pytest.raises(LinkError, match=re.escape(BUSY % ("croupier console", holder.pid, vboard.port))):
        open_serial(vboard.port)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert list((runtime / "croupier").glob("port-*.lock"))  # left behind ...
    assert main(["ports"]) == 0
    assert "pid %d" % holder.pid not in capsys.readouterr().out  # ... and held by nobody
    with connect(vboard.port) as link:
        assert link.call("state")["ok"] is True
    assert not list((runtime / "croupier").glob("port-*.lock"))  # gone with its new holder


def test_ports_lists_the_virtual_boards_running_and_who_holds_each(tmp_path, capsys):
    tty = tmp_path / "tty"
    sim = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(tty)],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    try:
        line = sim.stdout.readline()
        assert line.startswith("virtual board running: serial port "), line
        port = line.split()[5]
        with connect(str(tty)):
            assert main(["ports"]) == 0
            out = capsys.readouterr().out
            row = next(line for line in out.splitlines() if line.split()[:1] == [port])
            assert row.split()[1] == str(tty)
            assert "croupier sim, pid %d" % sim.pid in row and "croupier mirror, pid %d" % os.getpid() in row
        assert main(["ports"]) == 0
        row = next(line for line in capsys.readouterr().out.splitlines() if line.split()[:1] == [port])
        assert "croupier mirror" not in row and row.rstrip().endswith("-")
    finally:
        sim.terminate()
        sim.wait(30)
    assert main(["ports"]) == 0
    assert port not in capsys.readouterr().out


def test_flash_refuses_a_held_port(vboard):
    """`flash` holds the port through mpremote's and esptool's turns: it refuses a held one."""
    with connect(vboard.port) as link:
        done = croupier("flash", "--port", vboard.port)
        assert (done.returncode, done.stderr) == (1, "croupier flash: %s\n" % (BUSY % ("croupier mirror", os.getpid(),
                                                                                        vboard.port)))
        assert link.call("state")["ok"] is True
