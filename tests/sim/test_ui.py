"""The Textual UI, driven headless by Textual's pilot."""
import asyncio
import re
import time

import pytest

from croupier.link import Link, open_serial
from croupier.sim import VirtualBoard
from croupier.tui.sim import SimApp
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


def run(app, steps, size=(180, 50)):
    async def main():
        async with app.run_test(size=size) as pilot:
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
    # a refresh that fires while the app closes, its widgets gone, is let go
    app._status = app._shown = None
    app._glass_stale = True
    app._refresh_oled()


async def until_drawn(pilot, app):
    for _ in range(100):
        await pilot.pause(0.05)
        if "█" in app.query_one("#panel").text() or "⠛" in app.query_one("#panel").text():
            return


def visible(app, widget):
    """Every cell of the widget is on screen and shows that widget (nothing clipped or covered)."""
    region = widget.region
    corners = [(region.x, region.y), (region.right - 1, region.bottom - 1)]
    size = app.size
    return region.area > 0 and all(x < size.width and y < size.height and app.get_widget_at(x, y)[0] is widget
                                   for x, y in corners)


def test_compact_layout_at_80x24_shows_the_whole_panel_and_keypad(make_board):
    board = make_board(main=DRAW)
    app = SimApp(board)
    shown = {}

    async def steps(pilot):
        await until_drawn(pilot, app)
        panel = app.query_one("#panel")
        shown["text"] = panel.text()
        shown["visible"] = [visible(app, panel)] + [visible(app, key) for key in app.query("Key")]
        shown["keys"] = len(app.query("Key"))

    run(app, steps, size=(80, 24))
    rows = shown["text"].split("\n")
    assert len(rows) == 16 and all(len(row) == 64 for row in rows)  # braille: 2x4 pixels a cell
    assert rows[0] == "⠛⠛" + "⠀" * 62  # pixels (0-3, 0-1): dots 1 2 4 5 of the first two cells
    assert rows[15] == "⠀" * 50 + "⡀" + "⠀" * 13  # pixel (100, 63): dot 7 of cell 50
    assert shown["keys"] == 16 and all(shown["visible"])


def test_layout_follows_the_terminal_size(make_board):
    board = make_board(main=DRAW)
    app = SimApp(board)
    modes = []

    async def steps(pilot):
        await until_drawn(pilot, app)
        panel = app.query_one("#panel")
        for size in [None, (80, 24), (60, 20), (170, 45)]:
            if size:
                await pilot.resize_terminal(*size)
                await pilot.pause()
            notice = app.query_one("#small")
            warned = visible(app, notice) and str(notice.render()) == (
                "Terminal %dx%d is too small: the box needs 80x24. Enlarge it." % app.size)
            modes.append((panel.mode, panel.size.width, panel.size.height, visible(app, panel), warned))

    run(app, steps)
    assert modes == [("half", 128, 32, True, False), ("braille", 64, 16, True, False),
                     ("braille", 64, 16, False, True), ("half", 128, 32, True, False)]


@pytest.fixture
def firmware_board():
    """The firmware on a virtual board, with a protocol link to look at its game."""
    with VirtualBoard() as vb:
        port = open_serial(vb.port)
        try:
            link = Link(port, timeout=5.0)
            link.hello(within=20)
            yield vb, link
        finally:
            port.close()


async def until_state(pilot, link, check, what):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = link.call("state")["state"]
        if check(state):
            return state
        await pilot.pause(0.1)
    raise AssertionError("the board never reached %s; state %r" % (what, state))


def test_typed_hash_star_and_a_held_star_enter_undo_and_redo_a_card(firmware_board):
    vb, link = firmware_board
    link.call("new", game="lobo77", players=["Ann", "Bob"])
    app = SimApp(vb)
    totals = []

    async def steps(pilot):
        await pilot.press("9", "#")  # a number, then # (ok) enters it
        totals.append((await until_state(pilot, link, lambda s: s["total"] == 9, "total 9"))["total"])
        await pilot.press("*")  # undo
        totals.append((await until_state(pilot, link, lambda s: s["total"] == 0, "the undo"))["total"])
        await pilot.press("h")
        assert "HOLD" in str(app.query_one("#hold").render())
        await pilot.press("*")  # held: redo
        assert "HOLD" not in str(app.query_one("#hold").render())  # the hold was for one key
        totals.append((await until_state(pilot, link, lambda s: s["total"] == 9, "the redo"))["total"])

    run(app, steps, size=(80, 24))
    assert totals == [9, 0, 9]
    assert vb.keys_down == []


