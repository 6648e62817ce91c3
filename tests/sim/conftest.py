"""Virtual boards for the sim tests: each test gets boards whose flash holds its own small
program (main.py), not the firmware, so these tests exercise the board itself."""
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.sim import VirtualBoard

ROOT = Path(__file__).resolve().parents[2]
MPREMOTE = str(Path(sys.executable).parent / "mpremote")  # the venv running the tests


@pytest.fixture
def make_board(tmp_path):
    """make_board(main=None, files={}, **VirtualBoard kwargs) -> a started board with a
    flash holding main.py (source text) and files {name: text}."""
    boards = []

    def make(main=None, files=None, start=True, **kwargs):
        content = tmp_path / ("content%d" % len(boards))
        content.mkdir()
        for name, text in dict(files or {}, **({"main.py": main} if main else {})).items():
            (content / name).write_text(text)
        kwargs.setdefault("flash", tmp_path / ("flash%d.img" % len(boards)))
        board = VirtualBoard(firmware=content, **kwargs)
        boards.append(board)
        if start:
            board.start()
            board.wait_boot()
        return board

    yield make
    for board in boards:
        board.close()


def mpremote(port, *args, timeout=30):
    """Run the stock mpremote against a port; -> stdout. Fails the test on an error."""
    proc = subprocess.run([MPREMOTE, "connect", str(port), *args], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "mpremote %s failed: %s%s" % (" ".join(args), proc.stdout, proc.stderr)
    return proc.stdout
