# SSD1306 128x64 OLED over I2C, drawn through framebuf. show() sends only what changed since
# the previous show(): the frame is cut into 16-column strips per page, each compared with a
# shadow copy of what the panel already holds, and each page's dirty span goes out in one
# address window. Everything show() touches is allocated once in __init__, so refreshing the
# screen never allocates.
from micropython import const
import framebuf

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
STRIP = const(16)  # columns per compared strip: smaller sends fewer bytes, costs more views
STRIPS = const(8)  # WIDTH // STRIP

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
        self.buffer = bytearray(WIDTH * PAGES)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        # The panel's RAM as last sent, and matching strip views of both buffers.
        self._shadow = bytearray(WIDTH * PAGES)
        frame, shadow = memoryview(self.buffer), memoryview(self._shadow)
        self._strips = [frame[i * STRIP:(i + 1) * STRIP] for i in range(PAGES * STRIPS)]
        self._shadow_strips = [shadow[i * STRIP:(i + 1) * STRIP] for i in range(PAGES * STRIPS)]
        self._window = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0))
        # One writevto vector per span length: the control byte, then 1..STRIPS strips.
        ctrl = bytes((_CTRL_DATA,))
        self._vectors = [[ctrl] + [None] * n for n in range(STRIPS + 1)]
        self._cmd1 = bytearray((_CTRL_CMD, 0))
        self._cmd2 = bytearray((_CTRL_CMD, 0, 0))
        self.i2c.writeto(self.addr, _INIT)
        self.show(full=True)

    def show(self, full=False):
        """Send what changed since the last show() (everything when full); returns the data
        bytes sent."""
        sent = 0
        strips, shadow = self._strips, self._shadow_strips
        window = self._window
        for page in range(PAGES):
            base = page * STRIPS
            first = last = -1
            for s in range(base, base + STRIPS):
                if full or strips[s] != shadow[s]:
                    if first < 0:
                        first = s
                    last = s
            if first < 0:
                continue
            window[2] = (first - base) * STRIP
            window[3] = (last + 1 - base) * STRIP - 1
            window[5] = window[6] = page
            self.i2c.writeto(self.addr, window)
            vector = self._vectors[last + 1 - first]
            for s in range(first, last + 1):
                vector[s - first + 1] = strips[s]
                shadow[s][:] = strips[s]
            self.i2c.writevto(self.addr, vector)
            sent += (last + 1 - first) * STRIP
        return sent

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
