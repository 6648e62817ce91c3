"""Which MicroPython releases `croupier flash` deploys onto: the version compare, and a virtual
board's release read through its raw REPL before anything is copied."""
import pytest

from croupier.cli import main
from croupier.deploy import Mpremote
from croupier.link import connect
from croupier.micropython_release import supported
from croupier.sim import VirtualBoard

LIST_FILES = "import os\nprint(sorted(os.listdir('/')))"
NUMBERS = "import sys\nprint('%d.%d.%d' % sys.implementation.version[:3])"


@pytest.mark.parametrize("version,ok", [
    ("1.23.0", True),
    ("1.28.0", True),
    ("1.29.0-preview", True),  # a pre-release counts by its numbers
    ("1.29.0-preview.45.g0123abc", True),  # as an image's banner names a build between releases
    ("1.100.0", True),  # numbers, not text: "1.100" sorts before "1.23"
    ("2.0.0", True),
    ("1.22.2", False),
    ("1.22.0-preview", False),
    ("1.3.0", False),  # "1.3" sorts after "1.23" as text
    ("0.23.0", False),
    ("", False),
    ("0123abc", False),  # a build that knew no release
], ids=lambda v: repr(v))
def test_supported_releases_are_1_23_and_later_by_their_numbers(version, ok):
    assert supported(version) is ok


def test_flash_names_the_release_of_the_default_virtual_board_and_deploys(voiced_board, capsys):
    with connect(voiced_board.port):  # booted: mpremote hangs on a board still booting
        pass
    numbers = Mpremote(voiced_board.port).run("exec", NUMBERS).strip()
    assert main(["flash", "--port", voiced_board.port]) == 0
    out = capsys.readouterr().out
    assert "the board runs MicroPython %s" % numbers in out and "board answers: fw" in out, out  # maybe "-preview"


@pytest.mark.parametrize("release,deployed", [("1.22", False), ("1.23", True)])
def test_flash_reads_the_release_of_a_virtual_board_and_deploys_only_from_1_23(release, deployed, capsys):
    with VirtualBoard(firmware=False, micropython_version=release) as board:  # an empty filesystem
        before = Mpremote(board.port).run("exec", LIST_FILES)
        status = main(["flash", "--port", board.port, "--no-voice"])  # the firmware alone: seconds, not minutes
        out, err = capsys.readouterr()
        if deployed:
            assert status == 0 and "the board runs MicroPython %s.0" % release in out, out + err
            assert "main.py" in Mpremote(board.port).run("exec", LIST_FILES)
        else:
            assert status == 1 and err.strip() == (
                "croupier flash: the board on %s runs MicroPython %s.0, older than Croupier supports: flash "
                "ESP32_GENERIC 1.23 or newer from https://micropython.org/download/ESP32_GENERIC/ with "
                "`croupier flash --port %s --micropython ESP32_GENERIC-<version>.bin`" % (board.port, release, board.port)), err
            assert Mpremote(board.port).run("exec", LIST_FILES) == before, "refused: the board's files are as they were"
