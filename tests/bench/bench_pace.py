"""The firmware at the ESP32's pace (docs/benchmarks.md, "At the ESP32's pace"), on a
virtual board run with pace="esp32" (croupier.sim.pace), 4-player Lobo 77:

1. idle: the interpreter's CPU time as a share of the paced budget (wall time / the gauge's
   factor) on the game menu, on the play screen and while a round-end announcement waits;
2. key press to finished frame on the OLED: from the key's release (a short press is
   reported on release) to the last I2C write of its frame, for digits, `ok`, soft keys and
   undo, over --cards cards;
3. boot: from the interpreter's start to the resumed game on the glass, with a journal of
   1 game and of --games games;
4. link: --requests requests of 220 bytes (the protocol maximum) sent at line rate while
   keys are pressed, each answered intact; then 1,500 hostile lines at line rate, and how
   long after the last one the board answers `hello`, its state unchanged;
5. undo and redo by keys right after a round of 200 cards;
6. keypad: the scan's CPU per 10 ms period while a key is held (key mashing is
   tests/bench/bench_mash.py).

    .venv/bin/python tests/bench/bench_pace.py [--cards 40] [--games 1000] [--requests 100]
                                               [--pace none]

With --pace none the board runs at full speed and every figure is the interpreter's host CPU
time scaled by the ESP32 profile's speed ratio (the chip's time for the same work, when nothing
waits on the line or the flash); the link figures then need the paced line and are left out.
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
from fwlink import frame, frames_on, longest_hello  # noqa: E402
from ui_run import game_keys, press_keys, random_game, setup_keys  # noqa: E402

from croupier.sim import VirtualBoard  # noqa: E402
from croupier.sim.board import RELEASES  # noqa: E402
from croupier.sim.pace import PROFILES  # noqa: E402
from ranks import percentile  # noqa: E402

PACE = "esp32"
RATIO = PROFILES[PACE].speed_ratio  # a full-speed board: host CPU time x RATIO = the chip's time
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FRAME_QUIET_S = 0.3  # no I2C write for this long: the frame is complete (a paced board
# may pause between the pages of one frame)
LINE_BITS = 10  # 8N1
HOSTILE_LINES = 1500
SPLASH_S = 1.2  # ui/root.py SPLASH_MS: the game's screen follows the splash


def cpu_s(pid):
    """CPU time the process has had (s), as the scheduler counts it."""
    with open("/proc/%d/schedstat" % pid) as f:
        return int(f.read().split()[0]) / 1e9


def credited_s(vb):
    """CPU time the pacer gave back so far (the emulation's own and its stop/continue)."""
    return vb.throttle.credited_ns / 1e9 if vb.throttle else 0.0


def budget_s(vb):
    """The paced budget so far (s): wall time / the gauge's factor, as it moved."""
    return vb.throttle.budget_ns / 1e9


def budget_share(vb, seconds):
    """The interpreter's CPU time over `seconds` of wall time, less what the pacer credits
    back, as a share of the paced budget meanwhile; at full speed, the chip's share (host
    CPU time x the speed ratio / wall time)."""
    pid = vb._proc.pid
    cpu0, credit0, t0 = cpu_s(pid), credited_s(vb), time.monotonic()
    budget0 = budget_s(vb) if vb.pace else 0.0
    time.sleep(seconds)
    budget = budget_s(vb) - budget0 if vb.pace else (time.monotonic() - t0) / RATIO
    return (cpu_s(pid) - cpu0 - (credited_s(vb) - credit0)) / budget


class DisplayClock:
    """Times of the board's I2C writes, and the interpreter's CPU time at each (from the
    board's I/O thread)."""

    def __init__(self, vb):
        self.vb = vb
        self.writes = []  # (time, cpu s)
        self.lock = threading.Lock()
        vb.subscribe(self.on_event)

    def on_event(self, event, data):
        if event == "display":
            with self.lock:
                self.writes.append((time.monotonic(), cpu_s(self.vb._proc.pid)))

    def frame_done(self, t0, timeout=5.0):
        """(s from t0, cpu s) at the last write of the frame after t0, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                after = [w for w in self.writes if w[0] >= t0]
            if after and time.monotonic() - after[-1][0] > FRAME_QUIET_S:
                return after[-1][0] - t0, after[-1][1]
            time.sleep(0.01)
        return None


class Stopwatch:
    """Chip time of one key: wall ms on a paced board; at full speed the interpreter's CPU
    time from the release to the frame's last write, times the factor."""

    def __init__(self, vb, paced):
        self.vb, self.paced, self.clock = vb, paced, DisplayClock(vb)

    def start(self):
        self.cpu0 = cpu_s(self.vb._proc.pid)
        return time.monotonic()

    def frame_done(self, t0):
        done = self.clock.frame_done(t0)
        if done is None:
            return None
        if self.paced:
            return done[0] * 1000
        return (done[1] - self.cpu0) * 1000 * RATIO


def tap(vb, clock, key, ms=80):
    """Press and release key; -> ms from the release to its finished frame."""
    vb.key_down(key)
    time.sleep(ms / 1000)
    released = clock.start()
    vb.key_up(key)
    return clock.frame_done(released)


def idle(vb, link, seconds):
    out = {"menu": budget_share(vb, seconds)}
    link.ok("new", game="lobo77", players=PLAYERS)
    time.sleep(2)
    out["play screen"] = budget_share(vb, seconds)
    for _ in range(40):  # tens until the round ends: its announcement stays until a key
        if any(e["kind"] == "round_end" for e in link.ok("play", card="10")["effects"]):
            break
    time.sleep(2)
    out["round-end announcement"] = budget_share(vb, seconds)
    return out


def latency(vb, link, clock, cards):
    """ms per key kind over `cards` Lobo cards typed on the keypad, then undos; and whether
    the board's game after the cards is the one typed (a key lost would change it, and the
    figures with it)."""
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


def boot_time(flash, glass, pace):
    """Seconds from the interpreter's start to the resumed game on the glass (the last I2C
    write of its frame), or None.

    Paced: wall time from the interpreter's spawn. At full speed, the chip's time for the
    same work: the firmware's CPU time from the moment the emulation has mounted the flash
    (before it: the unix port's and the emulation's own start-up, standing for the chip's
    ROM bootloader and MicroPython's C init, which pace does not charge either), times the
    speed ratio; the splash's wall time counts where the firmware waits for it. The start-up
    work runs under the splash, so: max(to the splash on the glass + SPLASH_S, to the end
    of that work) + from the splash's end to the game's frame."""
    writes, power = [], []  # (time, cpu s) of each I2C write; the spawn's time
    booted = []  # cpu s when the flash was mounted

    def on_event(event, data):
        if event == "power" and data:
            power.append(time.monotonic())
        elif event == "boot":
            booted.append(cpu_s(vb._proc.pid))
        elif event == "display":
            writes.append((time.monotonic(), cpu_s(vb._proc.pid)))

    vb = VirtualBoard(flash=flash, pace=pace)
    vb.subscribe(on_event)
    samples = []  # (time, cpu s) every 10 ms: the board's CPU while it waits for the splash
    with vb:
        deadline = time.monotonic() + 60
        while vb.glass() != glass:
            if time.monotonic() > deadline:
                return None
            samples.append((time.monotonic(), cpu_s(vb._proc.pid)))
            time.sleep(0.01)
        time.sleep(FRAME_QUIET_S)  # the frame's last write
    done = writes[-1]
    if pace:
        return done[0] - power[0]
    gaps = [i for i in range(1, len(writes)) if writes[i][0] - writes[i - 1][0] > SPLASH_S / 2]
    splash = writes[gaps[-1] - 1]  # the splash frame's last write
    game = writes[gaps[-1]]  # the game frame's first
    waiting = [cpu for t, cpu in samples if t < game[0]][-1]  # the start-up work done
    return (max((splash[1] - booted[0]) * RATIO + SPLASH_S, (waiting - booted[0]) * RATIO)
            + (done[1] - waiting) * RATIO)


def big_requests(vb, link, count, typing=True):
    """count 220-byte requests at line rate, while a thread types and deletes digits unless
    typing is False. -> (how many were answered intact, the fullest the receive buffer got
    during each)."""
    stop = threading.Event()

    def typist():
        while not stop.is_set():
            for key in ("5", "undo"):
                vb.press(key, ms=60, gap=60)

    typists = [threading.Thread(target=typist, daemon=True)] if typing else []
    for thread in typists:
        thread.start()
    intact, peaks = 0, []
    try:
        for _ in range(count):
            rid = link._next_id
            link._next_id += 1
            vb.rx_peak = 0
            link.send_raw(longest_hello(rid))
            try:
                intact += bool(link.reply(rid, timeout=4).get("ok"))
            except AssertionError:  # lost bytes: no answer, or one for a mangled line
                resync(link)
            peaks.append(vb.rx_peak)
    finally:
        stop.set()
        for thread in typists:
            thread.join()
    return intact, peaks


def fullest(peaks):
    """The receive buffer's fullest point during each request, summed up: the tail shows how
    near the buffer's end the reader comes long before a run of requests loses a byte."""
    ranked = sorted(peaks)
    return "median %d, 90th percentile %d, 99th %d, max %d" % (
        statistics.median(ranked), percentile(ranked, 0.9), percentile(ranked, 0.99), ranked[-1])


def resync(link):
    """End whatever line a lost byte left open, and drop what the board still sends."""
    link.send_raw(b"\n")
    while link.read_frame(timeout=1.0) is not None:
        pass


def hostile(vb, link, rng):
    """1,500 hostile lines at line rate, then `hello` (again every 0.5 s: the receive
    buffer may have been full when one came): -> (s from the last hostile byte's arrival
    at the board to the answer, state unchanged, bytes sent, s the line took)."""
    resync(link)
    before = link.ok("state")["state"]
    lines = []
    for i in range(HOSTILE_LINES):
        kind = i % 5
        if kind == 0:
            lines.append(b"@" + bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 200))))
        elif kind == 1:
            lines.append(frame({"id": i, "cmd": "play", "card": "9"})[:-12] + b"|00000000")
        elif kind == 2:
            lines.append(b"@" + b"x" * 1500)  # over-long
        elif kind == 3:
            lines.append(frame({"id": i, "cmd": "nosuch"})[:-1])
        else:
            lines.append(bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 80))
                               ).replace(b"\n", b"").replace(b"\x03", b"").replace(b"\x04", b""))
    blob = b"\n".join(lines) + b"\n"
    start = time.monotonic()
    link.send_raw(blob)
    time.sleep(max(0.0, start + len(blob) * LINE_BITS / 115200 - time.monotonic()))
    vb.wait_delivered(timeout=120)  # later than its line time while the host held the board
    delivered = time.monotonic()
    hello = None
    while hello is None and time.monotonic() < delivered + 30:
        try:
            hello = link.ok_shape(link.call("hello", timeout=0.5))
        except AssertionError:
            pass
    answered = time.monotonic()
    while link.read_frame(timeout=0.5) is not None:  # the error replies still on the way
        pass
    after = link.ok("state")["state"]
    return answered - delivered if hello else None, after == before, len(blob), delivered - start


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
    time.sleep(0.5)
    vb.key_down("undo")
    time.sleep(0.6)
    held = clock.start()  # the hold time passes: redo
    time.sleep(0.3)
    vb.key_up("undo")
    return undo, clock.frame_done(held)


