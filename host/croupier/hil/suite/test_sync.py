"""Sync into a fresh SQLite file with the croupier tool's own sync code (croupier.sync)."""
from croupier.store import Store
from croupier.sync import sync


def test_sync_stores_exactly_the_journal_and_repeats_add_nothing(device, table, tmp_path):
    table.new("lobo77", ["Ann", "Bob", "Cy"])
    device.play("10", "9", "3")
    table.enter("2x")
    info = device.hello()
    on_board = device.journal(0)  # read before sync: its `ack` lets the board compact

    with Store(tmp_path / "hil.sqlite3") as store:
        report = sync(device.link, store)
        assert not report.refused, "every record replays: %s" % report.refused
        assert store.records(info["device"], info["log_epoch"]) == [r[:5] for r in on_board], \
            "the database holds exactly the board's journal records (their [boot, ms] aside)"
        game = [g for g in store.games() if g["game_id"] == on_board[-1][2]]
        assert game and game[0]["final_state"] == device.state() and game[0]["status"] == "playing", \
            "the game in play is rebuilt to the board's state: %r" % game

        assert sync(device.link, store).added == 0, "a second sync adds nothing"
        table.enter("0")
        again = sync(device.link, store)
        assert again.added == 1, "one card later, sync adds that one record"
        assert store.records(info["device"], info["log_epoch"])[-1][3:] == ["play", "0"]
