# Host tool for flash images, run on the unix port (no board, no side channel) with the board's
# own block device and littlefs: `_sim_image IMAGE [FOLDER SKIP]` formats a fresh image holding
# a folder, less one file. walk() also serves the tests that read an image back.
import os
import sys
import vfs

import _sim_flash


def walk(listdir, rel=""):
    """(path, is a directory) of every entry below rel, a directory before what it holds."""
    for name, kind, *_ in listdir(rel or "/"):
        path = rel + "/" + name
        yield path, kind == 0x4000
        if kind == 0x4000:
            yield from walk(listdir, path)


def main(image, src=None, skip=""):
    flash = _sim_flash.Flash(image)
    vfs.VfsLfs2.mkfs(flash)
    fs = vfs.VfsLfs2(flash)
    if src:
        for path, is_dir in walk(lambda rel: os.ilistdir(src + rel)):
            if is_dir:
                fs.mkdir(path)
            elif path != "/" + skip:
                with open(src + path, "rb") as f, fs.open(path, "wb") as g:
                    g.write(f.read())
    fs.umount()


if __name__ == "__main__":
    main(*sys.argv[1:])
