"""Whole Lobo 77 and BASTA games entered through the keypad end with the rules engine's
winners (the cards are chosen at random and played on CPython's engine first)."""
import pytest

from ui_run import LONG_GAME_HEAP, game_keys, random_game, run_ui, setup_keys


@pytest.mark.parametrize("game, count, options, seed", [
    ("lobo77", 4, {}, 1),
    ("lobo77", 3, {"tokens": 2}, 2),
    ("lobo77", 6, {"tokens": 1}, 3),
    ("basta", 4, {}, 1),
    ("basta", 3, {"limit": 2}, 2),
    ("basta", 5, {"limit": 6}, 3),
])
def test_whole_game_through_the_keys_ends_with_the_right_winners(micropython, tmp_path, game,
                                                                 count, options, seed):
    cards, engine, effects = random_game(game, count, options, seed)
    expected = engine.state()
    assert expected["over"] and expected["winners"]
    if game == "lobo77":
        assert len(expected["winners"]) == 1
    snaps = run_ui(micropython, tmp_path, [
        ("tick", 1500), ("keys", setup_keys(game, count, options)),
        ("keys", game_keys(game, cards, effects)), ("snap", "end")], heap=LONG_GAME_HEAP)
    end = snaps[-1]
    assert end["inputs"] == cards
    assert end["state"] == expected  # winners included
    assert end["news"] == []  # the winner screen was shown and closed by the last ok
