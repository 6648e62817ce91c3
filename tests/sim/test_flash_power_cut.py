"""Power cut at every flash write of a sequence of file operations: the image always mounts
and a file written write-temp-then-rename is the old or the new version, never a mix."""
import shutil

import pytest

from croupier.sim import VirtualBoard, flash
from image_files import read_files

OLD = "v0:" + "01234567" * 1000
NEW = "v1:" + "abcdefgh" * 1000
SEQUENCE = """
import os
with open("data.tmp", "w") as f:
    f.write(%r)
os.rename("data.tmp", "data.txt")
with open("log.txt", "a") as f:
    f.write("entry\\n")
os.mkdir("dir")
print("sequence done")
""" % NEW


@pytest.mark.parametrize("tear", [True, False], ids=["torn-write", "lost-write"])
def test_every_write_cut_leaves_old_or_new(make_board, tmp_path, tear):
    board = make_board(main=SEQUENCE, files={"data.txt": OLD})
    pristine = tmp_path / "pristine.img"
    board.wait_output(b"sequence done")
    writes = board.flash_writes
    board.close()
    assert writes > 5, writes
    files = read_files(board.flash)
    assert files["/data.txt"].decode() == NEW and files["/log.txt"] == b"entry\n" and "/dir" in files

    shutil.copyfile(flash.template(board._firmware), pristine)  # the same content, never booted
    outcomes = set()
    for n in range(1, writes + 1):
        image = tmp_path / "cut.img"
        shutil.copyfile(pristine, image)
        cut = VirtualBoard(flash=image)
        assert cut.cut_power(after_writes=n, tear=tear) == n
        with cut:
            cut.wait_off()
            assert cut.flash_writes == n and cut.crashes == 0
        files = read_files(image)  # raises when the image does not mount
        data = files["/data.txt"].decode()
        assert data in (OLD, NEW), "cut at write %d: data.txt is a mix" % n
        assert files.get("/log.txt") in (None, b"", b"entry\n")
        outcomes.add(data == NEW)
    assert outcomes == {False, True}  # the cuts fell both before and after the rename


def test_board_restarts_from_the_flash_after_a_cut(make_board):
    board = make_board(main=SEQUENCE, files={"data.txt": OLD})
    board.wait_output(b"sequence done")
    assert board.cut_power(within=1000, seed=3) == board.cut_power(within=1000, seed=3)
    board.cut_power(after_writes=1)
    board.power_off()  # drops the armed cut
    board.wait_off()
    board.restart()
    board.wait_boot(2)
    board.wait_output(b"Traceback")  # main.py runs again: mkdir("dir") exists now
    assert board.formats == 0 and board.powered
