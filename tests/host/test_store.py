"""The SQLite store: records keyed by (device, log_epoch, seq), games and results."""
import pytest

from journal_records import journal
from croupier.store import Store
from croupier.sync import replay

PLAYERS = ["Zoë", "Bob", "Cy"]  # a non-ASCII name must survive the round trip


def test_records_are_added_once_per_device_journal_and_seq(store):
    records = journal("lobo77", PLAYERS, ["10", "9", "3"])
    assert store.synced_upto("dev1", "e1") is None
    assert store.add_records("dev1", "e1", records) == 4
    assert store.add_records("dev1", "e1", records) == 0
    assert store.synced_upto("dev1", "e1") == 4
    assert store.records("dev1", "e1") == records
    # the same seqs under a new log_epoch (a wiped board) or another device are other records
    assert store.add_records("dev1", "e2", records) == 4
    assert store.add_records("dev2", "e1", records) == 4
    assert store.record_count() == 12
    assert store.records("dev1", "e1", game_id=1)[0][4]["players"] == PLAYERS
    assert store.last_game_id("dev1", "e1") == 1 and store.last_game_id("dev9", "e1") is None


def test_a_transaction_that_fails_stores_nothing(store):
    records = journal("lobo77", PLAYERS, ["10"])
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.add_records("dev1", "e1", records)
            raise RuntimeError("power cut")
    assert store.record_count() == 0


def test_games_are_saved_replaced_and_found(store, tmp_path):
    game, results = replay(journal("lobo77", PLAYERS, ["10", "9", "3"]))
    game.update(device="dev1", log_epoch="e1")
    with store.transaction():
        store.save_game(game, results)
        store.save_game(game, results)  # a re-sync replaces, never duplicates
    [saved] = store.games()
    assert saved["final_state"] == game["final_state"] and saved["timeline"] == game["timeline"]
    assert [p["name"] for p in saved["players"]] == PLAYERS
    assert store.find_game("1")["game_id"] == 1
    assert store.find_game("dev1:e1:1")["game"] == "lobo77"
    with pytest.raises(ValueError, match="no game '2'"):
        store.find_game("2")
    assert store.games(status="over") == []


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("shopping list\n" * 100)
    with pytest.raises(ValueError, match="not a Croupier database"):
        Store(bogus)
    assert bogus.read_text().startswith("shopping list")
