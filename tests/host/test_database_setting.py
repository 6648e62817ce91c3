"""CROUPIER_DB names the database when no --db does, and --help shows the one in use."""
import pytest

from croupier.cli import main
from croupier.link import connect
from croupier.store import Store


def test_croupier_db_picks_the_database_and_help_shows_it(vboard, tmp_path, monkeypatch, capsys):
    db = tmp_path / "club.sqlite3"
    monkeypatch.setenv("CROUPIER_DB", str(db))
    assert main(["games"]) == 1
    assert "no database at %s" % db in capsys.readouterr().err
    with connect(vboard.port) as link:
        link.call("new", game="lobo77", players=["Ann", "Bob"])
    assert main(["sync", "--port", vboard.port]) == 0
    assert "database: %s" % db in capsys.readouterr().out
    with Store(db) as store:
        assert [g["game"] for g in store.games()] == ["lobo77"]  # the board's game went there
    monkeypatch.setenv("COLUMNS", "500")  # the path on one line: help text breaks at its hyphens
    with pytest.raises(SystemExit):
        main(["standings", "--help"])
    assert "(default: %s, from $CROUPIER_DB when set" % db in capsys.readouterr().out
