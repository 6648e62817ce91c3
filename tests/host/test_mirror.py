"""`croupier mirror`: the terminal UI attached to a board over the serial protocol, driven by
Textual's pilot against a virtual board running the firmware."""
import asyncio
import time

from croupier.link import connect
from croupier.oled_render import pixels
from croupier.sim import VirtualBoard
from croupier.tui.mirror import MirrorApp


def run(app, steps, size=(80, 24)):
    async def main():
        async with app.run_test(size=size) as pilot:
            await steps(pilot)
    asyncio.run(main())


async def until(pilot, check, what):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if check():
            return
        await pilot.pause(0.1)
    raise AssertionError("the mirror never showed " + what)


def shows_the_glass(app, vb):
    return app.query_one("#panel").rows == pixels(vb.glass())


def total(app):
    return app.state and app.state["total"]


def test_mirror_shows_the_boards_screen_and_sends_typed_and_held_keys(vboard):
    with connect(vboard.port) as link:
        link.call("new", game="lobo77", players=["Ann", "Bob"])
        table = vboard.glass()
        app = MirrorApp(link, vboard.labels, "test board")
        seen = []

        async def steps(pilot):
            await until(pilot, lambda: shows_the_glass(app, vboard), "the board's screen")
            seen.append(app.query_one("#state").render())
            await pilot.press("9", "#")
            await until(pilot, lambda: total(app) == 9, "the card played")
            await until(pilot, lambda: shows_the_glass(app, vboard) and vboard.glass() != table, "the new total")
            await pilot.press("*")  # undo
            await until(pilot, lambda: total(app) == 0, "the undo")
            await pilot.press("h", "*")  # a long press: redo
            await until(pilot, lambda: total(app) == 9, "the redo")
            await until(pilot, lambda: shows_the_glass(app, vboard), "the board's screen after the redo")

        run(app, steps)
        assert "total 0" in str(seen[0]) and "Ann tokens 3" in str(seen[0])
        assert link.call("state")["state"]["total"] == 9  # the board itself played it


def test_a_long_mouse_press_is_sent_as_a_held_key(vboard):
    with connect(vboard.port) as link:
        link.call("new", game="lobo77", players=["Ann", "Bob"])
        link.call("play", card="7")
        link.call("undo")
        app = MirrorApp(link, vboard.labels, "test board")
        star = "#key-%d" % vboard.labels.index("*")

        async def steps(pilot):
            await until(pilot, lambda: total(app) == 0, "the game")
            await pilot.mouse_down(star)
            await pilot.pause(1.0)  # past the long press (0.6 s)
            await pilot.mouse_up(star)
            await until(pilot, lambda: total(app) == 7, "the redo")
            await pilot.click(star)  # a short click: undo
            await until(pilot, lambda: total(app) == 0, "the undo")

        run(app, steps, size=(180, 50))
        assert link.call("state")["state"]["total"] == 0


def test_a_lost_link_is_shown_not_raised(vboard):
    with connect(vboard.port) as link:
        app = MirrorApp(link, vboard.labels, "test board")

        async def steps(pilot):
            await until(pilot, lambda: shows_the_glass(app, vboard), "the board's screen")
            vboard.close()  # the board goes away: its serial port with it
            await until(pilot, lambda: "link lost" in str(app.query_one("#problem").render()), "the lost link")
            await pilot.press("5")  # keys go nowhere, nothing breaks

        run(app, steps)


def test_after_the_board_restarts_the_mirror_shows_its_game_again(tmp_path):
    # A board as `croupier sim --headless --link PATH` runs it, the mirror on PATH.
    with VirtualBoard(link=tmp_path / "tty") as vboard, connect(str(tmp_path / "tty")) as link:
        link.call("new", game="lobo77", players=["Ann", "Bob"])
        link.call("play", card="9")
        app = MirrorApp(link, vboard.labels, "test board")

        async def steps(pilot):
            await until(pilot, lambda: total(app) == 9, "the game")
            app.query_one("#state").update("")
            vboard.hard_reset()
            await until(pilot, lambda: "total 9" in str(app.query_one("#state").render()), "the game after the reset")
            await until(pilot, lambda: shows_the_glass(app, vboard), "the board's screen after the reset")

        run(app, steps)
