"""`croupier play maumau` on screen, driven through Textual's pilot: keys and clicks as a person
gives them, fixed seeds (the table's chance), computer moves without delay."""
import asyncio
import threading

import pytest
from textual.widgets import Button, Footer, Input

from croupier.play.app import CARD_KEYS, STRENGTH_NAMES, GameOverScreen, MauMauApp, NewGameScreen, RoundScreen, TableScreen, face
from croupier.play.session import PERSON
from croupier.rules import Illegal
from croupier.store import Store


@pytest.fixture
def db(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        yield store


def run(app, steps, size=(180, 50)):
    async def main():
        async with app.run_test(size=size) as pilot:
            await steps(pilot)
    asyncio.run(main())


def shown(app, selector):
    """The text a widget of the current screen shows."""
    return str(app.screen.query_one(selector).content)


async def start(pilot, opponents=2):
    """From the new-game screen: opponents (one at a time, by key), strength 1 for each
    (left arrow on each row), Start clicked."""
    app = pilot.app
    for _ in range(3 - opponents):
        await pilot.press("minus")
    for _ in range(opponents):
        await pilot.press("left", "left", "down")
    await pilot.click("#start")
    await pilot.pause()
    assert isinstance(app.screen, TableScreen)


async def lay(pilot, index):
    """Pick the person's card at index (its digit key, or a click beyond ten) and play it."""
    if index < len(CARD_KEYS):
        await pilot.press(CARD_KEYS[index], "enter")
    else:
        await pilot.click("#card-%d" % index)
    await pilot.pause()


def playable(app):
    """The index in the person's hand of the first card the rules allow, or None."""
    view = app.session.view()
    cards = set(move.split(":")[0] for move in view["legal"] if move not in ("draw", "mau"))
    return next((i for i, card in enumerate(view["hand"]) if card in cards), None)


async def move(pilot):
    """The person's move by keys: the first card allowed (a jack wishing hearts; Mau said
    before the second-to-last card), else draw."""
    app = pilot.app
    index = playable(app)
    if index is None:
        await pilot.press("d")
    else:
        jack = app.session.view()["hand"][index][0] == "J"
        if len(app.session.view()["hand"]) == 2:
            await pilot.press("m")
        await lay(pilot, index)
        if jack:
            await pilot.press("h")
    await pilot.pause()


async def settle(pilot):
    """Let a computer player's choice (a worker thread) finish and its move show."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def until(pilot, condition, most=600):
    """Play the person's moves (and deal the next rounds) until condition() holds."""
    app = pilot.app
    for _ in range(most):
        if condition():
            return
        if isinstance(app.screen, RoundScreen):
            await pilot.press("n")
            await pilot.pause()
        elif app.session.persons_turn():
            await move(pilot)
        else:
            await settle(pilot)
    raise AssertionError("the situation never came up")


def test_new_game_on_screen_then_a_legal_card_is_played(db):
    app = MauMauApp(db, "Mia", seed=11, delay=0)

    async def steps(pilot):
        await pilot.press("minus")  # 2 opponents
        await pilot.click("#stronger-0")  # the first: 3 -> 4 by mouse
        await pilot.press("down", "left", "left")  # the second: 3 -> 1 by keys
        assert shown(app, "#strength-0") == "4  " + STRENGTH_NAMES[4]
        assert shown(app, "#strength-1") == "1  " + STRENGTH_NAMES[1]
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        players = shown(app, "#players")
        assert "Ada (computer 4)" in players and "Alan (computer 1)" in players and "Mia" in players
        view = app.session.view()
        assert "Turn: Mia" in shown(app, "#table") and "clockwise" in shown(app, "#table")
        assert "pile: " in shown(app, "#table")
        index = playable(app)
        assert index is not None, "seed 11 deals Mia a card that fits"
        card = view["hand"][index]
        await lay(pilot, index)
        if card[0] == "J":
            await pilot.press("s")
        assert app.moves[1].startswith("Mia lays %s" % face(card))  # after the deal's line
        assert app.session.game.inputs[1].split(":")[0] == card  # after the deal
        assert len(app.session.view()["hand"]) in (6, 7)  # 6, or 7 when a 7 made Mia draw

    run(app, steps)


def test_a_card_the_rules_forbid_is_refused_with_the_reason(db):
    app = MauMauApp(db, seed=5, delay=0)

    async def steps(pilot):
        await start(pilot)
        view = app.session.view()
        legal = set(m.split(":")[0] for m in view["legal"])
        index = next(i for i, card in enumerate(view["hand"]) if card not in legal)
        card = view["hand"][index]
        with pytest.raises(Illegal) as refused:
            app.session.game.check_card(card)
        before = app.session.game.state()
        await pilot.click("#card-%d" % index)
        await pilot.pause()
        assert shown(app, "#message") == refused.value.reason
        assert "does not go on" in refused.value.reason or "wished" in refused.value.reason
        assert ("%s does not go on %s" % (face(card), face(view["pile"][-1])) in shown(app, "#message")
                or "wished" in refused.value.reason)  # the suits as the cards show them, not 2h
        assert app.session.game.state() == before  # nothing changed: still the person's turn
        assert app.session.persons_turn()

    run(app, steps)


def test_mau_announced_and_a_forgotten_one_costs_two_cards(db):
    app = MauMauApp(db, seed=2, delay=0)

    def two_cards_and_one_fits():
        view = app.session.view()
        return app.session.persons_turn() and len(view["hand"]) == 2 and playable(app) is not None \
            and app.session.view()["hand"][playable(app)][0] != "J" and not view["draw"]

    async def steps(pilot):
        await start(pilot)
        await until(pilot, two_cards_and_one_fits)
        count = len(app.moves)
        await pilot.press("m")
        await pilot.pause()
        assert app.moves[count:] == ["You: Mau!"]
        assert "Mau!" in shown(app, "#players")  # announced, shown at the person's seat
        count = len(app.moves)
        await lay(pilot, playable(app))
        assert "forgot" not in "\n".join(app.moves[count:])
        await until(pilot, two_cards_and_one_fits)
        card = app.session.view()["hand"][playable(app)]
        count = len(app.moves)
        await lay(pilot, playable(app))  # no "m" this time
        told = app.moves[count:]
        assert told[:2] == ["You lay %s" % face(card), "You forgot to say Mau: draw 2"]
        assert list(app.screen.query_one("#moves").lines[-len(told):]) == told  # on screen
        drawn_since = sum(int(line.split()[-1]) for line in told[2:] if line.startswith("You draw "))
        assert len(app.session.view()["hand"]) == 1 + 2 + drawn_since

    run(app, steps)


def test_a_round_end_shows_the_score_list(db):
    app = MauMauApp(db, seed=4, delay=0)

    async def steps(pilot):
        await start(pilot, opponents=3)
        await until(pilot, lambda: isinstance(app.screen, RoundScreen) or app.session.over)
        assert isinstance(app.screen, RoundScreen), "seed 4: the first round does not end the game"
        scores = shown(app, "#scores")
        rows = app.session.scores()
        assert len(rows) == 4 and any(r["lost"] > 0 for r in rows)
        for r in rows:
            line = next(l for l in scores.splitlines() if l.startswith(app.session.label(r["seat"])))
            assert str(r["score"]) in line.split()  # the negative points so far
            assert r["score"] == -r["lost"] <= 0  # one round played: the loss is the score
        winner = [r for r in rows if r["lost"] == 0]
        assert winner and winner[0]["score"] == 0

    run(app, steps)


def test_the_score_list_shows_who_is_out(db):
    app = MauMauApp(db, seed=1, delay=0, limit=-30)

    def someone_out():
        return isinstance(app.screen, RoundScreen) and any(r["out"] for r in app.session.scores())

    async def steps(pilot):
        await start(pilot, opponents=3)
        await until(pilot, lambda: app.session.over or someone_out())
        assert not app.session.over, "seed 1: a player goes out before the game's end"
        lines = shown(app, "#scores").splitlines()
        for r in app.session.scores():
            line = next(l for l in lines if l.startswith(app.session.label(r["seat"])))
            assert line.endswith(" out") == r["out"] and (r["score"] <= -30) == r["out"]
        out = [r["seat"] for r in app.session.scores() if r["out"]]
        assert not app.screen.query_one("#leave-%d" % out[0]).display  # who is out cannot leave

    run(app, steps)


def test_between_rounds_an_opponent_joins_at_the_worst_score_and_one_leaves(db):
    app = MauMauApp(db, seed=4, delay=0)

    async def steps(pilot):
        await start(pilot, opponents=2)
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        worst = min(r["score"] for r in app.session.scores())
        await pilot.press("plus")  # strength 4
        await pilot.click("#add")
        await pilot.pause()
        joined = app.session.scores()
        newcomer = [r for r in joined if r["seat"] == 3][0]
        assert newcomer["computer"] == 4 and newcomer["score"] == worst
        assert "%s (computer 4)" % newcomer["name"] in shown(app, "#scores")
        assert "joins with %d points" % worst in shown(app, "#message")
        await pilot.click("#leave-1")
        await pilot.pause()
        gone = app.session.label(1)
        line = next(l for l in shown(app, "#scores").splitlines() if l.startswith(gone))
        assert "struck off" in line
        assert not app.screen.query_one("#leave-1").display
        await pilot.press("n")
        await pilot.pause()
        players = shown(app, "#players")
        assert "%s (computer 4)" % newcomer["name"] in players and gone not in players
        counts = app.session.view()["counts"]
        assert counts[3] > 0 and counts[1] == 0  # the newcomer was dealt in, the leaver not

    run(app, steps)


def test_the_person_leaves_and_the_computer_players_play_the_match_out(db):
    app = MauMauApp(db, "Mia", seed=4, delay=0)

    async def steps(pilot):
        await start(pilot, opponents=2)
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        await pilot.press("l")
        for _ in range(2000):
            if isinstance(app.screen, GameOverScreen):
                break
            await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        winner = app.session.game.winners
        assert winner and winner[0] != PERSON
        assert "Winner: %s" % app.session.label(winner[0]) in shown(app, "#winner")
        assert "struck off" in shown(app, "#scores")
        assert str(db.path) in shown(app, "#saved")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)

    run(app, steps)
    games = db.games()
    assert [g["status"] for g in games] == ["over"]
    assert games[0]["players"][0]["name"] == "Mia" and games[0]["players"][0]["computer"] is None


