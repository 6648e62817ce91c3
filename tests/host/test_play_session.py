"""The match against the computer without a screen (play.session), its journal in the store,
and the games it saves as `croupier games` and `croupier standings` list them."""
import csv
import io
import os
import sqlite3
import time

import pytest

from croupier import plots
from croupier.cli import main
from croupier.dates import iso
from croupier.play.journal import DEVICE
from croupier.play.session import PERSON, Session
from croupier.rules import Illegal
from croupier.rules.maumau_bots import Bot
from croupier.store import Store
from croupier.sync import replay


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "220")  # the tables' rows unwrapped, one line per game
    return str(tmp_path / "games.sqlite3")


def play_to_the_end(session, person=None, until=lambda: False):
    """The whole match (or until until() holds), the person's moves chosen by a computer
    strategy (strength 2 by default)."""
    person = person or Bot(2, 99)
    while not session.over and not until():
        if session.between_rounds():
            session.deal()
        elif session.persons_turn():
            session.play(person.choose(session.view()))
        else:
            session.computer_step()


def test_a_whole_headless_game_is_saved_and_listed_by_games_and_standings(db, capsys):
    with Store(db) as store:
        session = Session(store, [1, 3], name="Mia", seed=21)
        play_to_the_end(session)
        saved = session.saved
        records = session.journal.records()
        games = store.games()
    assert saved["status"] == "over" and len(games) == 1
    game = games[0]
    assert game["game"] == "maumau_match" and game["device"] == DEVICE
    assert [(p["name"], p["computer"]) for p in game["players"]] == [("Mia", None), ("Ada", 1), ("Alan", 3)]
    assert [p["won"] for p in game["players"]] == [int(s in session.game.winners) for s in range(3)]
    # The records are a board's journal: new, a play per input, end; they replay to the end.
    kinds = [r[3] for r in records]
    assert kinds[0] == "new" and kinds[-1] == "end" and set(kinds[1:-1]) == {"play"}
    assert [r[4] for r in records[1:-1]] == session.game.inputs
    assert [r[0] for r in records] == list(range(records[0][0], records[0][0] + len(records)))
    assert replay(records)[0]["final_state"] == session.game.state()
    assert game["timeline"]["meter"] == "score"

    assert main(["games", "--db", db]) == 0
    out = capsys.readouterr().out
    winner = session.label(session.game.winners[0])
    assert "maumau (vs computer)" in out and "over" in out
    assert "Ada (computer 1)" in out and "Alan (computer 3)" in out and winner + "*" in out
    for game_type in ("maumau", "maumau_match"):
        assert main(["standings", "--db", db, "--game", game_type]) == 0
        out = capsys.readouterr().out
        assert "Mia" in out and "Ada (computer 1)" in out and "Alan (computer 3)" in out
    assert main(["standings", "--db", db, "--game", "lobo77"]) == 0
    assert "no finished Lobo 77 games; the database holds 1 computer Mau-Mau game\n" == capsys.readouterr().out


def test_the_next_game_numbers_its_records_on_in_the_same_journal(db):
    with Store(db) as store:
        first = Session(store, [1], seed=1)
        first.deal()
        first.quit()
        second = Session(store, [1], seed=2)
        assert second.journal.log_epoch == first.journal.log_epoch
        last = max(r[0] for r in first.journal.records())
        assert second.journal.game_id == last + 1
        assert store.log_epochs(DEVICE) == [first.journal.log_epoch]


def test_a_move_out_of_turn_or_against_the_rules_is_refused_and_changes_nothing(db):
    with Store(db) as store:
        session = Session(store, [1, 1], seed=8)
        with pytest.raises(Illegal, match="not dealt"):
            session.play("draw")
        session.deal()
        assert session.persons_turn()
        hand = session.view()["hand"]
        wrong = [c for c in hand if c not in set(m.split(":")[0] for m in session.view()["legal"])]
        before = session.game.state()
        with pytest.raises(Illegal, match="does not go on|wished"):
            session.play(wrong[0])
        session.play("draw")
        assert session.computers_turn()
        with pytest.raises(Illegal, match="it is Ada's turn"):
            session.play(session.view()["hand"][0])
        assert session.game.inputs[-1] == "draw" and session.game.state() != before
        seat, move, effects = session.computer_step()
        assert seat == 1 and move in session.game.inputs


def test_between_rounds_a_newcomer_starts_at_the_worst_score_and_a_leaver_is_struck_off(db, tmp_path):
    with Store(db) as store:
        session = Session(store, [2, 2], seed=3)
        person = Bot(2, 5)
        session.deal()
        while not session.between_rounds():
            if session.persons_turn():
                session.play(person.choose(session.view()))
            else:
                session.computer_step()
        worst = min(r["score"] for r in session.scores())
        assert worst < 0
        with pytest.raises(ValueError):
            session.add_opponent(6)
        seat = session.add_opponent(5)
        assert seat == 3 and session.label(seat) == "Grace (computer 5)"
        session.leave(1)
        rows = dict((r["seat"], r) for r in session.scores())
        assert rows[3]["score"] == worst and rows[3]["computer"] == 5
        assert rows[1]["left"] and not rows[1]["out"]
        assert [r["seat"] for r in session.scores()][-1] == 1  # struck off: at the bottom
        session.deal()
        assert session.view()["counts"][3] == 7 and session.view()["counts"][1] == 0
        with pytest.raises(Illegal, match="between rounds"):
            session.add_opponent(1)
        with pytest.raises(Illegal, match="between rounds"):
            session.leave(2)
        games = store.games()
        assert [p["computer"] for p in games[0]["players"]] == [None, 2, 2, 5]
    chart = tmp_path / "game.png"
    assert main(["plot", "game", "1", "--db", db, "--out", str(chart)]) == 0  # a seat joined late
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_table_takes_five_players_at_most(db):
    with Store(db) as store:
        session = Session(store, [1, 1, 1, 1])
        with pytest.raises(Illegal, match="2 to 5 players"):
            session.add_opponent(1)
        assert len(session.game.names) == 5