def test_keys_typed_at_once_set_up_lobo77_and_play_every_card(firmware_board):
    """Typed faster than any person presses (a paste, a burst): queued and played one by
    one, none lost, none merged with the next (they were: totals of 8, 2 or 26, and Mau-Mau set up)."""
    vb, link = firmware_board
    app = SimApp(vb)
    seen = {}

    async def steps(pilot):
        while link.call("hello")["uptime_ms"] < 1500:  # the splash (1.2 s) gone: the game menu
            await pilot.pause(0.1)
        await pilot.press(*"13###")  # Lobo 77, 3 players, names, options, P1 deals
        seen["setup"] = await until_state(pilot, link, lambda s: s is not None, "a game")
        await pilot.press(*"2#2#2#2#2#")
        seen["played"] = await until_state(pilot, link, lambda s: s["total"] == 10, "total 10")
        for _ in range(20):  # the status line shows how long a key took to reach the screen
            seen["status"] = str(app.query_one("#status").render())
            if "key to screen" in seen["status"]:
                break
            await pilot.pause(0.1)

    run(app, steps, size=(80, 24))
    assert len(seen["setup"]["players"]) == 3 and seen["setup"]["total"] == 0
    assert seen["played"]["total"] == 10
    records = link.call("log", **{"from": 1, "max": 32})["records"]
    assert [(r[4]["game"], len(r[4]["players"])) for r in records if r[3] == "new"] == [("lobo77", 3)]
    assert [r[4] for r in records if r[3] == "play"] == ["2"] * 5
    assert re.search(r" · key to screen: \d+ ms$", seen["status"]), seen["status"]
    assert vb.keys_down == []


def test_a_long_mouse_press_on_star_redoes(firmware_board):
    vb, link = firmware_board
    link.call("new", game="lobo77", players=["Ann", "Bob"])
    link.call("play", card="7")
    link.call("undo")
    app = SimApp(vb)
    star = "#key-%d" % vb.labels.index("*")
    seen = []

    async def steps(pilot):
        await pilot.mouse_down(star)
        seen.append(vb.keys_down)
        await pilot.pause(1.0)  # past the firmware's long press (0.6 s)
        await pilot.mouse_up(star)
        state = await until_state(pilot, link, lambda s: s["total"] == 7, "the redo")
        seen.append(state["total"])

    run(app, steps)
    assert seen == [["*"], 7]


def test_quitting_a_temporary_image_says_what_is_lost_and_asks(firmware_board):
    vb, link = firmware_board  # no --flash: the image goes with the board
    link.call("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    link.call("play", card="9")
    link.port.close()  # quitting asks the board over its port, which one command holds at a time
    app = SimApp(vb, temporary_image=True)
    seen = {}

    async def until_asked(pilot):
        for _ in range(100):
            if app.screen.query("#losses"):
                return str(app.screen.query_one("#losses").render())
            await pilot.pause(0.05)
        raise AssertionError("quitting never asked")

    async def steps(pilot):
        await pilot.press("q")
        seen["asked"] = await until_asked(pilot)
        await pilot.press("n")
        await pilot.pause(0.2)
        seen["stayed"] = app.is_running and not app.screen.query("#losses")
        await pilot.press("q")
        await until_asked(pilot)
        await pilot.press("y")
        await pilot.pause(0.5)
        seen["quit"] = not app.is_running

    run(app, steps, size=(80, 24))
    assert "quitting loses 2 journal records no database has acknowledged and an unfinished " \
           "lobo77 game of Ann, Bob, Cy" in seen["asked"]
    assert "croupier sync --port %s" % vb.port in seen["asked"] and "--flash FILE" in seen["asked"]
    assert seen["stayed"] and seen["quit"]


def test_quitting_with_nothing_to_lose_asks_nothing(firmware_board):
    vb, link = firmware_board
    records = link.call("log")["records"]
    if records:  # the board's own boot records, as a sync would take them
        link.call("ack", upto=records[-1][0])
    link.port.close()  # quitting asks the board over its port, which one command holds at a time
    app = SimApp(vb, temporary_image=True)
    seen = {}

    async def steps(pilot):
        await pilot.press("q")
        for _ in range(100):
            if not app.is_running:
                break
            await pilot.pause(0.05)
        seen["quit"] = not app.is_running

    run(app, steps, size=(80, 24))
    assert seen["quit"]