def test_a_player_down_to_one_card_is_shown_holding_1_card(db):
    app = MauMauApp(db, seed=2, delay=0)

    def someone_holds_one():
        return isinstance(app.screen, TableScreen) and 1 in app.session.view()["counts"]

    async def steps(pilot):
        await start(pilot)
        await until(pilot, someone_holds_one)
        counts = app.session.view()["counts"]
        for line in shown(app, "#players").splitlines():
            seat = next(s for s in range(len(counts)) if line[2:].startswith(app.session.label(s) + " "))
            held = "%d card%s " % (counts[seat], "" if counts[seat] == 1 else "s")
            assert held in line, "%r does not say %r" % (line, held)

    run(app, steps)


def test_quitting_mid_round_saves_the_game_as_abandoned(db):
    app = MauMauApp(db, seed=3, delay=0)

    async def steps(pilot):
        await start(pilot)
        await move(pilot)
        await pilot.press("q")
        await pilot.pause()

    run(app, steps)
    games = db.games()
    assert len(games) == 1 and games[0]["status"] == "abandoned"
    assert games[0]["game"] == "maumau_match"
    assert [p["computer"] for p in games[0]["players"]] == [None, 1, 1]


def test_by_mouse_a_jack_wishes_a_suit_mau_too_early_is_refused_and_draw_draws(db):
    app = MauMauApp(db, seed=0, delay=0)

    async def steps(pilot):
        await start(pilot)
        hand = app.session.view()["hand"]
        jack = next(i for i, card in enumerate(hand) if card[0] == "J")
        assert not app.screen.query_one("#wish-s").display
        await pilot.click("#card-%d" % jack)
        await pilot.pause()
        assert shown(app, "#message").startswith("Wish a suit for %s" % face(hand[jack]))
        assert app.screen.query_one("#wish-s").display
        assert app.session.game.inputs[1:] == []  # nothing laid before the wish
        count = len(app.moves)
        await pilot.click("#wish-s")
        await pilot.pause()
        assert app.moves[count] == "You lay %s and wish spades" % face(hand[jack])
        assert app.session.game.inputs[1] == hand[jack] + ":s"
        await until(pilot, app.session.persons_turn)
        assert len(app.session.view()["hand"]) > 2
        await pilot.click("#mau")  # too early
        await pilot.pause()
        assert shown(app, "#message") == "Mau is announced with 2 cards in hand, before laying one"
        held = len(app.session.view()["hand"])
        count = len(app.moves)
        await pilot.click("#draw")
        await pilot.pause()
        assert app.moves[count].startswith("You draw ")
        assert "draw" in [move for seat, move, total in app.session.game.round_log() if seat == PERSON]
        # every card the person took since (the draw, 7s of the computer players) is in hand
        drawn = [int(line.split()[-1]) for line in app.moves[count:] if line.startswith("You draw ")]
        assert drawn[0] >= 1 and len(app.session.view()["hand"]) == held + sum(drawn)

    run(app, steps)


