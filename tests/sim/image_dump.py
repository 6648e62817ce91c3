# Prints every entry of a flash image, "F path hex" or "D path", read through the virtual
# board's block device and littlefs: run on the unix port by image_files.py.
import binascii
import sys
import vfs

import _sim_flash
from _sim_image import walk

fs = vfs.VfsLfs2(_sim_flash.Flash(sys.argv[1]))
for path, is_dir in walk(fs.ilistdir):
    if is_dir:
        print("D", path)
    else:
        with fs.open(path, "rb") as f:
            print("F", path, binascii.hexlify(f.read()).decode())
