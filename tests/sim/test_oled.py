"""The SSD1306 model: a program drawing through I2C leaves exactly its pixels on the glass,
which goes dark when the board's power goes."""
import serial

from croupier.oled_render import render
from croupier.sim.oled import SSD1306

# A driver as micropython-lib's: init sequence, horizontal addressing, whole frame per show().
DRAWING = """
import framebuf
from machine import I2C, Pin

INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
        0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)

class Display(framebuf.FrameBuffer):
    def __init__(self, i2c):
        self.i2c = i2c
        self.buf = bytearray(1024)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        for c in INIT:
            self.i2c.writeto(60, bytes((0x80, c)))

    def show(self):
        for c in (0x21, 0, 127, 0x22, 0, 7):
            self.i2c.writeto(60, bytes((0x80, c)))
        self.i2c.writevto(60, (b"\\x40", self.buf))

i2c = I2C(0, scl=Pin(22), sda=Pin(21), freq=400000)
assert i2c.scan() == [60]
d = Display(i2c)
d.fill_rect(10, 20, 5, 3, 1)
d.pixel(127, 63, 1)
d.show()
print("drawn")
"""


def lit(fb):
    return {(x, y) for y in range(64) for x in range(128) if fb[(y >> 3) * 128 + x] >> (y & 7) & 1}


def test_program_drawing_leaves_exactly_its_pixels(make_board):
    board = make_board(main=DRAWING)
    board.wait_output(b"drawn")
    expected = {(x, y) for x in range(10, 15) for y in range(20, 23)} | {(127, 63)}
    assert lit(board.glass()) == expected
    assert board.oled.display_on and board.oled.contrast == 0xFF
    assert board.i2c_bytes == 25 * 2 + 6 * 2 + 1025  # commands as (0x80, cmd) pairs, then the frame
    image = render(board.glass(), scale=4, contrast=board.oled.contrast)
    assert image.size == (512, 256)
    assert image.getpixel((127 * 4 + 1, 63 * 4 + 1)) != image.getpixel((0, 0))


def test_the_glass_goes_dark_when_the_power_goes(make_board):
    board = make_board(main="import machine\nif machine.reset_cause() == machine.HARD_RESET:\n"
                            "    import draw\n    input()\n    open('log', 'w').write('x')\n",
                       files={"draw.py": DRAWING})

    def draw():  # the EN button: the program draws, then waits for a line
        mark = board.mark()
        board.hard_reset()
        board.wait_output(b"drawn", since=mark)
        assert any(board.glass())

    draw()
    board.restart()  # a power cycle
    board.wait_boot(3)
    assert board.glass() == bytes(1024)
    draw()
    board.power_off()
    board.wait_off()
    assert board.glass() == bytes(1024)
    board.restart()
    board.wait_boot(5)
    draw()
    board.cut_power(after_writes=1)
    with serial.Serial(board.port, 115200, timeout=0.1) as port:
        port.write(b"\r")  # the line, then the write the power dies at
        board.wait_off()
    assert board.glass() == bytes(1024)


def init(oled, *commands):
    oled.write(bytes([0x00, *commands]))


def test_page_mode_wraps_to_its_start_column_and_no_remap_mirrors_the_glass():
    oled = SSD1306()
    init(oled, 0x8D, 0x14, 0xAF, 0xB3, 0x0E, 0x17)  # lit; page mode: page 3, column 0x7E
    oled.write(bytes([0x40, 0x01, 0x02, 0x04]))  # 126, 127, then back to the start column 126
    assert oled.ram[3 * 128 + 126] == 0x04 and oled.ram[3 * 128 + 127] == 0x02
    assert oled.ram[4 * 128:].count(0) == 4 * 128  # the page did not advance
    # reset state (no segment remap, COM scan normal): the panel shows RAM turned by 180 degrees
    assert lit(oled.glass()) == {(1, 63 - 26), (0, 63 - 25)}
    init(oled, 0x40 | 2, 0xD3, 1)  # start line 2, offset 1: the picture moves on the glass
    assert lit(oled.glass()) == {(1, 63 - 26 + 2 + 1), (0, 63 - 25 + 2 + 1)}


def test_vertical_mode_fills_the_window_column_by_column():
    oled = SSD1306()
    init(oled, 0x8D, 0x14, 0xAF, 0xA1, 0xC8, 0x20, 0x01, 0x21, 10, 11, 0x22, 2, 3)
    oled.write(bytes([0x40, 1, 2, 3, 4, 5]))  # (10,p2) (10,p3) (11,p2) (11,p3) then back to (10,p2)
    assert oled.ram[2 * 128 + 10] == 5 and oled.ram[3 * 128 + 10] == 2
    assert oled.ram[2 * 128 + 11] == 3 and oled.ram[3 * 128 + 11] == 4
    assert lit(oled.glass()) == {(10, 16), (10, 25), (11, 16), (11, 17), (11, 26)} | {(10, 18)}


def test_display_off_inverse_and_entire_on():
    oled = SSD1306()
    init(oled, 0x8D, 0x14, 0xA1, 0xC8)
    oled.write(bytes([0x40, 0xFF]))
    assert lit(oled.glass()) == set()  # display still off
    init(oled, 0xAF, 0xA7)
    assert len(lit(oled.glass())) == 128 * 64 - 8  # inverse: all but the 8 lit RAM pixels
    init(oled, 0xA5)
    assert len(lit(oled.glass())) == 128 * 64
    init(oled, 0xA4, 0xA6, 0x81)  # contrast waits for its argument...
    assert oled.contrast == 0x7F
    oled.write(bytes([0x80, 0x10]))  # ...which may come in the next transaction
    assert oled.contrast == 0x10 and oled.read(2) == b"\x00\x00"
    init(oled, 0xAE)
    assert oled.read(1) == b"\x40"