def scan_cost(vb, seconds=3.0):
    """Host CPU per keypad period (10 ms) while a key is held past its hold time, less the
    same time with every key up (the keypad asleep), less the pacer's credit: -> µs."""
    def used():
        pid = vb._proc.pid
        cpu0, credit0, t0 = cpu_s(pid), credited_s(vb), time.monotonic()
        time.sleep(seconds)
        return (cpu_s(pid) - cpu0 - (credited_s(vb) - credit0)) / (time.monotonic() - t0)

    idle = used()
    vb.key_down("5")  # its long press is handled before the measurement starts
    time.sleep(1.0)
    held = used()
    vb.key_up("5")
    time.sleep(1.0)
    return (held - idle) / 100 * 1e6


def scan_figures(pace):
    with VirtualBoard(pace=pace) as vb, frames_on(vb.port, boot=True, timeout=120):
        time.sleep(3)
        us = scan_cost(vb)
        factor = vb.throttle.factor if pace else RATIO
        print("\n### keypad scan while a key is held\n")
        print("- %.0f µs of host CPU per 10 ms period%s = %.1f ms of chip time (x %.0f)" % (
            us, " less the pacer's credit" if pace else "", us * factor / 1000, factor))


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
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--pace", default=PACE, choices=(PACE, "none"))
    parser.add_argument("--micropython-version", default=RELEASES[-1], choices=RELEASES,
                        help="the release whose console the boards model")
    args = parser.parse_args()
    global VirtualBoard  # every board of the run models the release asked for
    VirtualBoard = functools.partial(VirtualBoard, micropython_version=args.micropython_version)
    print("MicroPython %s" % args.micropython_version)
    pace = None if args.pace == "none" else PACE
    paced = pace is not None

    with VirtualBoard(pace=pace) as vb, frames_on(vb.port, boot=True, timeout=120) as link:
        print("pace %s%s\n" % (PACE, ": the gauge's factor, %.0f at the start" % vb.throttle.factor if paced else
              " (board at full speed: host CPU time x the speed ratio, %.0f)" % RATIO))
        time.sleep(3)
        print("### idle (share of the paced CPU budget)\n")
        for where, share in idle(vb, link, args.idle_s).items():
            print("- %s: %.2f %%" % (where, 100 * share))

    with VirtualBoard(pace=pace) as vb, frames_on(vb.port, boot=True, timeout=120) as link:
        clock = Stopwatch(vb, paced)
        time.sleep(3)
        press_keys(vb, setup_keys("lobo77", 4, {}))
        time.sleep(1)
        cards, by_kind, same = latency(vb, link, clock, args.cards)
        print("\n### key press to finished frame (%d cards by keys)\n" % cards)
        print("- the board's game after them: %s" % (
            "the one typed" if same else "DIFFERS from the one typed (a key was lost)"))
        for kind, values in by_kind.items():
            print("- %s: %s" % (kind, summary(values)))
        undo, redo = undo_redo_after_round(vb, link, clock)
        print("\n### right after a round of 200 cards\n")
        print("- undo key: %s ms; redo (long press): %s ms" % (
            "%.0f" % undo if undo else "no frame", "%.0f" % redo if redo else "no frame"))

    if paced:
        link_figures(args)
    scan_figures(pace)
    print("\n### boot (interpreter start to the resumed game on the glass)\n")
    with tempfile.TemporaryDirectory() as tmp:
        for games in (1, args.games):
            flash = Path(tmp) / ("flash-%d.img" % games)
            glass, records = fill_journal(flash, games)
            seconds = boot_time(flash, glass, pace)
            print("- journal of %d games (%d records): %s" % (
                games, records, "%.2f s" % seconds if seconds else "not within 60 s"))


