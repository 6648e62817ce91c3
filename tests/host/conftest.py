"""Fixtures for the host tests (record builders live in journal_records.py)."""
import os
import time

import pytest

from journal_records import fill_database


@pytest.fixture
def db(tmp_path):
    """A database holding a finished Lobo 77, a finished BASTA and an unfinished Lobo 77 game."""
    return fill_database(tmp_path / "games.sqlite3")


@pytest.fixture
def store(tmp_path):
    from croupier.store import Store

    with Store(tmp_path / "test.sqlite3") as s:
        yield s


@pytest.fixture
def vboard():
    """A fresh virtual board: the real firmware on MicroPython's unix port, behind a pty."""
    from croupier.sim import VirtualBoard

    with VirtualBoard() as vb:
        yield vb


@pytest.fixture
def utc(monkeypatch):
    """Local time is UTC while the test runs: dates shown in tables are then fixed."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def wire():
    """(Link on a pty, function writing device bytes, function reading what the host sent,
    the link's transcript). The link has had its opening hello answered: its requests are
    numbered from 100."""
    from croupier.link import Link, encode_frame, open_serial
    from fakeboard import HELLO

    master, slave = os.openpty()
    port = open_serial(os.ttyname(slave))
    os.set_blocking(master, False)
    sent = []
    link = Link(port, transcript=lambda d, b: sent.append((d, b)), timeout=0.5)

    def host_bytes():
        time.sleep(0.05)
        try:
            return os.read(master, 65536)
        except BlockingIOError:
            return b""

    os.write(master, encode_frame(dict(HELLO, id=1, ok=True)))
    link.hello()
    host_bytes()
    sent.clear()
    yield link, lambda data: os.write(master, data), host_bytes, sent
    port.close()
    os.close(master)
    os.close(slave)
