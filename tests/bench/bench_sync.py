"""Sync throughput over a link throttled to 115200 baud, against copying the journal files
with `mpremote fs cp` on the same board in the same run.

    .venv/bin/python tests/bench/bench_sync.py [--pace esp32]

With --pace esp32 the board runs at the ESP32's pace (its own 115200-baud line) and the
figures add sync's share of the line rate in bytes. Without it the figures add the board's
CPU time for the sync per byte it sent, scaled to the chip (x CHIP_SLOWDOWN): the measure to
iterate on while a loaded host makes paced runs noisy (the emulated flash's Python counts
there; a paced board is credited for it). Each copy starts on a settled board (its
boot drawn, the display quiet), as when a person syncs a box that is on: mpremote's reset
before the sync is the benchmark's, not the sync's.
"""
import argparse
import tempfile
import time
from pathlib import Path

from bench_pace import cpu_s
from croupier.commands.demo import script_game
from croupier.deploy import Mpremote
from croupier.link import connect
from croupier.sim import VirtualBoard
from croupier.sim.board import RELEASES
from croupier.store import Store
from croupier.sync import sync

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4
# the unix port on the build machine runs ~260,000 pystones per CPU-second, an ESP32 ~1,300
CHIP_SLOWDOWN = 200
JOURNAL_DIR = "import boards\nprint(boards.load().JOURNAL_DIR)"
SPLASH_QUIET_S = 2.0  # no display write for this long after the firmware's boot event:
# its splash (1.2 s) is over and the menu drawn


def settle(vb, since=0, timeout=60.0):
    """Wait until the firmware has booted (its `boot` event after output mark `since`) and
    drawn its splash and menu."""
    vb.wait_output(b'"ev":"boot"', timeout=timeout, since=since)
    seen, quiet_since = vb.i2c_bytes, time.monotonic()
    deadline = quiet_since + timeout
    while time.monotonic() - quiet_since < SPLASH_QUIET_S:
        if time.monotonic() > deadline:
            raise RuntimeError("the board's display never went quiet")
        time.sleep(0.05)
        if vb.i2c_bytes != seen:
            seen, quiet_since = vb.i2c_bytes, time.monotonic()


def play_games(link):
    for seed, (game, players) in enumerate(GAMES):
        link.call("new", game=game, players=players)
        for card in script_game(game, players, seed=seed):
            link.call("play", card=card)
    return link.hello()["last_seq"]


def copy_journal(vb, folder):
    """(seconds, bytes the board sent) to copy its journal folder with stock mpremote."""
    board = Mpremote(vb.port)
    journal = board.run("exec", JOURNAL_DIR).split()[-1]
    mark, start = vb.mark(), time.monotonic()
    board.run("fs", "cp", "-r", ":" + journal, str(folder))
    elapsed, sent = time.monotonic() - start, vb.mark() - mark
    mark = vb.mark()
    board.run("reset")
    settle(vb, since=mark)
    return elapsed, sent


def timed_sync(vb, db):
    """(seconds, records added, bytes the board sent, the board's CPU seconds) of one `sync`
    into a new database."""

    with connect(vb.port) as link, Store(db) as store:
        mark, start, cpu = vb.mark(), time.monotonic(), cpu_s(vb._proc.pid)
        report = sync(link, store)
        return time.monotonic() - start, report.added, vb.mark() - mark, cpu_s(vb._proc.pid) - cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pace", default=None, help="esp32: the board at the ESP32's pace")
    parser.add_argument("--micropython-version", default=RELEASES[-1], choices=RELEASES,
                        help="the release whose console the measured board models")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash.img"
        with VirtualBoard(flash=flash) as vb, connect(vb.port) as link:
            records = play_games(link)  # at full speed: the games are not what is measured
        with VirtualBoard(flash=flash, pace=args.pace, micropython_version=args.micropython_version) as vb:
            if not args.pace:
                vb.faults(baud=115200)
            settle(vb)
            cp_time, cp_bytes = copy_journal(vb, Path(tmp) / "journal")
            sync_time, synced, sync_bytes, sync_cpu = timed_sync(vb, Path(tmp) / "bench.sqlite3")
    print("%d records in %d games, link at 115200 baud%s" % (
        records, len(GAMES), ", board at %s pace" % args.pace if args.pace else ""))
    print("sync: %.0f %% of the line rate in bytes from the board; %.1fx mpremote's speed" % (
        100 * sync_bytes * 10 / sync_time / 115200, cp_time / sync_time))
    if not args.pace:
        print("board CPU for the sync: %.1f ms, %.2f µs per byte sent; x%d: %.0f µs a byte on the chip "
              "(the line brings one every 87 µs)" % (sync_cpu * 1e3, sync_cpu * 1e6 / sync_bytes,
                                                      CHIP_SLOWDOWN, sync_cpu * 1e6 / sync_bytes * CHIP_SLOWDOWN))
    print("| method | seconds | records/s | bytes from the board per record |")
    print("|---|---|---|---|")
    print("| croupier sync (pull, replay-verify, store, ack) | %.2f | %.0f | %.0f |"
          % (sync_time, synced / sync_time, sync_bytes / synced))
    print("| mpremote fs cp -r of the journal folder (raw copy, no verification) | %.2f | %.0f | %.0f |"
          % (cp_time, records / cp_time, cp_bytes / records))


if __name__ == "__main__":
    main()
