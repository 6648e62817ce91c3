"""`croupier roster` with more names than one request holds: the board ends with all of them,
in order, sent as `roster` then `roster` with `add`."""
import contextlib

from croupier.cli import main
from croupier.link import Link
from fakeboard import FakeBoard, roster_handlers

NAMES16 = ["Player%02d-abcdefg" % i for i in range(16)]  # 16 names of 16 characters


def test_sixteen_long_names_reach_the_board_in_order(monkeypatch, capsys):
    handlers, roster = roster_handlers()
    board = FakeBoard(handlers=handlers)

    @contextlib.contextmanager
    def connect(port_arg):
        link = Link(board, timeout=0.5)
        link.hello()
        yield link

    monkeypatch.setattr("croupier.commands.roster.connect_board", connect)
    assert main(["roster", "--port", "/dev/fake", "--no-voice"] + NAMES16) == 0
    assert roster == NAMES16
    sent = [r for r in board.requests if r["cmd"] == "roster"]
    assert len(sent) >= 2 and "add" not in sent[0] and all(r.get("add") is True for r in sent[1:])
    assert "roster on the board: %s" % ", ".join(NAMES16) in capsys.readouterr().out
