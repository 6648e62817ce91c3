# Host tool for flash images, run on the unix port (no board, no side channel) with the board's
# own block device and littlefs: `format` makes a fresh image holding a folder (less one file),
# `dump` prints every file of an image (path, hex) for the host to inspect.
import binascii
import os
import sys
import vfs

import _sim_flash


def _walk(listdir, rel=""):
    """(path, is a directory) of every entry below rel, a directory before what it holds."""
    for name, kind, *_ in listdir(rel or "/"):
        path = rel + "/" + name
        yield path, kind == 0x4000
        if kind == 0x4000:
            yield from _walk(listdir, path)


def main(command, image, src=None, skip=""):
    flash = _sim_flash.Flash(image)
    if command == "format":
        vfs.VfsLfs2.mkfs(flash)
        fs = vfs.VfsLfs2(flash)
        if src:
            for path, is_dir in _walk(lambda rel: os.ilistdir(src + rel)):
                if is_dir:
                    fs.mkdir(path)
                elif path != "/" + skip:
                    with open(src + path, "rb") as f, fs.open(path, "wb") as g:
                        g.write(f.read())
        fs.umount()
    elif command == "dump":
        fs = vfs.VfsLfs2(flash)
        for path, is_dir in _walk(fs.ilistdir):
            if is_dir:
                print("D", path)
            else:
                with fs.open(path, "rb") as f:
                    print("F", path, binascii.hexlify(f.read()).decode())
    else:
        raise SystemExit("unknown command " + command)


main(*sys.argv[1:])
