"""The SSD1306 controller as the I2C bus sees it: a command decoder and 1 KiB of GDDRAM,
fed each I2C write to its address; glass() is what its state puts on the panel
(docs/virtual-board.md, "SSD1306"). Commands that only tune the analog side are not drawn.
"""
WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8

# Commands followed by argument bytes: opcode -> number of arguments.
_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0xD9: 1, 0xDB: 1, 0x8D: 1,
         0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0x23: 1, 0xD6: 1}
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2


class SSD1306:
    def __init__(self):
        self.bytes_received = 0  # every byte of every write, control bytes included
        self.reset()

    def reset(self):
        """The power-on state (datasheet section 8.9): display off, page mode, no remap, RAM blank."""
        self.ram = bytearray(WIDTH * PAGES)  # page-major: ram[page * 128 + column]
        self.display_on = False
        self.charge_pump = False
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.mode = PAGE
        self.col_start, self.col_end = 0, WIDTH - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.col = self.page = 0
        self.page_col_start = 0  # where page mode wraps to (set by 0x00-0x1F)
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.offset = 0
        self.mux = HEIGHT
        self._pending = []  # the command being received: opcode, then its arguments

    def write(self, data: bytes):
        """One I2C write transaction to the controller (address already matched)."""
        self.bytes_received += len(data)
        i = 0
        while i < len(data):
            control = data[i]
            chunk = data[i + 1:] if not control & 0x80 else data[i + 1:i + 2]  # Co = 0: the rest is one stream
            i += 1 + len(chunk)
            for byte in chunk:
                self._data(byte) if control & 0x40 else self._command(byte)

    def read(self, count: int) -> bytes:
        """One I2C read transaction: the status byte, count times; bit 6 set while the display is off."""
        return bytes((0 if self.display_on else 0x40,)) * count

    def _command(self, byte):
        self._pending.append(byte)
        op, *args = self._pending
        if len(args) == _ARGS.get(op, 0):  # the command is whole
            self._pending = []
            self._apply(op, args)

    def _apply(self, op, args):
        if op == 0x81:
            self.contrast = args[0]
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif op == 0x20:
            self.mode = args[0] & 3 if args[0] & 3 != 3 else PAGE
        elif op == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = args[0] & 7, args[1] & 7
            self.page = self.page_start
        elif op <= 0x0F:
            self.col = self.page_col_start = (self.page_col_start & 0xF0) | op
        elif op <= 0x1F:
            self.col = self.page_col_start = (self.page_col_start & 0x0F) | (op & 0x07) << 4
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_remap = op == 0xC8
        elif op == 0xA8:
            self.mux = max(16, (args[0] & 0x3F) + 1)
        elif op == 0xD3:
            self.offset = args[0] & 0x3F
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        # 0xD5 clock, 0xD9 precharge, 0xDB VCOMH, 0xDA COM pins, scrolling, 0xE3 NOP: not drawn

    def _data(self, byte):
        self.ram[self.page * WIDTH + self.col] = byte
        if self.mode == PAGE:
            self.col = self.col + 1 if self.col < WIDTH - 1 else self.page_col_start
        elif self.mode == HORIZONTAL:
            if self.col < self.col_end:
                self.col += 1
            else:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        elif self.page < self.page_end:  # vertical addressing
            self.page += 1
        else:
            self.page = self.page_start
            self.col = self.col + 1 if self.col < self.col_end else self.col_start

    def lit(self) -> bool:
        return self.display_on and self.charge_pump

    def glass(self) -> bytes:
        """The picture on the panel, in GDDRAM's page order (bit 0 = top pixel): what a camera
        would see, as the framebuffer a driver meant to show."""
        out = bytearray(WIDTH * PAGES)
        if not self.lit():
            return bytes(out)
        for y in range(HEIGHT):
            row = self._ram_row_at(y)
            if row is None:
                continue
            ram = self.ram[(row >> 3) * WIDTH:(row >> 3) * WIDTH + WIDTH]
            bit = 1 << (y & 7)
            base = (y >> 3) * WIDTH
            for x in range(WIDTH):
                pixel = ram[x if self.seg_remap else WIDTH - 1 - x] >> (row & 7) & 1
                if self.entire_on or pixel != self.inverse:
                    out[base + x] |= bit
        return bytes(out)

    def _ram_row_at(self, y):
        """The GDDRAM row shown on glass row y (0 = top), None when that row is dark.
        The module's COM63 is at the top: with COM scan remapped (0xC8) row counter 0 is
        driven there; the display offset moves the counter, the start line the RAM row."""
        pin = HEIGHT - 1 - y
        counter = (HEIGHT - 1 - pin if self.com_remap else pin)
        counter = (counter + self.offset) % HEIGHT  # COM k shows row k + offset (Table 10-1)
        if counter >= self.mux:
            return None
        return (counter + self.start_line) % HEIGHT
