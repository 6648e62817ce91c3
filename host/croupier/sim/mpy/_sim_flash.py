# The board's flash: a littlefs2 block device backed by a host file, 4 KiB erase blocks
# like the ESP32's SPI flash. Writes go straight to the file (MicroPython's unix files are
# unbuffered), so a write that returned survives the interpreter being killed. Before each
# prog or erase the side channel may cut the power: the write lands torn (or not at all) and
# the interpreter stops there, as on a brown-out. Each write tells the supervisor how long the
# chip's flash is busy with it (croupier.sim.pace), and a paced board stalls that long.
import time

import _sim_channel as ch

BLOCK = 4096
PAGE = 256
_FF = b"\xff" * 256  # erase pattern, written in slices to keep the heap small
# tenths of a µs: page program, first byte, each further byte, sector erase (0: no timing)
_PAGE_T, _FIRST_T, _BYTE_T, _ERASE_T = [int(n) for n in ch.env("FLASH_US", "0,0,0,0").split(",")]
_PACED = ch.env("PACED") == "1"


def _program_time(offset, n):
    """µs to program n bytes at offset: one program per 256-byte page touched."""
    total = 0
    while n > 0:
        k = min(n, PAGE - offset % PAGE)
        total += min(_PAGE_T, _FIRST_T + (k - 1) * _BYTE_T)
        offset += k
        n -= k
    return total // 10


class Flash:
    def __init__(self, path):
        self._f = open(path, "r+b")
        self.blocks = self._f.seek(0, 2) // BLOCK
        self.reads = 0  # readblocks calls: what littlefs's cache settings save (tests)

    def readblocks(self, block, buf, offset=0):
        self.reads += 1
        self._f.seek(block * BLOCK + offset)
        self._f.readinto(buf)

    def writeblocks(self, block, buf, offset):  # littlefs's extended interface (erases first)
        busy = _program_time(offset, len(buf))
        self._f.seek(block * BLOCK + offset)
        if not ch.flash_write(busy):
            if ch.tear:
                self._f.write(memoryview(buf)[: len(buf) // 2])
            ch.die(88)  # 'X'
        self._f.write(buf)
        if _PACED:
            time.sleep_us(busy)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            if not ch.flash_write(_ERASE_T // 10):
                self._erase(arg, BLOCK // 2 if ch.tear else 0)
                ch.die(88)
            self._erase(arg, BLOCK)
            if _PACED:
                time.sleep_us(_ERASE_T // 10)
            return 0
        return 0 if op in (1, 2, 3) else None  # init, deinit, sync: nothing to do

    def _erase(self, block, size):
        self._f.seek(block * BLOCK)
        for _ in range(size // len(_FF)):
            self._f.write(_FF)
