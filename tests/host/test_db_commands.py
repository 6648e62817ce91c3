"""The database commands end to end through the CLI: games, standings, stats, export, plot."""
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from journal_records import BASTA, LOBO, fill_database, journal, stamped
from croupier.cli import main
from croupier.commands.demo import script_game
from croupier.play.session import Session
from croupier.store import Store
from croupier.sync import replay

DEVICE, EPOCH = "240ac4f7652c", "824753a5"
HELLO = 1_796_066_520.0  # 2026-11-30 19:22 UTC: the sync's hello, 1000 s into boot 2


@pytest.fixture
def db(tmp_path):
    """A database as a sync leaves it: a finished Lobo 77 from an earlier boot (its date only
    bounded), then, in the boot the sync saw, a finished BASTA and an unfinished Lobo 77 game."""
    path = tmp_path / "games.sqlite3"
    lobo = stamped(journal("lobo77", LOBO, script_game("lobo77", LOBO, seed=1)), boot=1, first_ms=5000)
    basta = stamped(journal("basta", BASTA, script_game("basta", BASTA, seed=1), first_seq=len(lobo) + 1),
                    boot=2, first_ms=3000)
    running = stamped(journal("lobo77", BASTA, ["9", "2"], first_seq=len(lobo) + len(basta) + 1),
                      boot=2, first_ms=900_000)
    with Store(path) as store, store.transaction():
        for records in (lobo, basta, running):
            store.add_records(DEVICE, EPOCH, records)
            game, results = replay(records)
            game.update(device=DEVICE, log_epoch=EPOCH)
            store.save_game(game, results)
        store.add_sighting(DEVICE, EPOCH, running[-1][0], HELLO, HELLO + 0.3, 2, 1_000_000)
        store.date_journal(DEVICE, EPOCH)
    return str(path)