def link_figures(args):
    with VirtualBoard(pace=PACE) as vb, frames_on(vb.port, boot=True, timeout=120) as link:
        time.sleep(3)
        link.ok("new", game="lobo77", players=PLAYERS)
        intact, peaks = big_requests(vb, link, args.requests)
        print("\n### link\n")
        print("- %d of %d requests of 220 bytes at line rate answered intact while keys were"
              " pressed; %d bytes lost to the full receive buffer; its fullest during a request:"
              " %s of %d bytes" % (intact, args.requests, vb.rx_overflow, fullest(peaks),
                                   vb.pace.rx_buffer))
        lost = vb.rx_overflow
        intact, peaks = big_requests(vb, link, args.requests, typing=False)
        print("- the same with no key pressed: %d of %d intact; %d bytes lost; fullest: %s" % (
            intact, args.requests, vb.rx_overflow - lost, fullest(peaks)))
        lost = vb.rx_overflow
        seconds, same, size, took = hostile(vb, link, random.Random(5))
        print("- %d hostile lines (%d bytes) sent at line rate (%.1f s of line time; the line"
              " took %.1f s): `hello` answered %s after the last one reached the board; state %s;"
              " %d bytes lost to the full receive buffer" % (
                  HOSTILE_LINES, size, size * LINE_BITS / 115200, took,
                  "%.2f s" % seconds if seconds is not None else "not",
                  "unchanged" if same else "CHANGED", vb.rx_overflow - lost))


if __name__ == "__main__":
    main()
