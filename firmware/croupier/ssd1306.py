# SSD1306 128x64 OLED over I2C, drawn through framebuf. show() sends only what changed since
# the previous show(): each page is compared with a shadow copy of what the panel holds, and
# a changed page sends just its runs of changed columns, each in its own address window.
# Runs are rounded up to whole CHUNKs, so a few preallocated views of one transfer buffer
# cover every length: show() never allocates.
from micropython import const
import framebuf
import gc

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
CHUNK = const(8)  # runs are sent in multiples of this many columns
GAP = const(8)  # unchanged columns a run may span: a new window costs 8 bytes on the bus
_CTRL_CMD = const(0x00)  # control byte: every following byte is a command
_CTRL_DATA = const(0x40)  # control byte: every following byte is display data

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)

# Power-on sequence for the common 128x64 module with its internal charge pump.
_INIT = bytes((
    _CTRL_CMD,
    _SET_DISP,  # off while configuring
    _SET_MEM_ADDR, 0x00,  # horizontal addressing: data wraps column then page
    _SET_DISP_START_LINE,
    _SET_SEG_REMAP | 0x01,  # column 127 on SEG0: the module is mounted mirrored
    _SET_MUX_RATIO, HEIGHT - 1,
    _SET_COM_OUT_DIR | 0x08,  # scan COM[N-1] to COM0
    _SET_DISP_OFFSET, 0x00,
    _SET_COM_PIN_CFG, 0x12,  # alternative COM pins, as 64-row panels are wired
    _SET_DISP_CLK_DIV, 0x80,
    _SET_PRECHARGE, 0xF1,
    _SET_VCOM_DESEL, 0x30,
    _SET_CONTRAST, 0xFF,
    _SET_ENTIRE_ON,  # pixels follow the RAM
    _SET_NORM_INV,
    _SET_CHARGE_PUMP, 0x14,
    _SET_DISP | 0x01,
))


class SSD1306(framebuf.FrameBuffer):
    """The display: draw with the framebuf methods, then show()."""

    def __init__(self, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self.width = WIDTH
        self.height = HEIGHT
        gc.collect()  # two 1 KB buffers want contiguous heap
        self.buffer = bytearray(WIDTH * PAGES)
        self._shadow = bytearray(WIDTH * PAGES)  # the panel's RAM as last sent
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        frame, shadow = memoryview(self.buffer), memoryview(self._shadow)
        self._pages = [frame[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]
        self._shadow_pages = [shadow[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]
        # _tx[k]: the data control byte followed by k chunks of the one transfer buffer
        self._buf = bytearray(WIDTH + 1)
        self._buf[0] = _CTRL_DATA
        tx = memoryview(self._buf)
        self._tx = [tx[:k * CHUNK + 1] for k in range(WIDTH // CHUNK + 1)]
        self._window = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0))
        self._cmd1 = bytearray((_CTRL_CMD, 0))
        self._cmd2 = bytearray((_CTRL_CMD, 0, 0))
        self.i2c.writeto(self.addr, _INIT)
        self.show(full=True)

    def show(self, full=False):
        """Send what changed since the last show() (everything when full); returns the data
        bytes sent."""
        sent = 0
        for page in range(PAGES):
            frame, shadow = self._pages[page], self._shadow_pages[page]
            if full:
                sent += self._send(page, 0, WIDTH - 1)
                shadow[:] = frame
            elif frame != shadow:
                x = 0
                while x < WIDTH:
                    while x < WIDTH and frame[x] == shadow[x]:
                        x += 1
                    if x == WIDTH:
                        break
                    first = last = x
                    x += 1
                    while x < WIDTH and x - last <= GAP:
                        if frame[x] != shadow[x]:
                            last = x
                        x += 1
                    sent += self._send(page, first, last)
                shadow[:] = frame  # pages found unchanged need no copy
        return sent

    def _send(self, page, x0, x1):
        """Send columns x0..x1 of a page, widened to whole chunks; -> data bytes sent."""
        chunks = (x1 - x0) // CHUNK + 1
        n = chunks * CHUNK
        if x0 + n > WIDTH:
            x0 = WIDTH - n
        frame, buf = self._pages[page], self._buf
        for i in range(n):
            buf[i + 1] = frame[x0 + i]
        window = self._window
        window[2] = x0
        window[3] = x0 + n - 1
        window[5] = window[6] = page
        self.i2c.writeto(self.addr, window)
        self.i2c.writeto(self.addr, self._tx[chunks])
        return n

    def _command(self, cmd, arg=-1):
        if arg < 0:
            buf = self._cmd1
        else:
            buf = self._cmd2
            buf[2] = arg
        buf[1] = cmd
        self.i2c.writeto(self.addr, buf)

    def poweroff(self):
        self._command(_SET_DISP)

    def poweron(self):
        self._command(_SET_DISP | 0x01)

    def contrast(self, level):
        """Brightness 0-255."""
        self._command(_SET_CONTRAST, level & 0xFF)

    def invert(self, on):
        self._command(_SET_NORM_INV | (1 if on else 0))
