"""Mau-Mau, the factor race and two-player sums end to end: a whole game of each played on the
virtual board, synced (every game replayed by the host's rules), then seen in games,
standings and both exports."""
import csv
import io
import json

from croupier.cli import main
from croupier.commands.demo import play_through_link, script_game
from croupier.link import connect

GAMES = [("maumau", ["Ana", "Ben"]), ("factors", ["Ana", "Ben", "Cleo"]), ("duo", ["Dev", "Eve"])]


def test_the_other_three_games_sync_into_standings_and_exports(vboard, tmp_path, capsys):
    finals = {}
    with connect(vboard.port) as link:
        for game, players in GAMES:
            finals[game] = play_through_link(link, game, players, script_game(game, players, seed=1))
    assert all(state["over"] and state["winners"] for state in finals.values())
    db = str(tmp_path / "games.sqlite3")
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    assert "3 games updated" in capsys.readouterr().out

    assert main(["games", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert all(game in listing for game, _ in GAMES)

    for game, players in GAMES:
        assert main(["standings", "--db", db, "--game", game]) == 0
        table = capsys.readouterr().out
        winners = [players[seat] for seat in finals[game]["winners"]]
        assert all(name in table for name in players), table
        assert all(name in table for name in winners)

    out = tmp_path / "games.json"
    assert main(["export", "--format", "json", "--db", db, "--out", str(out)]) == 0
    exported = {g["game"]: g for g in json.loads(out.read_text())["games"]}
    assert sorted(exported) == sorted(game for game, _ in GAMES)
    for game, players in GAMES:
        assert exported[game]["status"] == "over"
        assert [p["name"] for p in exported[game]["players"]] == players
        assert exported[game]["final_state"] == finals[game]

    assert main(["export", "--format", "csv", "--db", db]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted({row["game"] for row in rows}) == sorted(game for game, _ in GAMES)
    assert len(rows) == sum(len(players) for _, players in GAMES)
