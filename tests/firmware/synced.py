"""After a game played by keys on the virtual board: sync it with the `croupier` command and
read it back from standings and the JSON export, as a user would."""
import json

from croupier.cli import main
from ui_run import game_keys, press_keys, wait_for_end


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


def play_by_keys_and_sync(vb, link, folder, capsys, engine, cards, setup, keys_of):
    """Play cards on CPython's engine and, after the setup keys, the same cards by keys on the
    board's matrix: the board ends in the engine's state. Then close the test's own link and
    sync the board as a user would: the game comes back over, with that final state, and its
    winners are in the standings."""
    effects = [engine.play(card) for card in cards]
    state = engine.state()
    press_keys(vb, setup + " " + game_keys(state["game"], cards, effects, keys_of))
    assert wait_for_end(link) == state
    link.port.close()
    game, standings = synced_game(vb.port, folder, capsys)
    assert game["status"] == "over" and game["final_state"] == state
    assert all(state["players"][seat]["name"] in standings for seat in state["winners"])
