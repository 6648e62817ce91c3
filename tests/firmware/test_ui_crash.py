"""The app's global exception handling: a bug shows a crash screen instead of dying, the
journal keeps every confirmed card, and the app starts again where the game was."""
import json

CRASH_SCRIPT = r'''
import asyncio, binascii, framebuf, json, sys
from croupier.app import App
from croupier.keys import Keypad

LABELS = ("1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C", "*", "0", "#", "D")


class Glass(framebuf.FrameBuffer):
    """The display at its edge: the frame buffer the driver would send."""

    def __init__(self):
        self.buffer = bytearray(1024)
        self.width, self.height = 128, 64
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)

    def show(self, full=False):
        pass


class Tunes:
    """The buzzer at its edge: the names of the tunes asked for."""

    def __init__(self):
        self.names = []

    def play(self, name):
        self.names.append(name)

    async def run(self):
        await asyncio.Event().wait()


class Board:
    NAME = "test"
    JOURNAL_DIR = sys.argv[1]
    SETTINGS = sys.argv[1] + ".settings"

    def __init__(self):
        self.glass, self.tunes, self.keys = Glass(), Tunes(), Keypad((), (), LABELS)

    def display(self):
        return self.glass

    def keypad(self):
        return self.keys

    def buzzer(self):
        return self.tunes

    def unique_id(self):
        return "00"

    def rtc(self):
        return None  # no clock module fitted

    def speaker(self, playing=None, values=None):
        return None  # no voice


class Broken:
    def key(self, k, hold):
        raise RuntimeError("boom")

    def draw(self, fb):
        pass


def power_on():
    """The app as main.py starts it; argv[2] == "1" makes the journal's first opening run out
    of memory, as a start on a too small heap would."""
    import croupier.journal

    real, opened = croupier.journal.Journal, []

    def journal(path, clock=None):
        opened.append(path)
        if len(opened) == 1 and sys.argv[2] == "1":
            raise MemoryError("memory allocation failed, allocating 1024 bytes")
        return real(path, clock)

    croupier.journal.Journal = journal
    return App(Board()), opened


async def startup_scenario(app, opened):
    running = asyncio.create_task(app.run())
    await asyncio.sleep_ms(1000)  # a crash loop would have retried many times by now
    crash = binascii.hexlify(app.display.buffer).decode()
    waited = len(opened)
    app.keypad.inject("ok")
    await asyncio.sleep_ms(1500)  # tried again: the splash, then the game menu
    print(json.dumps({"crash": crash, "opened_while_waiting": waited,
                      "opened": len(opened), "screen": type(app.ui.screen).__name__,
                      "tunes": app.buzzer.names}))
    running.cancel()


async def scenario(app):
    running = asyncio.create_task(app.main())
    await asyncio.sleep_ms(1500)  # the splash
    for k in ("1", "ok", "ok", "ok", "ok", "9", "ok"):
        app.keypad.inject(k)
        await asyncio.sleep_ms(20)
    before = app.controller.state()
    app.ui.screen = Broken()
    app.keypad.inject("5")
    await asyncio.sleep_ms(200)
    crash = binascii.hexlify(app.display.buffer).decode()
    await running  # main() ends after the crash screen; run() would start it again
    again = asyncio.create_task(app.main())
    await asyncio.sleep_ms(1500)
    print(json.dumps({"before": before, "after": app.controller.state(), "crash": crash,
                      "screen": type(app.ui.screen).__name__, "tunes": app.buzzer.names}))
    again.cancel()


app, opened = power_on()
asyncio.run(startup_scenario(app, opened) if sys.argv[2] == "1" else scenario(app))
'''


def test_a_bug_shows_the_crash_screen_and_the_game_goes_on(mpy, tmp_path):
    out = mpy(CRASH_SCRIPT, tmp_path / "journal", 0, timeout=60)
    assert "RuntimeError: boom" in out  # the traceback went to the console
    result = json.loads(out.strip().splitlines()[-1])
    frame = bytes.fromhex(result["crash"])
    assert all(b & 0x07 == 0x07 for b in frame[:128])  # the CRASH banner's top rows
    assert any(frame[3 * 128:7 * 128])  # the cause and "journal is safe" below it
    assert result["before"]["total"] == 9
    assert result["after"] == result["before"]  # rebuilt from the journal
    assert result["screen"] == "Play"
    assert "error" in result["tunes"]


def test_running_out_of_memory_at_start_shows_the_crash_screen_once_and_waits_for_a_key(
        mpy, tmp_path):
    out = mpy(CRASH_SCRIPT, tmp_path / "journal", 1, timeout=60)
    assert out.count("MemoryError") == 1  # one crash report: no crash loop
    result = json.loads(out.strip().splitlines()[-1])
    frame = bytes.fromhex(result["crash"])
    assert all(b & 0x07 == 0x07 for b in frame[:128])  # the CRASH banner
    assert any(frame[7 * 128:])  # and under it, that a key tries again
    assert result["opened_while_waiting"] == 1  # no retry before the key
    assert result["opened"] == 2 and result["screen"] == "ListScreen"  # the game menu
    assert result["tunes"][0] == "error"
