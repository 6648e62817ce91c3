"""Sync under faults: seeded runs on one virtual board, each ending with exactly the board's records.

Each run plays a fresh scripted game, notes the board's records over a clean link, then syncs
into a new database while the link drops and corrupts bytes, the board resets, or its power is
cut. A failed sync is simply run again (faults then off); the database must end with exactly
the noted records: none missing, none twice.

    .venv/bin/python tests/stress/sync_faults.py [--runs 120] [--seed 0]
"""
import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from croupier.commands.demo import script_game
from croupier.link import LinkError, connect
from croupier.store import Store
from croupier.sync import PAGE_MAX, pull, sync

PLAYERS = ["Ana", "Ben", "Cleo"]
KINDS = ("noise", "reset", "power")
MAX_ATTEMPTS = 4


def board_records(vb):
    """The records a new database syncs: those after the ones an earlier run acknowledged."""
    with connect(vb.port) as link:
        return pull(link, link.info["log_epoch"], link.info.get("acked", 0) + 1)


def play_game(vb, seed):
    """Games until the board holds more than a `log` page of records no host acknowledged,
    so that every run's sync takes two pages or more."""
    with connect(vb.port) as link:
        page = link.info.get("log_max", PAGE_MAX)
        game = 0
        while True:
            hello = link.hello()
            if hello["last_seq"] - hello.get("acked", 0) > page:
                return
            link.call("new", game="basta", players=PLAYERS)
            for card in script_game("basta", PLAYERS, seed=seed + game)[: 40 + seed % 20]:
                link.call("play", card=card)
            game += 1


class Fault:
    """The run's fault, struck from the sync's progress callback after a seeded number of
    pages, so it always lands mid-sync; `clear()` ends it."""

    def __init__(self, vb, kind, rng, seed):
        self.vb, self.kind, self.seed = vb, kind, seed
        self.after_pages = rng.randint(0, 1)  # every run's sync takes two pages or more (play_game)
        self.rates = (rng.uniform(0.0002, 0.002), rng.uniform(0.0002, 0.002))
        self.delay = rng.uniform(0.1, 1.5)  # seconds the board stays off
        self.pages = 0
        self.struck = False
        self.timer = None
        vb.faults(baud=115200, seed=seed)

    def on_page(self, seq, last_seq):
        if self.pages == self.after_pages:
            self.struck = True
            if self.kind == "noise":
                self.vb.faults(drop=self.rates[0], corrupt=self.rates[1], baud=115200, seed=self.seed)
            elif self.kind == "reset":
                self.vb.hard_reset()
            else:
                self.vb.power_off()
                self.timer = threading.Timer(self.delay, self.vb.restart)
                self.timer.start()
        self.pages += 1

    def clear(self):
        if self.timer:
            self.timer.join()
        self.vb.faults()
        if not self.vb.powered:
            self.vb.restart()


def run_once(vb, seed, db_path):
    """One seeded run; returns (kind, attempts). Raises AssertionError on a wrong database or a
    fault that missed the sync."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    play_game(vb, seed)
    expected = board_records(vb)
    fault = Fault(vb, kind, rng, seed)
    attempts = 0
    with Store(db_path) as store:
        while True:
            attempts += 1
            try:
                with connect(vb.port) as link:
                    sync(link, store, on_page=fault.on_page)
                break
            except LinkError:
                if attempts >= MAX_ATTEMPTS:
                    raise
            finally:
                fault.clear()  # a second attempt runs on a clean link
        device, epoch = store.db.execute("SELECT device, log_epoch FROM devices").fetchone()
        got = store.records(device, epoch)
    assert fault.struck, "seed %d: the sync ended before the fault" % seed
    assert got == expected, "seed %d (%s): database has seqs %s, the board had %s" % (
        seed, kind, _seqs(got), _seqs(expected))
    return kind, attempts


def _seqs(records):
    return "%d..%d (%d)" % (records[0][0], records[-1][0], len(records)) if records else "none"


def main(argv=None):
    from croupier.sim import VirtualBoard

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    tally = {kind: [0, 0, 0] for kind in KINDS}  # runs, first-attempt successes, attempts
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, VirtualBoard() as vb:
        for n in range(args.runs):
            seed = args.seed + n
            kind, attempts = run_once(vb, seed, Path(tmp) / ("run%d.sqlite3" % seed))
            tally[kind][0] += 1
            tally[kind][1] += attempts == 1
            tally[kind][2] += attempts
            print("run %3d seed %4d %-5s ok after %d attempt(s)" % (n + 1, seed, kind, attempts), flush=True)
    print("%d runs in %.0f s, every database exactly the board's records" % (args.runs, time.monotonic() - started))
    for kind, (runs, first, attempts) in tally.items():
        print("  %-5s %3d runs, %3d synced on the first attempt, %.2f attempts on average"
              % (kind, runs, first, attempts / max(1, runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
