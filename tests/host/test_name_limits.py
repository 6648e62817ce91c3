"""The longest name docs/cards.md promises the box takes is the longest the tool sends it."""
import re
from pathlib import Path

from croupier.cli import main
from croupier.link import connect

CARDS_MD = Path(__file__).resolve().parents[2] / "docs" / "cards.md"


def box_name_limit():
    found = re.search(r"Names on the box are 1 to (\d+) characters", CARDS_MD.read_text())
    assert found, "docs/cards.md states the box's name limit"
    return int(found.group(1))


def test_the_documented_name_limit_is_the_boxs(vboard, capsys):
    longest = box_name_limit()
    names = ["%s%d" % ("n" * (longest - 1), seat) for seat in range(8)]
    assert main(["roster", "--port", vboard.port] + names) == 0
    assert main(["roster", "--port", vboard.port, "n" * (longest + 1)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "each name must be a string of 1 to %d characters" % longest in err
    with connect(vboard.port) as link:
        assert link.call("get_roster")["names"] == names  # the refused name changed nothing
        state = link.call("new", game="lobo77", players=names)["state"]  # eight of them: one request line
    assert [p["name"] for p in state["players"]] == names
