"""What dating a journal costs at sync (store.date_journal: every record's bounds worked out
again from its [boot, ms] and the syncs' hellos, then every game's), against the replay that verifies the same
games, in the same run, for journals of about 1,000 and 10,000 records over many power-ups.

    .venv/bin/python tests/bench/bench_dates.py
"""
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "host"))
from journal_records import journal, stamped  # noqa: E402
from croupier.commands.demo import script_game  # noqa: E402
from croupier.store import Store  # noqa: E402
from croupier.sync import replay  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]
HELLO = 1_800_000_000.0


def board_journal(records_wanted):
    """Scripted Lobo 77 games, one power-up each, the board's clock set in every third."""
    games, seq, boot = [], 1, 0
    while seq <= records_wanted:
        boot += 1
        records = journal("lobo77", PLAYERS, script_game("lobo77", PLAYERS, seed=boot), first_seq=seq)
        power_up = HELLO - 86400 * 30 + boot * 3600 if boot % 3 == 0 else None
        games.append(stamped(records, boot=boot, first_ms=2000, step_ms=4000, power_up=power_up))
        seq += len(records)
    return games, boot


def best_of(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    print("| records | power-ups | replay-verify (ms) | date_journal (ms) | dating / replay |")
    print("|---|---|---|---|---|")
    for wanted in (1000, 10000):
        games, boots = board_journal(wanted)
        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite3") as store:
            with store.transaction():
                for records in games:
                    store.add_records("dev", "ep", records)
                    game, results = replay(records)
                    game.update(device="dev", log_epoch="ep")
                    store.save_game(game, results)
                store.add_sighting("dev", "ep", games[-1][-1][0], HELLO, HELLO + 0.3, boots + 1, 60_000)
            replay_s = best_of(3, lambda: [replay(records) for records in games])
            dating_s = best_of(3, lambda: store.date_journal("dev", "ep"))
        count = sum(len(g) for g in games)
        print("| %d | %d | %.0f | %.0f | %.2f |" % (count, boots, replay_s * 1000, dating_s * 1000, dating_s / replay_s))


if __name__ == "__main__":
    main()