def test_when_the_person_leaves_the_computer_players_play_the_match_out(db):
    with Store(db) as store:
        session = Session(store, [1, 2, 1], seed=6)
        session.leave(PERSON)
        assert session.over and session.saved["status"] == "over"
        assert PERSON not in session.game.winners
        assert session.scores()[-1]["seat"] == PERSON and session.scores()[-1]["left"]
        assert store.games()[0]["status"] == "over"


def test_a_game_quit_before_its_end_is_saved_as_abandoned(db, capsys):
    with Store(db) as store:
        session = Session(store, [4], seed=9)
        session.deal()
        session.play("draw")
        played = list(session.game.inputs)
        assert session.quit()["status"] == "abandoned"
        game = store.games()[0]
        assert game["status"] == "abandoned"
        records = session.journal.records()
        assert [r[4] for r in records if r[3] == "play"] == played  # nothing played is lost
        assert records[-1][3] == "abandon"
    assert main(["games", "--db", db, "--status", "abandoned"]) == 0
    assert "Ada (computer 4)" in capsys.readouterr().out


def test_a_bad_setup_is_refused_with_a_reason(db):
    with Store(db) as store:
        with pytest.raises(ValueError, match="1 to 4 opponents"):
            Session(store, [])
        with pytest.raises(ValueError, match="strength is 1 to 5"):
            Session(store, [0])
        with pytest.raises(ValueError, match="at most 24"):
            Session(store, [1], name="x" * 30)
        assert store.games() == []
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM records").fetchone() == (0,)


@pytest.mark.parametrize("argv, error", [
    (["--delay", "-1"], "--delay is 0 or more"),
    (["--seed", "-5"], "--seed 0 to"),
    (["--name", "n" * 25], "--name has at most 24"),
    (["--limit", "50"], "option limit must be a whole number from -999 to -1"),
])
def test_bad_options_of_the_game_on_screen_get_one_line_and_no_database(db, capsys, argv, error):
    assert main(["play", "maumau", "--db", db] + argv) == 1
    err = capsys.readouterr().err
    assert error in err and len(err.strip().splitlines()) == 1
    assert not os.path.exists(db)


def test_a_person_out_at_the_limit_watches_the_computer_players_play_on(db):
    with Store(db) as store:
        session = Session(store, [1, 1], seed=3, limit=-30)
        person = Bot(1, 3)
        with pytest.raises(Illegal, match="still in the game"):
            session.play_out()
        play_to_the_end(session, person, until=lambda: session.view()["out"][PERSON])
        assert not session.over, "seed 3: the person goes out first, two computer players are left"
        session.deal()
        with pytest.raises(Illegal, match="out of the game"):
            session.play("draw")
        assert session.play_out() and session.over
        assert PERSON not in session.game.winners and session.saved["status"] == "over"


def test_games_against_the_computer_are_dated_exactly_in_every_listing(db, utc, capsys, tmp_path, monkeypatch):
    """The laptop knows the time: games, standings, the CSV export and a chart's title say when
    a game started and ended, to the minute (the export to the second)."""
    from croupier import plots

    moments = iter(range(1_796_066_520, 1_796_066_520 + 100_000, 7))  # 2026-11-30 19:22 UTC, 7 s a move
    with Store(db) as store:
        session = Session(store, [1, 1], seed=21, clock=lambda: next(moments))
        play_to_the_end(session)
        records = session.journal.records()
    started, ended = records[0][1], records[-1][1]
    assert ended - started > 60
    day, last = (time.strftime("%Y-%m-%d %H:%M", time.gmtime(t)) for t in (started, ended))
    assert day == "2026-11-30 19:22"
    assert main(["games", "--db", db]) == 0
    assert day in capsys.readouterr().out
    assert main(["standings", "--db", db]) == 0
    assert "%s to %s" % (day, last) in capsys.readouterr().out
    assert main(["export", "--db", db]) == 0
    [row] = [r for r in csv.DictReader(io.StringIO(capsys.readouterr().out)) if r["seat"] == "0"]
    assert (row["started"], row["ended"]) == (iso(started), iso(ended))
    titles = []
    monkeypatch.setattr(plots, "_save", lambda fig, out: titles.append(fig.texts[0].get_text()) or out)
    assert main(["plot", "game", "1", "--db", db, "--out", str(tmp_path / "g.png")]) == 0
    assert "(%s)" % day in titles[0]