def test_with_a_delay_the_computer_players_wait_before_their_move(db):
    app = MauMauApp(db, seed=11, delay=60)

    async def steps(pilot):
        await start(pilot)
        await move(pilot)
        assert app.session.computers_turn()
        assert app.moves[-1].startswith("You ")  # the computer player has not moved yet
        await pilot.press("d")
        await pilot.pause()
        assert shown(app, "#message").startswith("it is Ada's turn")
        await pilot.press("q")

    run(app, steps)
    assert db.games()[0]["status"] == "abandoned"


def test_a_strong_computer_player_thinks_in_a_worker_thread_while_the_screen_answers(db):
    """A strength-5 choice (up to a second) is made off the UI thread: keys are handled while it
    is pending, and its move is made back on the UI thread, where the database is."""
    app = MauMauApp(db, seed=11, delay=0)
    decide = threading.Event()  # holds every computer choice until the test has pressed its key
    chose_in, moved_in = set(), set()

    def held(choose):
        def choose_when_told(view):
            chose_in.add(threading.current_thread())
            assert decide.wait(10), "the computer player was never let decide"
            return choose(view)
        return choose_when_told

    async def steps(pilot):
        await pilot.press("minus", "right", "right", "down", "right", "right")  # 2 opponents, both 5
        await pilot.click("#start")
        await pilot.pause()
        assert "Ada (computer 5)" in shown(app, "#players") and "Alan (computer 5)" in shown(app, "#players")
        for bot in app.session.bots.values():
            bot.choose = held(bot.choose)
        computer_move = app.session.computer_move
        app.session.computer_move = lambda seat, text: moved_in.add(threading.current_thread()) \
            or computer_move(seat, text)
        await move(pilot)
        inputs = len(app.session.game.inputs)
        assert app.session.computers_turn() and chose_in, "a computer player is choosing"
        await pilot.press("d")  # handled while it thinks: refused, it is not the person's turn
        await pilot.pause()
        assert shown(app, "#message").startswith("it is %s's turn" % app.session.game.names[app.session.game.turn])
        assert len(app.session.game.inputs) == inputs, "no move was made before the choice"
        decide.set()
        await until(pilot, app.session.persons_turn)
        assert len(app.session.game.inputs) > inputs
        assert threading.main_thread() not in chose_in, "the choices were made in worker threads"
        assert moved_in == {threading.main_thread()}, "the moves were made on the UI thread"

    run(app, steps)


