"""Sync throughput over a link throttled to 115200 baud, against copying the journal files
with `mpremote fs cp` on the same board in the same run.

    .venv/bin/python tests/bench/bench_sync.py
"""
import tempfile
import time
from pathlib import Path

from croupier.commands.demo import script_game
from croupier.deploy import Mpremote
from croupier.link import Link, open_serial
from croupier.sim import VirtualBoard
from croupier.store import Store
from croupier.sync import sync

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4
JOURNAL_FILES = "import boards, os\nJ = boards.load().JOURNAL_DIR\nprint('\\n'.join(J + '/' + f for f in os.listdir(J)))"


def with_link(vb, fn):
    port = open_serial(vb.port)
    try:
        return fn(Link(port, timeout=10.0))
    finally:
        port.close()


def play_games(link):
    for seed, (game, players) in enumerate(GAMES):
        link.call("new", game=game, players=players)
        for card in script_game(game, players, seed=seed):
            link.call("play", card=card)
    return link.hello()["last_seq"]


def copy_journal(vb, folder):
    """Seconds and bytes to copy every journal file off the board with stock mpremote."""
    board = Mpremote(vb.port)
    files = [f for f in board.run("exec", JOURNAL_FILES).split() if f.startswith("/")]
    start = time.monotonic()
    chain = []
    for f in files:
        chain += ["+", "fs", "cp", ":" + f, str(folder / Path(f).name)]
    board.run(*chain[1:])
    elapsed = time.monotonic() - start
    board.run("reset")
    return elapsed, sum((folder / Path(f).name).stat().st_size for f in files)


def timed_sync(vb, db):
    received = []

    def run(link):
        link.transcript = lambda direction, data: received.append(len(data)) if direction == "rx" else None
        start = time.monotonic()
        with Store(db) as store:
            report = sync(link, store)
        return time.monotonic() - start, report.added

    elapsed, records = with_link(vb, run)
    return elapsed, records, sum(received)


def main():
    with tempfile.TemporaryDirectory() as tmp, VirtualBoard() as vb:
        records = with_link(vb, play_games)
        vb.faults(baud=115200)
        cp_time, cp_bytes = copy_journal(vb, Path(tmp))
        with_link(vb, lambda link: link.hello())  # the firmware is back after mpremote's reset
        sync_time, synced, sync_bytes = timed_sync(vb, Path(tmp) / "bench.sqlite3")
        vb.faults()
    print("%d records in %d games, link throttled to 115200 baud" % (records, len(GAMES)))
    print("| method | seconds | records/s | bytes on the wire per record |")
    print("|---|---|---|---|")
    print("| croupier sync (pull, replay-verify, store, ack) | %.2f | %.0f | %.0f |"
          % (sync_time, synced / sync_time, sync_bytes / synced))
    print("| mpremote fs cp of the journal files (raw copy, no verification) | %.2f | %.0f | %.0f (file bytes) |"
          % (cp_time, records / cp_time, cp_bytes / records))


if __name__ == "__main__":
    main()