def piped(*args):
    """Run `croupier ARGS` as a user's shell does, its output piped (not a terminal)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TZ"] = "UTC"
    command = [str(Path(sys.executable).parent / "croupier")] + list(args)
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def winners(db, kind):
    with Store(db) as store:
        return [p["name"] for g in store.games() if g["game"] == kind and g["status"] == "over"
                for p in g["players"] if p["won"]]


def test_games_lists_every_game_with_its_winner(db, capsys):
    assert main(["games", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "lobo77" in out and "basta" in out and "playing" in out
    assert "%s*" % winners(db, "lobo77")[0] in out
    assert main(["games", "--db", db, "--status", "playing"]) == 0
    assert "basta" not in capsys.readouterr().out


def test_standings_and_stats_print_per_player_and_per_type(db, capsys):
    assert main(["standings", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Head-to-head" in out and all(name in out for name in LOBO)
    assert main(["standings", "--db", db, "--game", "basta"]) == 0
    assert "Dev" not in capsys.readouterr().out  # Dev played no BASTA
    assert main(["stats", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "lobo77" in out and "basta" in out


def test_export_csv_has_a_row_per_player_per_game(db, capsys):
    assert main(["export", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(LOBO) + len(BASTA) + len(BASTA)
    assert sorted(r["name"] for r in rows if r["won"] == "1" and r["game"] == "lobo77") == winners(db, "lobo77")


def test_export_json_carries_games_results_and_records(db, tmp_path):
    out = tmp_path / "games.json"
    assert main(["export", "--db", db, "--format", "json", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [g["game"] for g in doc["games"]] == ["lobo77", "basta", "lobo77"]
    first = doc["games"][0]
    assert first["records"][0][3] == "new" and first["records"][-1][3] == "end"
    assert first["id"] == "%s:%s:1" % (DEVICE, EPOCH)


def test_both_exports_give_a_computer_players_strength_and_nothing_for_a_person(db, tmp_path, capsys):
    with Store(db) as store, store.transaction():
        basta = next(g for g in store.games() if g["game"] == "basta")
        store.mark_computers(DEVICE, EPOCH, basta["game_id"], {1: 5})
    assert main(["export", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["name"], r["computer"]) for r in rows if r["game"] == "basta"] == \
        [(name, "5" if seat == 1 else "") for seat, name in enumerate(BASTA)]
    assert all(r["computer"] == "" for r in rows if r["game"] == "lobo77")
    out = tmp_path / "games.json"
    assert main(["export", "--db", db, "--format", "json", "--out", str(out)]) == 0
    exported = json.loads(out.read_text())["games"]
    assert [[p["computer"] for p in g["players"]] for g in exported] == \
        [[None] * len(LOBO), [5 if seat == 1 else None for seat in range(len(BASTA))], [None] * len(BASTA)]


def test_plots_are_png_files(db, tmp_path, capsys):
    standings_png, game_png = tmp_path / "s.png", tmp_path / "g.png"
    assert main(["plot", "standings", "--db", db, "--out", str(standings_png)]) == 0
    assert main(["plot", "game", "1", "--db", db, "--out", str(game_png)]) == 0
    for png in (standings_png, game_png):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.size[0] >= 400
    assert main(["plot", "game", "9", "--db", db, "--out", str(game_png)]) == 1
    assert "no game '9'" in capsys.readouterr().err


def test_plot_game_names_its_file_after_the_game(db, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for number in (["1"], ["2"], []):  # none: the latest, game 3
        assert main(["plot", "game"] + number + ["--db", db]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["croupier-game-%d.png" % n for n in (1, 2, 3)]
    assert "chart written to croupier-game-2.png" in capsys.readouterr().out


def test_an_empty_database_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()  # what a first sync of an empty board leaves
    for command in (["games"], ["standings"], ["stats"]):
        assert main(command + ["--db", str(empty)]) == 0
        assert "no " in capsys.readouterr().out
    assert main(["plot", "standings", "--db", str(empty), "--out", str(tmp_path / "x.png")]) == 1
    assert "no games in %s yet (run `croupier sync`)" % empty in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_a_database_without_what_was_asked_says_what_it_holds(db, tmp_path, capsys):
    holds = "the database holds 1 BASTA game and 2 Lobo 77 games (1 playing)"
    assert main(["games", "--db", db, "--status", "abandoned"]) == 0
    assert capsys.readouterr().out == "no abandoned games; %s\n" % holds
    assert main(["standings", "--db", db, "--game", "maumau"]) == 0
    assert capsys.readouterr().out == "no finished Mau-Mau games; %s\n" % holds
    computer = str(tmp_path / "computer.sqlite3")
    with Store(computer) as store:
        Session(store, [1], seed=1).quit()  # one game against the computer, quit at once
    holds = "the database holds 1 computer Mau-Mau game (1 abandoned)"
    assert main(["standings", "--db", computer]) == 0
    assert capsys.readouterr().out == "no finished games; %s\n" % holds
    assert main(["plot", "standings", "--db", computer, "--out", str(tmp_path / "x.png")]) == 1
    assert "no finished games to chart; %s" % holds in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_stats_gives_no_average_for_a_kind_without_a_finished_game(db, capsys):
    with Store(db) as store:
        Session(store, [1], seed=1).quit()
    assert main(["stats", "--db", db]) == 0
    [row] = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("maumau_match")]
    assert row == ["maumau_match", "1", "0", "1", "-", "-"]


def test_the_default_database_lives_in_the_user_data_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    default = tmp_path / "croupier" / "croupier.sqlite3"
    assert main(["games"]) == 1  # nothing synced yet: said, and nothing created
    assert "no database at %s (run `croupier sync`" % default in capsys.readouterr().err
    assert not (tmp_path / "croupier").exists()
    fill_database(default)
    assert main(["games"]) == 0
    assert "lobo77" in capsys.readouterr().out


def lines_fit(out, width=80):
    assert out.strip(), "no output"
    assert max(len(line) for line in out.splitlines()) <= width, out
    return out


def test_games_piped_at_80_columns_shows_whole_ids_headers_and_marked_dates(db):
    out = lines_fit(piped("games", "--db", db))
    header = next(line for line in out.splitlines() if line.startswith("#"))
    assert header.split() == ["#", "started", "game", "players", "status", "cards", "id"]
    rows = {line.split()[0]: line for line in out.splitlines() if line[:1].isdigit()}
    # the Lobo 77 game was played in an earlier boot: no later than the start of boot 2
    assert "≤ 2026-11-30 19:05" in rows["1"] and rows["1"].rstrip().endswith("240a:8247:1")
    # the BASTA game was played in the boot the sync saw: its time is known
    assert " 2026-11-30 19:05 " in rows["2"] and "≤" not in rows["2"] and "~" not in rows["2"]
    assert "? unknown" in out  # the legend of the marks


def test_a_short_id_from_the_table_names_its_game(db, tmp_path):
    assert main(["plot", "game", "240a:8247:20", "--db", db, "--out", str(tmp_path / "g.png")]) == 0
    with Store(db) as store:
        assert store.find_game("240a:8247:20")["game"] == "basta"


def test_standings_piped_at_80_columns_give_each_game_its_own_columns(db):
    out = lines_fit(piped("standings", "--db", db))
    tables = {}
    for block in out.split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines:
            tables[lines[0].split(",")[0]] = lines
    assert tables["lobo77"][1].split() == ["player", "games", "wins", "win", "rate", "tokens", "lost", "doublets",
                                           "busts", "out"]
    basta_header = tables["basta"][1]
    assert "penalties" in basta_header and "tokens" not in basta_header and "busts" not in basta_header
    with Store(db) as store:
        [basta] = [g for g in store.games() if g["game"] == "basta"]
    penalties = {p["name"]: p["penalties"] for p in basta["final_state"]["players"]}
    shown = {line.split()[0]: int(line.split()[4]) for line in tables["basta"][3:]}
    assert shown == penalties
    assert "≤ 2026-11-30 19:05" in tables["lobo77"][0]  # the period the games were played in


def test_export_csv_gives_iso_dates_with_bounds_and_each_games_own_columns(db, capsys):
    assert main(["export", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    lobo, basta = rows[0], rows[len(LOBO)]
    assert (lobo["started"], lobo["started_min"]) == ("", "")  # an earlier boot: not known, never guessed
    # ... but 18 s (its 19 records, 1 s apart) before boot 2 began, 1000 s before the hello
    assert lobo["started_max"] == "2026-11-30T19:05:03Z"
    assert basta["started"] == "2026-11-30T19:05:23Z" and basta["started_min"] <= basta["started"] <= basta["started_max"]
    assert basta["penalties"] != "" and basta["tokens_lost"] == basta["busts"] == ""
    assert lobo["tokens_lost"] != "" and lobo["penalties"] == ""


def test_a_table_too_wide_for_80_columns_comes_in_parts_losing_no_column(tmp_path):
    names = ["Alexandrina Longname", "Bartholomew Q", "Cornelius Jr", "Desdemona Vale", "Evangeline O",
             "Fitzgerald Park", "Gwendolyn Ash", "Hieronymus Bosch"]  # eight seats: the most Lobo 77 takes
    path = tmp_path / "wide.sqlite3"
    records = journal("lobo77", names, script_game("lobo77", names, seed=2))
    with Store(path) as store, store.transaction():
        store.add_records(DEVICE, EPOCH, records)
        game, results = replay(records)
        game.update(device=DEVICE, log_epoch=EPOCH)
        store.save_game(game, results)
    out = lines_fit(piped("standings", "--db", str(path)))
    assert "Head-to-head: games the row player won / games played together (part 1 of 2)" in out
    headers = ""  # every table's header lines: from its title to its rule
    for block in out.strip().split("\n\n"):
        lines = block.strip("\n").splitlines()
        rule = [i for i, line in enumerate(lines) if line.startswith("─")]
        assert rule, block
        headers += " ".join(lines[1:rule[0]]) + " "
    for name in names:
        assert all(word in headers for word in name.split())  # every column is shown, its header whole
        assert sum(line.startswith(name + " ") for line in out.splitlines()) >= 3  # a row in every table
