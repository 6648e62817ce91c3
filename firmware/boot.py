# Runs at every reset, before main.py and before the REPL that mpremote uses: mount the
# flash again with larger littlefs caches. The port's _boot.py mounts it with littlefs's
# smallest settings: 128-byte caches filled in 32-byte reads, which walk each directory's
# metadata log back 32 bytes at a time (an import cost ~1,000 flash reads), and a lookahead
# of 256 blocks, half the partition, so the first write after boot scans every file twice.
# progsize stays 32: it is how the filesystem was formatted and written.
import os
import vfs
from flashbdev import bdev

try:
    fs = vfs.VfsLfs2(bdev, readsize=256, progsize=32, lookahead=64)
except OSError:
    fs = None  # unreadable: what _boot.py did stands
if fs is not None:
    vfs.umount("/")
    vfs.mount(fs, "/")
    os.chdir("/")
