# Host tool for flash images, run by the supervisor on the unix port (no board, no side
# channel): `format` makes a fresh littlefs2 image and copies a folder into it (less one file),
# `dump` prints every file of an image (path, hex) so the host can inspect it.
# Uses the board's own block device and littlefs: the image is exactly what the board sees.
import binascii
import os
import sys
import vfs

import _sim_flash


def _copy_in(fs, src, rel, skip):
    for name, kind, *_ in os.ilistdir(src + rel):
        path = rel + "/" + name
        if path == "/" + skip:
            continue
        if kind == 0x4000:
            fs.mkdir(path)
            _copy_in(fs, src, path, skip)
        else:
            with open(src + path, "rb") as f, fs.open(path, "wb") as g:
                while True:
                    chunk = f.read(4096)
                    if not chunk:
                        break
                    g.write(chunk)


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
