"""The firmware at the ESP32's pace, computed (docs/benchmarks.md, "At the ESP32's pace"):
a virtual board at full speed, and each operation's time on the chip worked out as the
board interpreter's own CPU time for it x the pace's calibrated factor, plus the I2C bus
and flash busy time the emulation counts (chiptime.py).
4-player Lobo 77:

1. idle: the chip's share of time busy on the game menu and on the play screen;
2. key press to finished frame: from the key's release (a short press is reported on
   release) to the last I2C write of its frame, for digits, `ok`, soft keys and undo,
   over --cards cards;
3. undo and redo by keys right after a round of 200 cards;
4. boot: from the interpreter's start to the resumed game on the glass, with a journal of
   1 game and of --games games;
5. keypad: the scan's chip time per 10 ms period while a key is held (key mashing is
   tests/bench/bench_mash.py).

Each target of docs/benchmarks.md is printed as a `target` line that says whether it holds
(tests/bench/run.py sums them up).

    .venv/bin/python tests/bench/bench_pace.py [--cards 40] [--games 1000]
                                               [--micropython-version 1.28]
"""
import argparse
import functools
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from fwlink import frames_on  # noqa: E402
from ui_run import game_keys, press_keys, random_game, setup_keys  # noqa: E402

from croupier.sim import VirtualBoard  # noqa: E402
from croupier.sim.board import RELEASES  # noqa: E402
from chiptime import chip_ms, chip_parts, emulation_ns, factor  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FRAME_QUIET_S = 0.3  # no I2C write for this long: the frame is complete
SPLASH_S = 1.2  # ui/root.py SPLASH_MS: the game's screen follows the splash
# docs/benchmarks.md's targets at the chip's speed (ms)
KEY_MEDIAN_MS, KEY_MAX_MS, UNDO_MS, BOOT_MS = 150, 400, 300, 3000


def target(name, figure, limit, holds):
    """One target's line: tests/bench/run.py collects them."""
    print("target %s: %s (target %s): %s" % (name, figure, limit, "holds" if holds else "FAILS"), flush=True)


class DisplayClock:
    """The board's work (VirtualBoard.work) at each of its I2C writes, from its I/O thread."""

    def __init__(self, vb):
        self.vb = vb
        self.writes = []  # (time, work)
        self.lock = threading.Lock()
        vb.subscribe(self.on_event)

    def on_event(self, event, data):
        if event == "display":
            with self.lock:
                self.writes.append((time.monotonic(), self.vb.work()))

    def frame_done(self, t0, timeout=5.0):
        """The work at the last write of the frame after t0, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                after = [w for w in self.writes if w[0] >= t0]
            if after and time.monotonic() - after[-1][0] > FRAME_QUIET_S:
                return after[-1][1]
            time.sleep(0.01)
        return None


class Stopwatch:
    """The chip's time (ms) from a moment to the finished frame after it."""

    def __init__(self, vb):
        self.vb, self.clock = vb, DisplayClock(vb)

    def start(self):
        self.work0 = self.vb.work()
        return time.monotonic()

    def frame_done(self, t0):
        done = self.clock.frame_done(t0)
        if done is None:
            self.parts = "no frame"
            return None
        part = chip_parts(self.vb, self.work0, done)
        self.parts = "%(cpu).0f ms CPU, %(io).0f ms reads and writes, %(flash).0f ms flash, %(bus).0f ms I2C" % part
        return chip_ms(part)


def tap(vb, clock, key, ms=80):
    """Press and release key; -> the chip's ms from the release to its finished frame."""
    vb.key_down(key)
    time.sleep(ms / 1000)
    released = clock.start()
    vb.key_up(key)
    return clock.frame_done(released)


def work_over(vb, seconds):
    """The board's work (VirtualBoard.work) before and after `seconds` of wall time."""
    before = vb.work()
    time.sleep(seconds)
    return before, vb.work()


def busy_share(vb, seconds, work=None):
    """The chip's share of `seconds` of wall time spent working (idle: what waits cost)."""
    before, after = work or work_over(vb, seconds)
    return chip_ms(chip_parts(vb, before, after)) / 1000 / seconds


def idle(vb, link, seconds):
    out = {"menu": busy_share(vb, seconds)}
    link.ok("new", game="lobo77", players=PLAYERS)
    time.sleep(2)
    out["play screen"] = busy_share(vb, seconds)
    return out


