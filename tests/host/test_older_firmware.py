"""A board whose firmware is older than this croupier: the commands still work, and say once
that `croupier flash` updates it."""
import pytest

import croupier.link
from croupier import __version__
from croupier.cli import main
from fakeboard import FakeBoard, roster_handlers

WARNING = ("warning: the board runs Croupier firmware %s, older than this croupier (%s): `croupier flash --port "
           "/dev/ttyUSB0` updates it (the journal stays)\n")
MAJOR, MINOR, PATCH = (int(part) for part in __version__.split(".")[:3])


def older():
    """The release just before this croupier's."""
    if PATCH:
        return "%d.%d.%d" % (MAJOR, MINOR, PATCH - 1)
    return "%d.%d.99" % (MAJOR, MINOR - 1) if MINOR else "%d.99.0" % (MAJOR - 1)


@pytest.mark.parametrize("fw,warned", [(older(), True), (older() + "-dev", True), (__version__, False),
                                       ("%d.%d.0" % (MAJOR, MINOR + 1), False), ("?", False)])
def test_a_command_warns_once_of_a_board_older_than_itself(fw, warned, monkeypatch, capsys):
    handlers, roster = roster_handlers()
    board = FakeBoard(hello={"fw": fw}, handlers=handlers)
    monkeypatch.setattr(croupier.link, "open_serial", lambda port: board)
    assert main(["roster", "--port", "/dev/ttyUSB0", "--no-voice", "Ann", "Bob"]) == 0  # a fake board: no mpremote
    out, err = capsys.readouterr()
    assert roster == ["Ann", "Bob"] and out == "roster on the board: Ann, Bob\n"
    assert err == (WARNING % (fw, __version__) if warned else "")
