"""A database of the previous schema opens, is upgraded in place with nothing lost, and syncs."""
import sqlite3

from journal_records import journal
from croupier.cli import main
from croupier.commands.demo import script_game
from croupier.schema import SCHEMA_VERSION
from croupier.store import Store

# The schema databases had before records carried [boot, ms] (user_version 0), as a user's file holds it.
SCHEMA_V0 = """
CREATE TABLE devices (device TEXT NOT NULL, log_epoch TEXT NOT NULL, board TEXT, fw TEXT, last_sync INTEGER,
    PRIMARY KEY (device, log_epoch));
CREATE TABLE records (device TEXT NOT NULL, log_epoch TEXT NOT NULL, seq INTEGER NOT NULL,
    time INTEGER, game_id INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (device, log_epoch, seq));
CREATE INDEX records_by_game ON records (device, log_epoch, game_id, seq);
CREATE TABLE games (device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL,
    game TEXT NOT NULL, status TEXT NOT NULL, started INTEGER, ended INTEGER, options TEXT NOT NULL,
    final_state TEXT NOT NULL, timeline TEXT NOT NULL, PRIMARY KEY (device, log_epoch, game_id));
CREATE TABLE results (device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, won INTEGER NOT NULL, tokens_lost INTEGER NOT NULL,
    doublets INTEGER NOT NULL, busts INTEGER NOT NULL, eliminated INTEGER NOT NULL,
    PRIMARY KEY (device, log_epoch, game_id, seat));
"""
BASTA = ["Ana", "Ben", "Cleo"]
LAST_SYNC = 1_796_066_520  # 2026-11-30 19:22 UTC


def old_database(path):
    """What the previous croupier left after syncing one BASTA game from a board whose clock was
    never set (records without time), BASTA penalties stored as tokens lost and busts."""
    from croupier.rules.canon import dumps

    records = journal("basta", BASTA, script_game("basta", BASTA, seed=1))
    final = records[-1][4]
    db = sqlite3.connect(str(path))
    db.executescript(SCHEMA_V0)
    with db:
        db.execute("INSERT INTO devices VALUES ('240ac4f7652c', '824753a5', 'esp32', '0.1.0', ?)", (LAST_SYNC,))
        db.executemany("INSERT INTO records VALUES ('240ac4f7652c', '824753a5', ?, NULL, ?, ?, ?)",
                       [(seq, gid, kind, dumps(data)) for seq, _, gid, kind, data in records])
        db.execute("INSERT INTO games VALUES ('240ac4f7652c', '824753a5', 1, 'basta', 'over', NULL, NULL, '{}', ?, ?)",
                   (dumps(final), dumps({"meter": "penalties", "points": []})))
        db.executemany("INSERT INTO results VALUES ('240ac4f7652c', '824753a5', 1, ?, ?, ?, ?, 0, ?, 0)",
                       [(seat, p["name"], int(seat in final["winners"]), p["penalties"], p["penalties"])
                        for seat, p in enumerate(final["players"])])
    db.close()
    return records, final


def test_an_old_database_is_upgraded_in_place_keeping_every_record(tmp_path, utc, capsys):
    path = tmp_path / "croupier.sqlite3"
    records, final = old_database(path)
    with Store(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.records("240ac4f7652c", "824753a5") == [[r[0], None] + r[2:] for r in records]
        [game] = store.games()
        # rebuilt: BASTA's own measures, and steps for its chart
        assert [p["measures"]["penalties"] for p in game["players"]] == [p["penalties"] for p in final["players"]]
        assert "tokens_lost" not in game["players"][0]["measures"]
        assert len(game["timeline"]["steps"]) == len(records) - 2
        # the last sync bounds every record from above; nothing bounds it from below
        assert (game["started_min"], game["started_max"]) == (None, LAST_SYNC)
    assert main(["games", "--db", str(path)]) == 0
    assert "≤ 2026-11-30 19:22" in capsys.readouterr().out
    with Store(path) as store:  # opening it again changes nothing
        assert store.record_count() == len(records) and len(store.games()) == 1


def test_an_upgraded_database_syncs_a_board(tmp_path, vboard):
    from croupier.commands.demo import play_through_link
    from croupier.link import connect

    path = tmp_path / "croupier.sqlite3"
    records, _ = old_database(path)
    with connect(vboard.port) as link:
        play_through_link(link, "lobo77", ["Ann", "Bob"], ["10", "9"])
    assert main(["sync", "--port", vboard.port, "--db", str(path)]) == 0
    with Store(path) as store:
        assert store.record_count() == len(records) + 3
        assert [g["game"] for g in store.games()] == ["basta", "lobo77"]


def test_a_game_that_no_longer_replays_keeps_its_old_counts_and_says_why_it_has_no_chart(tmp_path, capsys):
    path = tmp_path / "croupier.sqlite3"
    records, final = old_database(path)
    db = sqlite3.connect(str(path))
    with db:  # as if the rules had changed since: the end record no longer matches a replay
        db.execute("UPDATE records SET data = ? WHERE seq = ?", ('{"over":true}', records[-1][0]))
    db.close()
    with Store(path) as store:
        [game] = store.games()
        assert [p["measures"]["tokens_lost"] for p in game["players"]] == [p["penalties"] for p in final["players"]]
        assert store.record_count() == len(records)
    assert main(["plot", "game", "1", "--db", str(path), "--out", str(tmp_path / "g.png")]) == 1
    assert "no longer replays" in capsys.readouterr().err and not (tmp_path / "g.png").exists()


def test_the_read_only_commands_read_an_old_database_without_changing_it(tmp_path, capsys):
    path = tmp_path / "croupier.sqlite3"
    old_database(path)
    before = path.read_bytes()
    for command in (["games"], ["standings"], ["export", "--format", "csv"]):
        assert main(command + ["--db", str(path)]) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        assert "basta" in out and "Ana" in out
    assert path.read_bytes() == before  # upgraded in memory only: the file is as the old version left it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["croupier.sqlite3"]
