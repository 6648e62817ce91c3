# Runs on the MicroPython unix port: a NOR-flash-like block device in RAM for a real littlefs
# (vfs.VfsLfs2), which can lose power at a chosen block write. The write that is cut programs
# only part of its bytes, as a real flash does when the supply drops mid-program.
import vfs

BLOCK = 4096


class PowerCut(Exception):
    pass


class RamFlash:
    def __init__(self, blocks=64, seed=1):
        self.data = bytearray(b"\xff" * (blocks * BLOCK))
        self.blocks = blocks
        self.writes = 0  # block programs and erases so far
        self.cut_at = None  # the write that loses power
        self.dead = False
        self.seed = seed

    def readblocks(self, n, buf, off=0):
        start = n * BLOCK + off
        buf[:] = self.data[start:start + len(buf)]

    def _spend(self):
        if self.dead:
            raise PowerCut()
        self.writes += 1
        if self.cut_at is not None and self.writes >= self.cut_at:
            self.dead = True
            return False
        return True

    def writeblocks(self, n, buf, off=0):
        start = n * BLOCK + off
        if not self._spend():
            part = (self.seed * 7919 + self.writes) % (len(buf) + 1)
            self.data[start:start + part] = buf[:part]
            raise PowerCut()
        self.data[start:start + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            if not self._spend():
                raise PowerCut()
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
            return 0
        return 0


def mount(flash, path="/flash", fresh=False):
    """Power up: mount flash at path (formatting it first when fresh), dropping the mount
    that lost power. A pending cut_at stays armed."""
    try:
        vfs.umount(path)
    except OSError:
        pass
    flash.dead = False
    if fresh:
        vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), path)
    return path
