# Host tool for flash images, run on the unix port (no board, no side channel) with the board's
# own block device and littlefs: `format` makes a fresh image holding a folder (less one file),
# `dump` prints every file of an image (path, hex) for the host to inspect.
import binascii
import os
import sys
import vfs

import _sim_flash


def _copy_in(fs, src, rel, skip):
    for name, kind, *_ in os.ilistdir(src + rel):
        path = rel + "/" + name
        if kind == 0x4000:
            fs.mkdir(path)
            _copy_in(fs, src, path, skip)
        elif path != "/" + skip:
            with open(src + path, "rb") as f, fs.open(path, "wb") as g:
                g.write(f.read())


def _dump(fs, rel):
    for name, kind, *_ in fs.ilistdir(rel or "/"):
        path = rel + "/" + name
        if kind == 0x4000:
            print("D", path)
            _dump(fs, path)
        else:
            with fs.open(path, "rb") as f:
                print("F", path, binascii.hexlify(f.read()).decode())


def main(command, image, src=None, skip=""):
    flash = _sim_flash.Flash(image)
    if command == "format":
        vfs.VfsLfs2.mkfs(flash)
        fs = vfs.VfsLfs2(flash)
        if src:
            _copy_in(fs, src, "", skip)
        fs.umount()
    elif command == "dump":
        _dump(vfs.VfsLfs2(flash), "")
    else:
        raise SystemExit("unknown command " + command)


main(*sys.argv[1:])
