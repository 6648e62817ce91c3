# Runs on the MicroPython unix port: a NOR-flash-like block device in RAM for a real littlefs
# (vfs.VfsLfs2), which can lose power at a chosen block write. The write that is cut programs
# only part of its bytes, as a real flash does when the supply drops mid-program.
import vfs

BLOCK = 4096


EIO = -5  # a block device's I/O error: littlefs gets an error code, and the call an OSError


class RamFlash:
    """The chip: its bytes, and how many block writes it has taken."""

    def __init__(self, blocks=64, seed=1):
        self.data = bytearray(b"\xff" * (blocks * BLOCK))
        self.blocks = blocks
        self.writes = 0  # block programs and erases so far
        self.cut_at = None  # the write that loses power
        self.seed = seed


class Powered:
    """The block device littlefs sees during one power-up. Once its power is cut nothing
    reaches the chip any more, even from file finalisers that run later: every call answers
    an I/O error. (Not an exception: raised through littlefs's C code, it would abandon an
    operation halfway and leave littlefs's memory for a later finaliser to trip over.)"""

    def __init__(self, flash):
        self.flash = flash
        self.dead = False

    def readblocks(self, n, buf, off=0):
        if self.dead:
            return EIO
        start = n * BLOCK + off
        buf[:] = self.flash.data[start:start + len(buf)]

    def _spend(self):
        """Count one write; False when this is the write that loses power."""
        flash = self.flash
        flash.writes += 1
        if flash.cut_at is not None and flash.writes >= flash.cut_at:
            self.dead = True
            flash.cut_at = None
            return False
        return True

    def writeblocks(self, n, buf, off=0):
        if self.dead:
            return EIO
        data = self.flash.data
        start = n * BLOCK + off
        if not self._spend():
            for i in range((self.flash.seed * 7919 + self.flash.writes) % (len(buf) + 1)):
                data[start + i] = buf[i]  # the bytes programmed before the supply died
            return EIO
        data[start:start + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.flash.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            if self.dead or not self._spend():
                return EIO
            self.flash.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
        return 0


def mount(flash, path="/flash", fresh=False):
    """Power up: mount flash at path (formatting it first when fresh); returns the
    Powered device of this power-up. A pending cut_at stays armed."""
    try:
        vfs.umount(path)
    except OSError:
        pass
    device = Powered(flash)
    if fresh:
        vfs.VfsLfs2.mkfs(device)
    vfs.mount(vfs.VfsLfs2(device), path)
    return device
