"""Virtual boards for the sim tests: each test gets boards whose flash holds its own small
program (main.py), not the firmware, so these tests exercise the board itself."""
import pytest

from croupier.sim import VirtualBoard


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
