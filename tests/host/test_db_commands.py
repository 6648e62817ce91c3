"""The database commands end to end through the CLI: games, standings, stats, export, plot."""
import csv
import io
import json

import pytest
from PIL import Image

from journal_records import BASTA, LOBO, fill_database
from croupier.cli import main
from croupier.store import Store


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
    assert first["id"] == "dev1:e1:1"


def test_plots_are_png_files(db, tmp_path, capsys):
    standings_png, game_png = tmp_path / "s.png", tmp_path / "g.png"
    assert main(["plot", "standings", "--db", db, "--out", str(standings_png)]) == 0
    assert main(["plot", "game", "1", "--db", db, "--out", str(game_png)]) == 0
    for png in (standings_png, game_png):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.size[0] >= 400
    assert main(["plot", "game", "9", "--db", db, "--out", str(game_png)]) == 1
    assert "no game '9'" in capsys.readouterr().err


def test_an_empty_database_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()  # what a first sync of an empty board leaves
    for command in (["games"], ["standings"], ["stats"]):
        assert main(command + ["--db", str(empty)]) == 0
        assert "no " in capsys.readouterr().out
    assert main(["plot", "standings", "--db", str(empty), "--out", str(tmp_path / "x.png")]) == 1
    assert "no finished games yet" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_the_default_database_lives_in_the_user_data_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    default = tmp_path / "croupier" / "croupier.sqlite3"
    assert main(["games"]) == 1  # nothing synced yet: said, and nothing created
    assert "no database at %s (run `croupier sync`" % default in capsys.readouterr().err
    assert not (tmp_path / "croupier").exists()
    fill_database(default)
    assert main(["games"]) == 0
    assert "lobo77" in capsys.readouterr().out