def screen_lines(app):
    """The terminal's lines as drawn (Textual's compositor: what the person sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def on_screen(lines, region):
    """The text the screen shows in region, one string per row."""
    return [lines[y][region.x:region.right] for y in range(region.y, region.bottom)]


def check_table_readable(app):
    """Every card of the person's hand shows its key and its face, and the log's last line
    shown is the newest move. Returns True when the table showed a wished suit or a pending
    draw while the log held more moves than it has room for."""
    lines = screen_lines(app)
    height = len(lines) - 1  # the footer's row
    hand = app.session.view()["hand"]
    for i, card in enumerate(hand):
        region = app.screen.query_one("#card-%d" % i).region
        assert region.bottom <= height and region.right <= len(lines[0]), "card %d is off screen" % i
        key = CARD_KEYS[i] if i < len(CARD_KEYS) else ""
        assert on_screen(lines, region)[0].strip() == ("%s %s" % (key, face(card))).strip(), \
            "card %d reads %r" % (i, on_screen(lines, region))
    log = app.screen.query_one("#moves")
    region = log.scrollable_content_region
    assert region.height >= 2 and region.bottom <= height, "the log has room for 2 moves at least"
    shown = [line.rstrip() for line in on_screen(lines, region)]
    while shown and not shown[-1]:
        shown.pop()
    assert shown and shown[-1] == app.moves[-1][:region.width].rstrip(), \
        "the log shows %r, the newest move is %r" % (shown[-3:], app.moves[-1])
    table = str(app.screen.query_one("#table").content)
    return ("Wished suit" in table or "Pending draw" in table) and len(app.moves) > region.height


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_at_80x24_and_up_every_card_is_readable_and_the_log_shows_the_newest_move(db, size):
    """Four opponents (the most lines above the log), the person drawing to 12 cards (two rows
    of the hand, cards beyond the keys), then playing on: checked after every move."""
    app = MauMauApp(db, seed=6, delay=0)
    crowded, held = [], []

    async def steps(pilot):
        await pilot.press("plus")  # 4 opponents
        await pilot.click("#start")
        await pilot.pause()
        for _ in range(400):
            if held and crowded.count(True) >= 3:
                break
            if isinstance(app.screen, RoundScreen):
                await pilot.press("n")
                await pilot.pause()
            elif not isinstance(app.screen, TableScreen):
                break
            elif app.session.persons_turn() and len(app.session.view()["hand"]) < 12 and not held:
                await pilot.press("d")
                await pilot.pause()
            elif app.session.persons_turn():
                await move(pilot)
            else:
                await settle(pilot)
            if isinstance(app.screen, TableScreen):
                crowded.append(check_table_readable(app))
                if len(app.session.view()["hand"]) >= 12:
                    held.append(len(app.session.view()["hand"]))
        assert held, "the person held 12 cards"
        assert crowded.count(True) >= 3, "seed 6: a wished suit or a pending draw beside a full log"

    run(app, steps, size)


def controls(app):
    """The buttons and inputs of the current screen that are displayed."""
    return [widget for widget in list(app.screen.query(Button)) + list(app.screen.query(Input))
            if all(node.display for node in widget.ancestors_with_self if node is not app)]


async def laid_out(pilot, most=200):
    """Wait until the current screen has been laid out: one just pushed has no regions yet."""
    for _ in range(most):
        if all(widget.region.height for widget in controls(pilot.app)):
            return
        await pilot.pause(0.01)


def assert_fits(app):
    """The current screen fits the terminal: nothing to scroll to, every button and input
    shown whole above the footer, and the footer naming each of the screen's keys."""
    screen = app.screen
    footer = screen.query_one(Footer).region
    assert screen.max_scroll_y == 0, "%s is %d lines too tall" % (type(screen).__name__, screen.max_scroll_y)
    for widget in controls(app):
        region = widget.region
        assert region.height and region.y >= 0 and region.bottom <= footer.y and region.right <= footer.right, \
            "#%s at %s is not whole above the footer (row %d)" % (widget.id, region, footer.y)
    keys = screen_lines(app)[footer.y]
    for binding in screen.BINDINGS:
        assert not binding.show or binding.description in keys, "the footer reads %r" % keys


def test_at_80x24_every_screen_fits_from_a_new_game_with_four_opponents_to_its_end(db):
    app = MauMauApp(db, seed=4, delay=0)

    async def steps(pilot):
        await pilot.press("plus")  # 4 opponents: the new game's tallest
        assert shown(app, "#opponents") == "4"
        assert_fits(app)  # the Start button among the rest
        await pilot.click("#start")
        await laid_out(pilot)
        assert_fits(app)
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        assert len(app.session.scores()) == 5  # five players leaving: the score list's tallest
        await laid_out(pilot)
        assert_fits(app)
        await pilot.click("#leave-%d" % PERSON)
        for _ in range(2000):
            if isinstance(app.screen, GameOverScreen):
                break
            await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        await laid_out(pilot)
        assert_fits(app)
        await pilot.click("#new")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)

    run(app, steps, (80, 24))
