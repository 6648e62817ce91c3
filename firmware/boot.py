# Runs at every reset, before main.py and before the REPL that mpremote uses: mount the
# flash again with larger littlefs caches. The port's _boot.py mounts it with littlefs's
# smallest settings: 128-byte caches filled in 32-byte reads, which walk each directory's
# metadata log back 32 bytes at a time (an import cost ~1,000 flash reads), and a lookahead
# window of 256 blocks, half the partition (each refill of the window scans every file).
# progsize stays 32, as the filesystem was formatted. 128-byte reads make 512-byte caches:
# ~0.8 KB of heap more than the port's, 0.4 KB more per open file (256-byte reads were as
# fast and cost twice that, which the journal's appends did not find in one piece on a full
# heap).
import os
from flashbdev import bdev

# Nothing here may raise: a boot.py that fails keeps main.py from running (whose app says
# when the MicroPython release is too old for it).
# 240 MHz, not ESP32_GENERIC's 160 (ESP-IDF's default): keys and frames 1.5 times sooner for
# a few mA more, which a USB-powered box has to spare. The virtual board's pace models this clock.
try:
    import machine

    machine.freq(240000000)
except Exception:  # a port without the call (the bare unix port of the tests) keeps its clock
    pass
try:
    import vfs  # from MicroPython 1.23 on

    fs = vfs.VfsLfs2(bdev, readsize=128, progsize=32, lookahead=64)
except Exception:  # an older release, no vfs partition (bdev None), or unreadable: what
    fs = None  # _boot.py did stands
if fs is not None:
    try:
        vfs.umount("/")
    except OSError:
        pass  # nothing was mounted there
    vfs.mount(fs, "/")
    os.chdir("/")
