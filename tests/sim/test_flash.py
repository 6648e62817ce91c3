"""Flash images: a fresh one holds exactly the firmware build; a broken or busy one is found out."""
import os

import pytest

from croupier.build import HOST_ONLY, build_firmware, read_manifest
from croupier.sim import SimError, flash
from image_files import read_files


def test_fresh_image_holds_exactly_the_firmware_build(tmp_path):
    staging = build_firmware()
    image = tmp_path / "flash.img"
    flash.create(image, staging)
    assert image.stat().st_size == flash.BLOCK_SIZE * flash.BLOCKS
    files = {name: data for name, data in read_files(image).items() if data is not None}
    assert sorted(files) == sorted("/" + name for name in read_manifest(staging))
    assert "/croupier/rules/maumau.mpy" in files  # the box's games, not the laptop's
    assert not [name for name in files if name[1:-4] + ".py" in HOST_ONLY]
    for name, data in files.items():
        assert data == (staging / name[1:]).read_bytes(), name
    template = flash.template(staging)
    inode = template.stat().st_ino
    flash.create(tmp_path / "again.img", staging)  # the second board copies the cached template
    assert template.stat().st_ino == inode
    assert (tmp_path / "again.img").read_bytes() == image.read_bytes()


def test_unmountable_image_is_reported_and_the_board_formats_it(tmp_path, make_board):
    image = tmp_path / "garbage.img"
    image.write_bytes(b"\x5a" * (flash.BLOCK_SIZE * flash.BLOCKS))
    with pytest.raises(RuntimeError, match="does not mount"):
        read_files(image)
    board = make_board(flash=image)  # exists: used as it is, like a board with a broken flash
    board.wait_output(b"Performing initial setup")
    assert board.formats == 1 and read_files(image) == {}


def test_a_file_that_is_no_image_is_refused(tmp_path):
    from croupier.sim import VirtualBoard

    notes = tmp_path / "notes.txt"
    notes.write_text("not flash")
    with pytest.raises(SimError, match="not a flash image"):
        VirtualBoard(flash=notes).start()
    assert notes.read_text() == "not flash"


def test_a_busy_image_is_refused_in_one_line_where_its_holder_cannot_be_found(tmp_path, monkeypatch):
    from croupier.sim import VirtualBoard

    image = tmp_path / "board.img"
    flash.create(image)
    held = flash.lock(image)  # another board's

    def without_proc_locks(path, *args, **kwargs):
        if path == "/proc/locks":
            raise FileNotFoundError(2, "No such file or directory", path)
        return open(path, *args, **kwargs)

    monkeypatch.setattr(flash, "open", without_proc_locks, raising=False)
    try:
        with pytest.raises(SimError) as refused:
            VirtualBoard(flash=image).start()
    finally:
        os.close(held)
    assert str(refused.value) == ("flash image %s is in use by another virtual board (pid unknown): stop it, "
                                  "or choose another --flash" % image)