def latency(vb, link, clock, cards):
    """ms per key kind over `cards` Lobo cards typed on the keypad, then undos; and whether
    the board's game after the cards is the one typed (a key lost would change it)."""
    played, engine, effects = random_game("lobo77", 4, {}, seed=7, max_cards=cards)
    by_kind = {"digit": [], "ok": [], "soft": [], "undo": []}
    for key in game_keys("lobo77", played, effects).split():
        kind = "ok" if key == "ok" else "soft" if key in "abc" else "digit"
        by_kind[kind].append(tap(vb, clock, key))
        time.sleep(0.1)
    same = link.ok("state")["state"] == engine.state()
    for _ in range(10):
        by_kind["undo"].append(tap(vb, clock, "undo"))
        time.sleep(0.1)
    return len(played), by_kind, same


def undo_redo_after_round(vb, link, clock):
    link.ok("new", game="lobo77", players=PLAYERS)
    played = 0
    while played < 200:  # 200 cards; a round that ends starts the next, keep going
        reply = link.ok("play", card=random.Random(played).choice(["2", "3", "4", "5"]))
        played += 1
        if reply["state"]["over"]:
            link.ok("new", game="lobo77", players=PLAYERS)
    time.sleep(2)
    undo = tap(vb, clock, "undo")
    undo_parts = clock.parts
    time.sleep(0.5)
    vb.key_down("undo")
    time.sleep(0.6)
    held = clock.start()  # the hold time passes: redo
    time.sleep(0.3)
    vb.key_up("undo")
    return undo, undo_parts, clock.frame_done(held)


def fill_journal(flash, games):
    """A flash image whose journal holds `games` games (each abandoned by the next, a few
    cards each), the last one unfinished with 30 cards; -> that game's screen (glass)."""
    with VirtualBoard(flash=flash) as vb, frames_on(vb.port, boot=True) as link:
        for _ in range(games - 1):
            link.ok("new", game="lobo77", players=PLAYERS)
            for card in ("9", "5", "3"):
                link.ok("play", card=card)
        link.ok("new", game="lobo77", players=PLAYERS)
        for _ in range(30):
            link.ok("play", card="2")
        last_seq = link.ok("hello")["last_seq"]
        vb.restart()
        time.sleep(3)  # boot and splash
        return vb.glass(), last_seq


def boot_time(flash, glass):
    """The chip's seconds from the interpreter's start to the resumed game on the glass (the
    last I2C write of its frame), or None. The firmware's work counts from the moment the
    emulation has mounted the flash (before it: the unix port's and the emulation's own
    start-up, standing for the chip's ROM bootloader and MicroPython's C init); the splash's
    wall time counts where the firmware waits for it. The start-up work runs under the
    splash: max(to the splash on the glass + SPLASH_S, to the end of that work) + from the
    end of that work to the game's frame."""
    writes, booted = [], []  # (time, work) of each I2C write; the work at the mount

    def on_event(event, data):
        if event == "boot":
            booted.append(vb.work())
        elif event == "display":
            writes.append((time.monotonic(), vb.work()))

    vb = VirtualBoard(flash=flash)
    vb.subscribe(on_event)
    samples = []  # (time, work) every 10 ms: the board's work while it waits for the splash
    with vb:
        deadline = time.monotonic() + 60
        while vb.glass() != glass:
            if time.monotonic() > deadline:
                return None
            samples.append((time.monotonic(), vb.work()))
            time.sleep(0.01)
        time.sleep(FRAME_QUIET_S)  # the frame's last write
    done = writes[-1][1]
    gaps = [i for i in range(1, len(writes)) if writes[i][0] - writes[i - 1][0] > SPLASH_S / 2]
    splash = writes[gaps[-1] - 1][1]  # the splash frame's last write
    game_at = writes[gaps[-1]][0]  # the game frame's first
    waiting = [w for t, w in samples if t < game_at][-1]  # the start-up work done

    def chip(before, after):
        return chip_ms(chip_parts(vb, before, after))

    ms = max(chip(booted[0], splash) + SPLASH_S * 1000, chip(booted[0], waiting))
    return (ms + chip(waiting, done)) / 1000


