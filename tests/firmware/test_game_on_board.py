"""Acceptance on the virtual board, through key presses only: the whole firmware (keypad
scan, UI, controller, journal on littlefs, display driver) plays whole games to the rules
engine's winners, and shows the reviewed screens on the way."""
import pytest

from ui_run import game_keys, press_keys, random_game, setup_keys, wait_for_end, wait_for_screen


@pytest.mark.parametrize("game, count, options, seed", [
    ("lobo77", 3, {"tokens": 1}, 5),
    ("basta", 3, {"limit": 2}, 6),
])
def test_whole_game_by_keys_on_the_board_ends_with_the_right_winner(vb, link, game, count,
                                                                    options, seed):
    cards, engine, effects = random_game(game, count, options, seed)
    expected = engine.state()
    press_keys(vb, setup_keys(game, count, options))
    press_keys(vb, game_keys(game, cards, effects))
    state = wait_for_end(link)
    assert state == expected
    assert state["winners"] == expected["winners"]


def test_first_card_of_default_lobo_and_screens_on_the_board(vb):
    press_keys(vb, "1 ok ok ok ok")  # no roster on a fresh board: P1..P4
    press_keys(vb, "9 ok")
    wait_for_screen(vb, "board_lobo_first_card")
    press_keys(vb, "a a")  # a second 2x as the first of two cards: refused
    wait_for_screen(vb, "board_illegal")
    assert vb.tones  # click and error buzz went out on the PWM pin
