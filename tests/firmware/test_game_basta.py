"""Whole BASTA games entered through the keypad end with the rules engine's winner."""
import pytest

from ui_run import LONG_GAME_HEAP, game_keys, random_game, run_ui, setup_keys


@pytest.mark.parametrize("count, options, seed", [
    (4, {}, 1),
    (3, {"limit": 2}, 2),
    (5, {"limit": 6}, 3),
])
def test_whole_game_through_the_keys_ends_with_the_right_winner(micropython, tmp_path,
                                                                count, options, seed):
    cards, engine, effects = random_game("basta", count, options, seed)
    expected = engine.state()
    assert expected["over"]
    snaps = run_ui(micropython, tmp_path, [
        ("tick", 1500), ("keys", setup_keys("basta", count, options)),
        ("keys", game_keys("basta", cards, effects)), ("snap", "end")],
        heap=LONG_GAME_HEAP)
    end = snaps[-1]
    assert end["inputs"] == cards
    assert end["state"] == expected
    assert end["state"]["winners"] == expected["winners"] and expected["winners"]
    assert end["news"] == []  # the winner screen was shown and closed by the last ok
