"""Two-player sums through the keypad: the 3x3 board on the OLED (owner and stack
of each cell), the x2 marker, captures, force / protect, line and stack wins, running out of
markers, and whole matches ending with the engine's winner."""
import pytest

from croupier.rules import new_game
from ui_run import BOOTED, LONG_GAME_HEAP, game_keys, lit, play_booted as play, random_game, run_ui
from synced import play_by_keys_and_sync

DUO = ("keys", "5 ok ok ok ok")  # P1 P2, rows layout, to 5 points, P1 opens
SOFT = {"draw": "b", "force": "c a", "protect": "c b", "reveal": "c c a", "stuck": "c c b"}
INPUTS = [str(n) for n in range(6)] * 4 + ["%dx" % n for n in range(6)] + list(SOFT)
CELL_W, CELL_H, BOARD_Y = 17, 15, 9  # the board's geometry on the screen


def keys_of(card):
    if card in SOFT:
        return SOFT[card]
    if card.endswith("x"):
        return card[0] + " a"  # the typed card with the x2 marker
    return card + " ok"


def deal(rng, state):
    return rng.choice(INPUTS)


def setup_keys(options):
    layout = " 1" if options.get("layout") == "276951438" else ""
    target = " 2" * ((options.get("target", 5) - 5) % 20)
    return "5 ok ok%s%s ok ok" % (layout, target)


@pytest.mark.parametrize("options, seed", [
    ({}, 1),
    ({"target": 2, "layout": "276951438"}, 2),
    ({"target": 3}, 3),
])
def test_whole_match_through_the_keys_ends_with_the_right_winner(micropython, tmp_path,
                                                                 options, seed):
    cards, engine, effects = random_game("duo", 2, options, seed, deal=deal)
    expected = engine.state()
    assert expected["over"] and len(expected["winners"]) == 1
    end = run_ui(micropython, tmp_path, [
        BOOTED, ("keys", setup_keys(options)),
        ("keys", game_keys("duo", cards, effects, keys_of)), ("snap", "end")],
        heap=LONG_GAME_HEAP)[-1]
    assert end["inputs"] == cards
    assert end["state"] == expected
    assert end["setup"]["options"] == dict({"layout": "123456789", "target": 5}, **options)


def cell_pixels(fb, cell, layout="123456789"):
    """Lit pixels inside a cell's frame."""
    at = layout.index(str(cell))
    return lit(fb, (at % 3) * CELL_W + 1, BOARD_Y + (at // 3) * CELL_H + 1, CELL_W - 1, CELL_H - 1)


def test_board_shows_owners_stacks_and_the_x2_and_captures_move_markers(micropython, tmp_path):
    s = play(micropython, tmp_path, DUO, ("snap", "empty"),
             ("keys", "3 ok 2 a"), ("snap", "x2"),  # P1 opens 3, P2 plays 2 with x2 on 5
             ("keys", "4 ok 1 ok"), ("snap", "stack"),  # P1 4 on 6, P2 1 on 5 again
             ("keys", "4 ok"), ("snap", "capture"))  # P1 4 on 5: captures both
    x2 = s["x2"]["state"]
    assert s["x2"]["inputs"] == ["3", "2x"]
    assert x2["board"][4] == [1, 1, True] and x2["players"][1]["x2"] is False
    assert x2["players"][1]["markers"] == 9
    empty_cell = cell_pixels(s["empty"]["fb"], 5)
    assert 0 < empty_cell < 40  # the cell's number
    stack = s["stack"]["state"]
    assert stack["board"][4] == [1, 2, True] and stack["board"][5] == [0, 1, False]
    solid, framed = cell_pixels(s["stack"]["fb"], 6), cell_pixels(s["stack"]["fb"], 5)
    assert solid > 120  # P1's cell is solid
    assert 40 < framed < 100  # P2's is framed, with "2*"
    capture = s["capture"]["state"]
    assert capture["board"][4] == [0, 1, False]
    assert capture["players"][0]["captured"] == 2
    assert cell_pixels(s["capture"]["fb"], 5) > 120


def test_force_protect_and_refusals(micropython, tmp_path):
    s = play(micropython, tmp_path, DUO,
             ("keys", "3 ok 2 ok c a"), ("snap", "forced"),  # P2 plays, then forces P1
             ("keys", "b"), ("snap", "no_draw"),
             ("keys", "3 ok 1 ok c b"), ("snap", "protected"),  # P1 plays, P2 plays+protects
             ("keys", "4 ok c a"), ("snap", "no_force"),
             ("keys", "4"), ("snap", "same"))
    forced = s["forced"]["state"]
    assert forced["forced"] is True and forced["players"][1]["markers"] == 8
    assert s["no_draw"]["message"] == "P1 is forced to play (stuck if every card equals the last)"
    assert s["no_draw"]["state"] == forced
    assert s["protected"]["state"]["protected"] == 1
    assert s["no_force"]["message"] == "P2 is protected this turn"
    assert s["same"]["preview"] == ["4 -> ? a card", "must differ from", "the last one (4)"]  # wrapped


def test_three_in_a_row_wins_two_points_with_the_x2(micropython, tmp_path):
    # rows layout: P1 takes 1 (0+1), 2 (1+1? no: cards differ) ... built from sums:
    # P1 opens 0; P2 1 -> cell 1 (P2); P1 3 -> cell 4; P2 0 -> 3; P1 5 -> 5; P2 2 -> 7;
    # P1 4x -> 6 with the x2: P1 owns 4 5 6, a row with the x2: 2 points
    s = play(micropython, tmp_path, DUO, ("keys", "0 ok 1 ok 3 ok 0 ok 5 ok 2 ok 4"),
             ("snap", "typed"), ("keys", "a"), ("snap", "won"))
    assert s["typed"]["preview"] == ["4 -> cell 6 WIN", "P1 wins the round"]
    won = s["won"]["state"]
    assert s["won"]["inputs"][-1] == "4x"
    assert won["players"][0]["score"] == 2 and won["round"] == 2 and won["turn"] == 1
    assert s["won"]["news"] == ["ROUND 2"]


def test_match_by_keys_on_the_virtual_board(vb, link, tmp_path, capsys):
    """The whole firmware on the virtual board, keys pressed on its matrix: a match to one
    point, won by P1's row 4 5 6 with the x2 marker."""
    cards = ["0", "1", "3", "0", "5", "2", "4x"]
    engine = new_game("duo", ["P1", "P2"], {"target": 1})
    play_by_keys_and_sync(vb, link, tmp_path, capsys, engine, cards, setup_keys({"target": 1}), keys_of)
    assert engine.state()["winners"] == [0]