def scan_cost(vb, seconds=3.0):
    """While a key is held past its hold time: the chip's ms per keypad period (10 ms), less
    the same time with every key up (the keypad asleep); the board's wake-ups a second and
    its host CPU (µs) per wake-up."""
    idle = busy_share(vb, seconds)
    vb.key_down("5")  # its long press is handled before the measurement starts
    time.sleep(1.0)
    before, after = work = work_over(vb, seconds)
    vb.key_up("5")
    time.sleep(1.0)
    runs = max(1, after["runs"] - before["runs"])
    return ((busy_share(vb, seconds, work) - idle) * 10, runs / seconds,
            (after["cpu_ns"] - before["cpu_ns"]) / 1e3 / runs)


def scan_figures():
    with VirtualBoard() as vb, frames_on(vb.port, boot=True, timeout=120):
        time.sleep(3)
        print("\n### keypad scan while a key is held\n")
        print("- %.1f ms of the chip's time per 10 ms period (%.0f wake-ups a second, %.0f µs of "
              "host CPU each)" % scan_cost(vb))


def summary(values):
    got = [v for v in values if v is not None]
    if not got:
        return "no frame"
    return "%d keys (%d without a frame), median %.0f ms, max %.0f ms" % (
        len(values), len(values) - len(got), statistics.median(got), max(got))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=40)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--micropython-version", default=RELEASES[-1], choices=RELEASES,
                        help="the release whose console the boards model")
    args = parser.parse_args()
    global VirtualBoard  # every board of the run models the release asked for
    VirtualBoard = functools.partial(VirtualBoard, micropython_version=args.micropython_version)

    with VirtualBoard() as vb, frames_on(vb.port, boot=True, timeout=120) as link:
        print("MicroPython %s; the chip's time = (the board's CPU time less %.1f µs a read or write and %.1f µs "
              "a wake-up) x %.0f (pystone's calibration) + reads and writes at the chip's cost + bus and flash "
              "time\n" % (args.micropython_version, emulation_ns(vb)["io_call"] / 1e3,
                                emulation_ns(vb)["wake"] / 1e3, factor(vb)))
        time.sleep(3)
        print("### idle (share of the chip's time busy)\n")
        for where, share in idle(vb, link, args.idle_s).items():
            print("- %s: %.2f %%" % (where, 100 * share))

    with VirtualBoard() as vb, frames_on(vb.port, boot=True, timeout=120) as link:
        clock = Stopwatch(vb)
        time.sleep(3)
        press_keys(vb, setup_keys("lobo77", 4, {}))
        time.sleep(1)
        cards, by_kind, same = latency(vb, link, clock, args.cards)
        print("\n### key press to finished frame (%d cards by keys)\n" % cards)
        print("- the board's game after them: %s" % (
            "the one typed" if same else "DIFFERS from the one typed (a key was lost)"))
        for kind, values in by_kind.items():
            print("- %s: %s" % (kind, summary(values)))
        undo, undo_parts, redo = undo_redo_after_round(vb, link, clock)
        print("\n### right after a round of 200 cards\n")
        print("- undo key: %s ms (%s); redo (long press): %s ms" % (
            "%.0f" % undo if undo else "no frame", undo_parts, "%.0f" % redo if redo else "no frame"))
    keys = [v for values in by_kind.values() for v in values if v is not None]
    target("key to frame, median", "%.0f ms" % statistics.median(keys), "<= %d ms" % KEY_MEDIAN_MS,
           statistics.median(keys) <= KEY_MEDIAN_MS and same)
    target("key to frame, max", "%.0f ms" % max(keys), "<= %d ms" % KEY_MAX_MS, max(keys) <= KEY_MAX_MS)
    target("undo after 200 cards", "%.0f ms" % undo if undo else "no frame", "<= %d ms" % UNDO_MS,
           bool(undo) and undo <= UNDO_MS)

    print("\n### boot (interpreter start to the resumed game on the glass)\n")
    with tempfile.TemporaryDirectory() as tmp:
        for games in (1, args.games):
            flash = Path(tmp) / ("flash-%d.img" % games)
            glass, records = fill_journal(flash, games)
            seconds = boot_time(flash, glass)
            print("- journal of %d games (%d records): %s" % (
                games, records, "%.2f s" % seconds if seconds else "not within 60 s"))
    target("boot with %d games" % args.games, "%.2f s" % seconds if seconds else "no boot",
           "<= %.0f s" % (BOOT_MS / 1000), bool(seconds) and seconds * 1000 <= BOOT_MS)
    scan_figures()


if __name__ == "__main__":
    main()
