"""Sync throughput over a link throttled to 115200 baud, against copying the journal files
with `mpremote fs cp` on the same board in the same run.

    .venv/bin/python tests/bench/bench_sync.py
"""
import tempfile
import time
from pathlib import Path

from croupier.commands.demo import script_game
from croupier.deploy import Mpremote
from croupier.link import connect
from croupier.sim import VirtualBoard
from croupier.store import Store
from croupier.sync import sync

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4
JOURNAL_DIR = "import boards\nprint(boards.load().JOURNAL_DIR)"


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
    board.run("reset")
    return elapsed, sent


def timed_sync(vb, db):
    """(seconds, records added, bytes the board sent) of one `sync` into a new database."""

    with connect(vb.port) as link, Store(db) as store:
        mark, start = vb.mark(), time.monotonic()
        report = sync(link, store)
        return time.monotonic() - start, report.added, vb.mark() - mark


def main():
    with tempfile.TemporaryDirectory() as tmp, VirtualBoard() as vb:
        with connect(vb.port) as link:
            records = play_games(link)
        vb.faults(baud=115200)
        cp_time, cp_bytes = copy_journal(vb, Path(tmp) / "journal")
        sync_time, synced, sync_bytes = timed_sync(vb, Path(tmp) / "bench.sqlite3")
        vb.faults()
    print("%d records in %d games, link throttled to 115200 baud" % (records, len(GAMES)))
    print("| method | seconds | records/s | bytes from the board per record |")
    print("|---|---|---|---|")
    print("| croupier sync (pull, replay-verify, store, ack) | %.2f | %.0f | %.0f |"
          % (sync_time, synced / sync_time, sync_bytes / synced))
    print("| mpremote fs cp -r of the journal folder (raw copy, no verification) | %.2f | %.0f | %.0f |"
          % (cp_time, records / cp_time, cp_bytes / records))


if __name__ == "__main__":
    main()
