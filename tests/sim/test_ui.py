"""The Textual UI, driven headless by Textual's pilot."""
import asyncio

from croupier.sim.ui import SimApp
from test_keypad import SCANNER

DRAW = """
import framebuf
from machine import I2C, Pin
i2c = I2C(0, scl=Pin(22), sda=Pin(21))
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
fb.fill_rect(0, 0, 4, 2, 1)   # two pixel rows: one full-block cell row, cells 0-3
fb.pixel(100, 63, 1)          # the bottom half of the last cell row
for c in (0x8D, 0x14, 0xAF, 0xA1, 0xC8, 0x20, 0x00):
    i2c.writeto(60, bytes((0x80, c)))
i2c.writevto(60, (b"\\x40", buf))
"""


def run(app, steps):
    async def main():
        async with app.run_test(size=(180, 50)) as pilot:
            await steps(pilot)
    asyncio.run(main())


def test_clicking_a_key_reaches_the_board_and_shortcuts_press_keys(make_board):
    board = make_board(main=SCANNER.replace("line = sys.stdin.readline()", "time.sleep_ms(5)")
                       .replace('print("keys:"', 'k = "".join(labels[i] for i in range(16) if found[i])\n'
                                                 '    k and print("keys:"'))
    board.wait_output(b"ready")
    app = SimApp(board)

    async def until_seen(pilot, text, mark):
        for _ in range(100):
            if text in board.output(mark):
                return
            await pilot.pause(0.05)

    async def steps(pilot):
        assert board.port in str(app.query_one("#where").render())
        mark = board.mark()
        await pilot.click("#key-8")  # the "7" key (labels row by row: 1 2 3 A 4 5 6 B 7 ...)
        await until_seen(pilot, b"keys:7.", mark)
        mark = board.mark()
        await pilot.press("enter")
        await until_seen(pilot, b"keys:#.", mark)

    run(app, steps)
    out = board.output()
    assert b"keys:7." in out and b"keys:#." in out
    assert board.keys_down == []  # every click and shortcut was released


def test_oled_pane_shows_the_boards_pixels(make_board):
    board = make_board(main=DRAW)
    app = SimApp(board)
    shown = []

    async def steps(pilot):
        for _ in range(100):
            await pilot.pause(0.05)
            text = app.query_one("#panel").text()
            if "█" in text:
                shown.append(text)
                break

    run(app, steps)
    rows = shown[0].split("\n")
    assert len(rows) == 32 and all(len(row) == 128 for row in rows)
    assert rows[0] == "████" + " " * 124
    assert rows[31] == " " * 100 + "▄" + " " * 27
    assert all(row.strip() == "" for row in rows[1:31])
