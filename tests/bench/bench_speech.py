"""The box speaking (docs/benchmarks.md, "Speech"), on virtual boards with the synthesized
voices, 4-player Lobo 77:

1. heap held (gc.mem_alloc() after gc.collect(), heap 1m) at the menu, in play, and while
   an announcement plays, with the voices on the flash and without;
2. speech start: at --pace esp32, from the last I2C write of a card's frame to the first
   sample the speaker plays (wall time: the throttle holds the chip's pace);
3. key to frame while the box speaks: the chip's time, as bench_pace.py measures it, over
   --cards cards typed 0.1 s apart (each card's announcement still playing).

    .venv/bin/python tests/bench/bench_speech.py [--cards 40]
"""
import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from bench_pace import KEY_MAX_MS, KEY_MEDIAN_MS, PLAYERS, Stopwatch, latency, target  # noqa: E402
from fwlink import HEAP, frames_on  # noqa: E402
from ui_run import press_keys, wait_for_screen  # noqa: E402

from croupier.deploy import Mpremote  # noqa: E402
from croupier.sim import VirtualBoard  # noqa: E402

START_MS = 150  # the issue's: speech starts within 150 ms of the frame that shows the total
CARDS = ["9 ok", "1 0 ok", "3 ok", "5 0 ok", "5 ok", "6 6 ok", "2 ok", "7 ok"]
SAID_S = 4  # the longest of CARDS' announcements is said within this
BYTES_PER_S = 16000  # the speaker's PCM: 8 kHz, 16-bit mono
HELD = r'''
import asyncio, gc, boards
from croupier import app
a = app.App(boards.load())
def held(what):
    gc.collect()
    print("HELD", what, gc.mem_alloc())
async def probe():
    await asyncio.sleep_ms(2500)  # past the splash: the menu is drawn
    held("menu")
    a.controller.new("lobo77", %r, {})
    await asyncio.sleep_ms(2000)
    held("play")
    a.controller.play("33")  # a doublet: three seconds of speech
    await asyncio.sleep_ms(700)
    held("speaking")
    a.failed.set()
async def both():
    asyncio.create_task(probe())
    await a.main()
asyncio.run(both())
''' % (PLAYERS,)


def heap_held(voices):
    """{moment: bytes held} on a board with or without the voices."""
    with VirtualBoard(heap="1m", voices=voices) as vb:
        vb.wait_boot(timeout=20)
        out = Mpremote(vb.port).run("soft-reset", "exec", HELD, timeout=90)
    return {line.split()[1]: int(line.split()[2]) for line in out.splitlines() if line.startswith("HELD ")}


def speech_start():
    """ms from each card's frame to its first sample played, at the chip's pace."""
    events, lock = [], threading.Lock()

    def on_event(event, data):
        if event in ("display", "audio"):
            with lock:
                events.append((time.monotonic(), event, len(data) if data else 0))

    with VirtualBoard(heap=HEAP, voices=True, pace="esp32") as vb:
        vb.wait_boot(timeout=30)
        wait_for_screen(vb, "game_menu", timeout=30)
        press_keys(vb, "1 ok ok ok ok")
        time.sleep(2)
        vb.subscribe(on_event)
        starts = []
        for keys in CARDS:
            *first, last = keys.split()
            press_keys(vb, " ".join(first))
            vb.key_down(last)
            time.sleep(0.08)
            released = time.monotonic()
            vb.key_up(last)
            time.sleep(SAID_S)
            with lock:
                after = [e for e in events if e[0] >= released]
            sound = [e for e in after if e[1] == "audio"]
            if not sound:
                starts.append(None)
                continue
            began = sound[0][0] - sound[0][2] / BYTES_PER_S  # bytes already played
            frame = [e[0] for e in after if e[1] == "display" and e[0] <= began]
            starts.append(round((began - frame[-1]) * 1000) if frame else None)
        return starts


def keys_while_speaking(cards):
    with VirtualBoard(heap=HEAP, voices=True) as vb, frames_on(vb.port, boot=True) as link:
        clock = Stopwatch(vb)
        time.sleep(2)
        link.ok("new", game="lobo77", players=PLAYERS)
        time.sleep(1.5)
        _, by_kind, _ = latency(vb, link, clock, cards)
        spoken = len(vb.audio.pcm()) / BYTES_PER_S
    return [ms for kind in by_kind.values() for ms in kind if ms is not None], spoken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=40)
    args = parser.parse_args()

    without, with_voices = heap_held(False), heap_held(True)
    print("heap held (bytes, heap 1m)   without voices   with voices   speech's")
    for moment in ("menu", "play", "speaking"):
        print("  %-26s %14d %13d %10d" % (moment, without[moment], with_voices[moment],
                                          with_voices[moment] - without[moment]))

    starts = speech_start()
    found = [ms for ms in starts if ms is not None]
    print("speech start after the frame at pace (ms): %s" % starts)
    target("speech start after its frame, max", "%d ms" % max(found) if found else "no speech",
           "<= %d ms" % START_MS, len(found) == len(starts) and max(found) <= START_MS)

    keys, spoken = keys_while_speaking(args.cards)
    print("key to frame while speaking: %d keys, %.1f s of speech played" % (len(keys), spoken))
    target("key to frame while speaking, median", "%.0f ms" % statistics.median(keys),
           "<= %d ms" % KEY_MEDIAN_MS, statistics.median(keys) <= KEY_MEDIAN_MS)
    target("key to frame while speaking, max", "%.0f ms" % max(keys), "<= %d ms" % KEY_MAX_MS,
           max(keys) <= KEY_MAX_MS)


if __name__ == "__main__":
    main()
