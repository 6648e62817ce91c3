# SSD1306 128x64 OLED over I2C, drawn through framebuf. show() sends only what changed since
# the previous show(): the frame and a shadow copy of what the panel holds are compared a
# page at a time (a view per page: the comparison runs in C), and in a page that changed a
# _CHUNK of columns at a time, each copied out of both by framebuf's blit into an 8-byte
# scratch (C again, and no view per chunk to keep). A changed page sends just its runs of
# changed chunks, each in its own address window; a run right under another joins its window
# (the big digits span three pages) when that costs fewer bytes than a window, and it fits
# the transfer buffer. A window is one I2C transaction: its column and page commands, each
# behind a control byte with Co set (another control byte follows), then the data stream,
# all in one preallocated buffer: a transaction costs the bus and the driver far more than
# six control bytes, and show() never allocates.
from micropython import const
import framebuf
import gc

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
_CHUNK = const(8)  # columns compared and sent together
_CHUNKS = const(16)  # chunks in a page
_GAP = const(2)  # unchanged chunks a run may span: about what a new window costs the bus
_RUNS = const(_CHUNKS // (_GAP + 2) + 1)  # the most runs a page can have
_TAKEN = const(255)  # a held run that carries on down the next page
_CTRL_CMD = const(0x00)  # control byte: every following byte is a command
_CTRL_DATA = const(0x40)  # control byte: every following byte is display data
_CTRL_ONE_CMD = const(0x80)  # control byte: one command byte, then another control byte
_WINDOW = const(12)  # bytes of the address window at the head of a run's transaction

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
        self._panel = framebuf.FrameBuffer(self._shadow, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        frame, shadow = memoryview(self.buffer), memoryview(self._shadow)
        self._pages = [frame[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]
        self._shadow_pages = [shadow[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]
        # A chunk of the frame and one of the shadow, copied out to be compared (_chunk).
        self._mine = bytearray(_CHUNK)
        self._mine_fb = framebuf.FrameBuffer(self._mine, _CHUNK, 8, framebuf.MONO_VLSB)
        self._theirs = bytearray(_CHUNK)
        self._theirs_fb = framebuf.FrameBuffer(self._theirs, _CHUNK, 8, framebuf.MONO_VLSB)
        # The transfer buffer: the window (column and page address commands), the data
        # control byte, then the run's columns; _tx[k]: its first k chunks of data. Its data
        # is a framebuf one chunk wide: chunk k of a run goes to its rows 8k..8k+7.
        self._buf = bytearray(_WINDOW + 1 + WIDTH)
        buf = self._buf
        for i, cmd in enumerate((_SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0)):
            buf[2 * i], buf[2 * i + 1] = _CTRL_ONE_CMD, cmd
        buf[_WINDOW] = _CTRL_DATA
        tx = memoryview(buf)
        self._tx = [tx[:_WINDOW + 1 + k * _CHUNK] for k in range(_CHUNKS + 1)]
        self._data = framebuf.FrameBuffer(tx[_WINDOW + 1:], _CHUNK, _CHUNKS * 8, framebuf.MONO_VLSB)
        # the runs of the page above, and of this page: (top page, first, last chunk) each
        self._held = bytearray(3 * _RUNS)
        self._runs = bytearray(3 * _RUNS)
        self.i2c.writeto(self.addr, _INIT)
        self.show(full=True)

    def show(self, full=False):
        """Send what changed since the last show() (everything when full); returns the data
        bytes sent."""
        if full:
            for page in range(PAGES):
                self._send(page, page, 0, _CHUNKS - 1)
                self._shadow_pages[page][:] = self._pages[page]
            return WIDTH * PAGES
        sent = 0
        held, runs = self._held, self._runs
        n_held = 0
        for page in range(PAGES):
            frame, shadow = self._pages[page], self._shadow_pages[page]
            n = 0
            if frame != shadow:
                c = 0
                while c < _CHUNKS:
                    while c < _CHUNKS and not self._changed(page, c):
                        c += 1
                    if c == _CHUNKS:
                        break
                    first = last = c
                    c += 1
                    while c < _CHUNKS and c - last <= _GAP + 1:
                        if self._changed(page, c):
                            last = c
                        c += 1
                    self._place(held, n_held, page, first, last, runs, n)
                    n += 3
                shadow[:] = frame  # pages found unchanged need no copy
            sent += self._send_held(held, n_held, page - 1)
            held, runs, n_held = runs, held, n
        return sent + self._send_held(held, n_held, PAGES - 1)

    def _changed(self, page, c):
        """Whether chunk c of page differs between the frame and the shadow."""
        self._mine_fb.blit(self, -c * _CHUNK, -page * 8)
        self._theirs_fb.blit(self._panel, -c * _CHUNK, -page * 8)
        return self._mine != self._theirs

    def _place(self, held, n_held, page, first, last, runs, n):
        """Put a run's window (top page, first, last chunk) at runs[n]: a run of the page above
        whose window, widened to hold this one too, costs at most the bytes of a window more
        carries on down (the big digits span three pages) while the window fits the one
        transfer buffer; else a window of its own, from this page."""
        for i in range(0, n_held, 3):
            top, left, right = held[i], held[i + 1], held[i + 2]
            if right == _TAKEN:
                continue
            wide_left, wide_right = min(left, first), max(right, last)
            width = wide_right - wide_left + 1
            extra = width * (page - top + 1) - (right - left + 1) * (page - top) - (last - first + 1)
            if extra <= _GAP + 1 and width * (page - top + 1) <= _CHUNKS:
                held[i + 2] = _TAKEN
                runs[n], runs[n + 1], runs[n + 2] = top, wide_left, wide_right
                return
        runs[n], runs[n + 1], runs[n + 2] = page, first, last

    def _send_held(self, held, n_held, bottom):
        """Send the windows held that do not carry on below page bottom; -> data bytes."""
        sent = 0
        for i in range(0, n_held, 3):
            if held[i + 2] != _TAKEN:
                sent += self._send(held[i], bottom, held[i + 1], held[i + 2])
        return sent

    def _send(self, top, bottom, first, last):
        """Send chunks first..last of pages top..bottom in one window; -> data bytes sent."""
        buf, mine, data = self._buf, self._mine_fb, self._data
        y = 0
        for page in range(top, bottom + 1):
            for c in range(first, last + 1):
                mine.blit(self, -c * _CHUNK, -page * 8)  # exactly the chunk: then its place
                data.blit(mine, 0, y)
                y += 8
        buf[3] = first * _CHUNK  # the window's arguments, each behind its control byte
        buf[5] = (last + 1) * _CHUNK - 1
        buf[9] = top
        buf[11] = bottom
        count = (bottom - top + 1) * (last - first + 1)
        self.i2c.writeto(self.addr, self._tx[count])
        return count * _CHUNK
