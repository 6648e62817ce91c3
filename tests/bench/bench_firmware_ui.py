"""Firmware UI figures (docs/benchmarks.md, "Firmware UI"):

1. key-press-to-screen latency on the virtual board: from the key's release (a short press
   is reported on release) to the first and the last I2C write of the new frame;
2. heap: the smallest MicroPython heap that plays whole games (UI + controller + journal +
   rules, and the whole firmware on the virtual board), and micropython.mem_peak();
3. the full key-mashing run (tests/firmware/test_mash.py as a script).

    .venv/bin/python tests/bench/bench_firmware_ui.py
"""
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from ui_run import (UiRunError, game_keys, press_keys, random_game, run_ui,  # noqa: E402
                    setup_keys, wait_until)

from fwlink import frames_on  # noqa: E402
from croupier.paths import micropython_binary  # noqa: E402

FRAME_QUIET_S = 0.05  # no I2C write for this long: the frame is complete


class DisplayClock:
    """Times of the board's I2C writes, from its I/O thread."""

    def __init__(self, vb):
        self.times = []
        self.lock = threading.Lock()
        vb.subscribe(self.on_event)

    def on_event(self, event, data):
        if event == "display":
            with self.lock:
                self.times.append(time.monotonic())

    def frame_after(self, t0, timeout=2.0):
        """(first, last) write time of the frame that follows t0, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                after = [t for t in self.times if t >= t0]
            if after and time.monotonic() - after[-1] > FRAME_QUIET_S:
                return after[0], after[-1]
            time.sleep(0.005)
        return None


def latency(heap, cards=40):
    """Latency of every key of `cards` Lobo 77 cards typed on a fresh board."""
    from croupier.sim import VirtualBoard

    by_kind = {"digit": [], "ok": [], "soft": []}
    i2c = {"digit": [], "ok": [], "soft": []}
    with VirtualBoard(heap=heap) as vb:
        vb.wait_boot(timeout=20)
        time.sleep(2.0)  # the splash
        press_keys(vb, setup_keys("lobo77", 4, {}))
        clock = DisplayClock(vb)
        played, engine, effects = random_game("lobo77", 4, {}, seed=7, max_cards=cards)
        for key in game_keys("lobo77", played, effects).split():
            kind = "ok" if key == "ok" else "soft" if key in "abc" else "digit"
            before = vb.i2c_bytes
            vb.key_down(key)
            time.sleep(0.08)
            released = time.monotonic()
            vb.key_up(key)
            frame = clock.frame_after(released)
            if frame:
                by_kind[kind].append(((frame[0] - released) * 1000, (frame[1] - released) * 1000))
                i2c[kind].append(vb.i2c_bytes - before)
            time.sleep(0.06)
    return by_kind, i2c


def smallest_heap(fits, low_kb, high_kb, step_kb=8):
    """The smallest heap (KB, to step_kb) for which fits('NK') holds; None above high_kb."""
    if not fits("%dK" % high_kb):
        return None
    while high_kb - low_kb > step_kb:
        mid = (low_kb + high_kb) // 2
        if fits("%dK" % mid):
            high_kb = mid
        else:
            low_kb = mid
    return high_kb


def driver_game_fits(game, count, options, seed):
    cards, engine, effects = random_game(game, count, options, seed)
    script = [("tick", 1500), ("keys", setup_keys(game, count, options)),
              ("keys", game_keys(game, cards, effects)), ("snap", "end")]

    def fits(heap):
        with tempfile.TemporaryDirectory() as tmp:
            try:
                end = run_ui(micropython_binary(), Path(tmp), script, heap=heap)[-1]
            except UiRunError:
                return False
        return end["state"] == engine.state()

    return fits, len(cards), script


def board_game_fits(heap, cards=30):
    """The whole firmware on the virtual board boots and takes `cards` Lobo cards by keys."""
    from croupier.sim import SimError, VirtualBoard

    played, engine, effects = random_game("lobo77", 4, {}, seed=3, max_cards=cards)
    with VirtualBoard(heap=heap) as vb, frames_on(vb.port) as link:
        try:
            vb.wait_boot(timeout=20)
            time.sleep(2.0)
            press_keys(vb, setup_keys("lobo77", 4, {}) + " " + game_keys("lobo77", played, effects))
        except (TimeoutError, SimError):  # not up, or stopped reading its keypad
            return False
        try:
            wait_until(lambda: b"Error" in vb.output()
                       or link.ok("state")["state"] == engine.state(), 10, "the last card")
        except AssertionError:
            return False
        return b"Error" not in vb.output()


def mem_peak_of_a_game():
    fits, cards, script = driver_game_fits("lobo77", 4, {}, 1)
    with tempfile.TemporaryDirectory() as tmp:
        end = run_ui(micropython_binary(), Path(tmp), script, heap="1M")[-1]
    return cards, end["mem_peak"]


def row(name, values):
    first = [v[0] for v in values]
    last = [v[1] for v in values]
    return "| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (
        name, len(values), statistics.median(first), max(first), statistics.median(last),
        max(last))


def main():
    print("### key-press-to-screen latency (virtual board, heap 256k, Lobo 77, 4 players)\n")
    by_kind, i2c = latency("256k")
    print("| key | presses | first I2C write, median ms | max ms | frame done, median ms | max ms |")
    print("|---|---|---|---|---|---|")
    for kind in ("digit", "ok", "soft"):
        if by_kind[kind]:
            print(row(kind, by_kind[kind]))
    print("\nI2C bytes per key (median): " + ", ".join(
        "%s %d" % (k, statistics.median(v)) for k, v in i2c.items() if v))

    print("\n### heap\n")
    for game, count, options, seed in (("lobo77", 4, {}, 1), ("basta", 4, {}, 1)):
        fits, cards, _ = driver_game_fits(game, count, options, seed)
        kb = smallest_heap(fits, 32, 1024)
        print("- UI + controller + journal + rules, whole %s game (%d cards, 4 players): "
              "smallest heap %s KB" % (game, cards, kb))
    for heap in ("64k", "96k", "128k", "160k", "192k"):
        print("- whole firmware on the virtual board, boot + 30 Lobo cards by keys at %s: %s"
              % (heap, "ok" if board_game_fits(heap) else "fails (MemoryError)"))
    cards, peak = mem_peak_of_a_game()
    print("- micropython.mem_peak() after a whole Lobo game (%d cards) in the UI driver: %d "
          "bytes" % (cards, peak))

    print("\n### key mashing\n")
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "firmware" / "test_mash.py"),
                           "--keys", "5000", "--seeds", "1", "2", "3", "4", "5"],
                          capture_output=True, text=True, timeout=900)
    print(done.stdout + done.stderr)
    if done.returncode:
        raise SystemExit("mashing failed")


if __name__ == "__main__":
    main()
