"""Sync throughput over a link at 115200 baud, against copying the journal files with
`mpremote fs cp` on the same board in the same run, on a board at full speed.

    .venv/bin/python tests/bench/bench_sync.py [--micropython-version 1.28]

Its share of the line rate at the ESP32's pace is computed: the bytes the board sent x 10
bits over the chip's time for the sync, the longer of its work (chiptime.chip_ms:
the board's CPU time, less its emulated reads and writes, counted at the chip's cost, x the
calibrated factor, plus its flash and bus time) and those bytes' line time (the chip's UART
sends while its CPU works). Each copy starts on a settled board (its boot
drawn, the display quiet), as when a person syncs a box that is on: mpremote's reset
before the sync is the benchmark's, not the sync's.
"""
import argparse
import tempfile
import time
from pathlib import Path

from bench_pace import target
from chiptime import chip_ms, chip_parts, emulation_ns, factor
from croupier.commands.demo import script_game
from croupier.deploy import Mpremote
from croupier.link import connect
from croupier.sim import VirtualBoard, uart
from croupier.sim.board import RELEASES
from croupier.store import Store
from croupier.sync import sync

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4
LINE_SHARE = 0.7  # docs/benchmarks.md's target: sync at 70 % of the line rate or more
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
    """(seconds, records added, bytes the board sent, the board's work before and after) of
    one `sync` into a new database."""
    with connect(vb.port) as link, Store(db) as store:
        mark, start, work = vb.mark(), time.monotonic(), vb.work()
        report = sync(link, store)
        return time.monotonic() - start, report.added, vb.mark() - mark, work, vb.work()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--micropython-version", default=RELEASES[-1], choices=RELEASES,
                        help="the release whose console the measured board models")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash.img"
        with VirtualBoard(flash=flash) as vb, connect(vb.port) as link:
            records = play_games(link)  # at full speed: the games are not what is measured
        with VirtualBoard(flash=flash, micropython_version=args.micropython_version) as vb:
            vb.faults(baud=uart.BAUD)
            settle(vb)
            cp_time, cp_bytes = copy_journal(vb, Path(tmp) / "journal")
            sync_time, synced, sync_bytes, before, after = timed_sync(vb, Path(tmp) / "bench.sqlite3")
    # The board's output goes into the UART's 128-byte TX FIFO, and the writer waits only
    # while it is full (ports/esp32/uart.c, uart_stdout_tx_strn, v1.23.0-v1.28.0): the chip
    # works while the line sends, so a sync takes the longer of its work and its line time.
    part = chip_parts(vb, before, after)
    emulation = emulation_ns(vb)
    work = chip_ms(part)
    line = sync_bytes * 10 / uart.BAUD * 1000
    chip = max(work, line)
    share = line / chip
    print("MicroPython %s; %d records in %d games, link at %d baud" % (args.micropython_version, records,
                                                                      len(GAMES), uart.BAUD))
    print("sync at full speed: %.0f %% of the line rate in bytes from the board; %.1fx mpremote's speed" % (
        100 * sync_bytes * 10 / sync_time / uart.BAUD, cp_time / sync_time))
    print("sync at the chip's pace: %.2f s (the longer of work and line) for %d bytes from the board: CPU %.2f s (x %.0f; less %d reads and "
          "writes at %.1f µs and %d wake-ups at %.1f µs: %.2f s), those at the chip's cost %.2f s, flash %.2f s, "
          "I2C bus %.2f s, line %.2f s" % (
              chip / 1000, sync_bytes, part["cpu"] / 1000, factor(vb), part["io_calls"], emulation["io_call"] / 1e3,
              part["runs"], emulation["wake"] / 1e3, part["emulation"] / 1000,
              part["io"] / 1000, part["flash"] / 1000, part["bus"] / 1000, line / 1000))
    target("sync", "%.0f %% of the line rate" % (100 * share), ">= %.0f %%" % (100 * LINE_SHARE), share >= LINE_SHARE)
    print("| method | seconds | records/s | bytes from the board per record |")
    print("|---|---|---|---|")
    print("| croupier sync (pull, replay-verify, store, ack) | %.2f | %.0f | %.0f |"
          % (sync_time, synced / sync_time, sync_bytes / synced))
    print("| mpremote fs cp -r of the journal folder (raw copy, no verification) | %.2f | %.0f | %.0f |"
          % (cp_time, records / cp_time, cp_bytes / records))


if __name__ == "__main__":
    main()
