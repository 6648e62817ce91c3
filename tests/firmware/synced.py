"""After a game played by keys on the virtual board: sync it with the `croupier` command and
read it back from standings and the JSON export, as a user would."""
import json

from croupier.cli import main


def synced_game(port, folder, capsys):
    """(the one exported game, the standings text) after `croupier sync` from port."""
    db = str(folder / "games.sqlite3")
    assert main(["sync", "--port", port, "--db", db]) == 0
    capsys.readouterr()
    assert main(["standings", "--db", db]) == 0
    standings = capsys.readouterr().out
    out = folder / "games.json"
    assert main(["export", "--format", "json", "--db", db, "--out", str(out)]) == 0
    (game,) = json.loads(out.read_text())["games"]
    return game, standings
