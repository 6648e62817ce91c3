"""Firmware I/O figures (docs/benchmarks.md, "Firmware I/O"):

1. bytes on the I2C bus per card entered on the keypad (digits + `#`), against a full frame
   (1,025 bytes: control byte + 1,024 data bytes), on the virtual board;
2. journal boot time (Journal() + resume of the unfinished game) with 1 and with 1,000
   games stored, on the MicroPython unix port with the compiled firmware on a real littlefs;
3. protocol fuzz: 10,000 random and malformed frames against the virtual board, each answered
   with the right error or ignored as noise, the game unchanged afterwards.

    .venv/bin/python tests/bench/bench_firmware_io.py [--heap 256k] [--fuzz 10000]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from fwlink import frames_on  # noqa: E402
from test_link_fuzz import run_fuzz  # noqa: E402
from ui_run import card_keys  # noqa: E402
from croupier.build import build_firmware  # noqa: E402
from croupier.paths import micropython_binary  # noqa: E402

FULL_FRAME = 1025
CARDS = ["9", "5", "1", "8", "7", "4", "6", "3", "2", "9", "10", "-10", "2x", "5", "6"]

BOOT = r'''
import gc, json, sys, time
from ramflash import RamFlash, mount
from croupier.journal import Journal
from croupier.controller import Controller
games = int(sys.argv[1])
flash = RamFlash(blocks=400)
mount(flash, fresh=True)
j = Journal("/flash/j")
setup = {"game": "lobo77", "players": ["Ann", "Bob", "Cy", "Dee"], "options": {}}
for g in range(games - 1):  # finished games, never acked
    gid = j.append(None, "new", setup)
    for card in ("9", "5", "10", "3", "8", "7", "4", "6"):
        j.append(gid, "play", card)
    j.append(gid, "end", {"over": True})
gid = j.append(None, "new", setup)
for i in range(30):
    j.append(gid, "play", "2")
best = None
for _ in range(5):
    gc.collect()
    t = time.ticks_us()
    booted = Journal("/flash/j")
    c = Controller(booted)
    c.resume()
    dt = time.ticks_diff(time.ticks_us(), t)
    best = dt if best is None else min(best, dt)
print(json.dumps({"games": games, "records": j.last_seq, "boot_ms": best / 1000,
                  "scanned": booted._in_segment, "total": c.state()["total"]}))
'''


FRAME_GAP_S = 0.015  # I2C writes closer than this belong to one show()


def frames_in(times):
    """How many show() calls a list of I2C write times holds."""
    return sum(1 for i, t in enumerate(times) if i == 0 or t - times[i - 1] > FRAME_GAP_S)


def i2c_per_card(heap):
    """-> [(bytes, frames)] per card entered on the keypad."""
    from croupier.sim import VirtualBoard
    per_card = []
    with VirtualBoard(heap=heap) as vb, frames_on(vb.port, boot=True) as frames:
        writes = []
        vb.subscribe(lambda event, data: writes.append(time.monotonic()) if event == "display" else None)
        frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy", "Dee"])
        time.sleep(0.5)
        for card in CARDS:
            before_total = frames.ok("state")["state"]
            start = vb.i2c_bytes
            del writes[:]
            for key in card_keys("lobo77", card).split():
                vb.press(key, ms=70, gap=60)
            deadline = time.monotonic() + 5
            while frames.ok("state")["state"] == before_total and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.4)  # the last frame is out
            per_card.append((vb.i2c_bytes - start, frames_in(list(writes))))
    return per_card


def boot_times():
    staging = build_firmware()
    path = "%s:%s:.frozen" % (staging, ROOT / "tests" / "firmware")
    out = []
    for games in (1, 1000):
        proc = subprocess.run([micropython_binary(), "-X", "heapsize=4M", "-c", BOOT, str(games)],
                              capture_output=True, text=True, timeout=900,
                              env={"MICROPYPATH": path}, cwd="/tmp")
        if proc.returncode:
            raise SystemExit("boot benchmark failed:\n" + proc.stdout + proc.stderr)
        out.append(json.loads(proc.stdout.splitlines()[-1]))
    return out


def fuzz(heap, n):
    from croupier.sim import VirtualBoard

    with VirtualBoard(heap=heap) as vb, frames_on(vb.port, boot=True) as frames:
        frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
        frames.ok("play", card="9")
        before = frames.ok("state")["state"]
        start = time.monotonic()
        counts = run_fuzz(frames, n, seed=2026)
        elapsed = time.monotonic() - start
        assert frames.ok("state")["state"] == before, "fuzz changed the game"
        return counts, elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heap", default="256k", help="virtual board heap")
    parser.add_argument("--fuzz", type=int, default=10000, help="fuzz frames")
    args = parser.parse_args()

    per_card = i2c_per_card(args.heap)
    sizes = [b for b, _ in per_card]
    shows = sum(f for _, f in per_card)
    print("I2C bytes per card entry (%d cards): mean %.0f, median %.0f, max %d = %.0f%% of one"
          " full frame (%d bytes); %.1f frames per card, %.0f bytes per frame (%.0f%%)"
          % (len(sizes), statistics.mean(sizes), statistics.median(sizes), max(sizes),
             100 * statistics.mean(sizes) / FULL_FRAME, FULL_FRAME, shows / len(sizes),
             sum(sizes) / shows, 100 * sum(sizes) / shows / FULL_FRAME))
    print("  per card (bytes, frames):", per_card)
    for row in boot_times():
        print("journal boot with %(games)d games (%(records)d records): %(boot_ms).1f ms,"
              " %(scanned)d records read from the active segment" % row)
    counts, elapsed = fuzz(args.heap, args.fuzz)
    print("fuzz: %d frames in %.0f s, every one answered correctly or ignored; by expected answer: %s"
          % (sum(counts.values()), elapsed,
             ", ".join("%s %d" % (k or "noise", v) for k, v in sorted(counts.items(), key=str))))


if __name__ == "__main__":
    main()
