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


def check_synced(vb, link, folder, capsys, state):
    """Close the test's own link, then sync the board as a user would: the game comes back
    over, with the board's final state, and its winners are in the standings."""
    link.port.close()
    game, standings = synced_game(vb.port, folder, capsys)
    assert game["status"] == "over" and game["final_state"] == state
    assert all(state["players"][seat]["name"] in standings for seat in state["winners"])
