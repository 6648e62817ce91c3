"""One box synced into two databases: each says what it holds, none pretends a game is still on."""
from croupier.cli import main
from croupier.link import connect
from croupier.store import Store


def games_of(db):
    with Store(db) as store:
        return [(g["game_id"], g["status"], len(g["timeline"]["points"]) - 1) for g in store.games()]


def sync(vboard, db, capsys):
    assert main(["sync", "--port", vboard.port, "--db", str(db)]) == 0
    return capsys.readouterr().out


def games_table(db, capsys):
    assert main(["games", "--db", str(db)]) == 0
    return capsys.readouterr().out


def play(vboard, *cards, new=False):
    """Cards played over the link, which is let go before a sync takes the port."""
    with connect(vboard.port) as link:
        if new:
            link.call("new", game="lobo77", players=["Ann", "Bob", "Cy"])
        for card in cards:
            link.call("play", card=card)


def test_a_game_that_went_on_in_records_another_database_took_says_so(vboard, tmp_path, capsys):
    first, second = tmp_path / "first.sqlite3", tmp_path / "second.sqlite3"
    play(vboard, "5", "6", "7", new=True)  # seq 1-4
    sync(vboard, first, capsys)
    assert "  playing  " in games_table(first, capsys)
    play(vboard, "2", "3")  # seq 5, 6: the second database takes them
    sync(vboard, second, capsys)
    play(vboard, "4")
    out = sync(vboard, first, capsys)
    assert "records 5-6 were acknowledged by another database" in out, out
    assert games_of(first) == [(1, "playing", 3)]  # as last synced: never replayed with cards missing
    table = games_table(first, capsys)
    assert "went on elsewhere" in table and "playing" not in table.replace("went on elsewhere", ""), table
    assert "another database, or a `croupier hil` run, acknowledged" in " ".join(table.split())
    play(vboard, "8")
    sync(vboard, first, capsys)  # and at every later sync
    assert games_of(first) == [(1, "playing", 3)] and "went on elsewhere" in games_table(first, capsys)
