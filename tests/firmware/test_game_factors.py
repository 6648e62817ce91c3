"""The factor race through the keypad: the score pad (penalty cards, the cards held
at STOP, rounds = players, the first player moving left, lowest total wins) and the referee
screen (card on the table, card played -> LEGAL or the reason)."""
import pytest

from croupier.rules import new_game
from ui_run import (
    BOOTED, LONG_GAME_HEAP, game_keys, golden_pixels, pixels, play_booted as play, random_game,
    run_ui)
from synced import play_by_keys_and_sync

FACTORS3 = ("keys", "4 3 ok ok")  # factor race, P1 P2 P3 (no options), P1 starts
REFEREE = "c"


def first_missing_hand(state):
    """The seat the pad asks for: from the round's first player, clockwise."""
    players = state["players"]
    for step in range(len(players)):
        seat = (state["turn"] + step) % len(players)
        if players[seat]["held"] is None:
            return seat
    raise AssertionError("every hand is in")


def deal(rng, state):
    if rng.random() < 0.25:
        return "pen:%d" % rng.randrange(len(state["players"]))
    return "hand:%d:%d" % (first_missing_hand(state), rng.randint(0, 10))


def keys_of(card):
    if card.startswith("pen:"):
        return "a %d" % (int(card[4:]) + 1)
    return " ".join(card.split(":")[2]) + " ok"  # the hand of the player the pad asks for


@pytest.mark.parametrize("count, seed", [(2, 1), (4, 2), (6, 3)])
def test_whole_game_through_the_keys_ends_with_the_lowest_totals(micropython, tmp_path, count,
                                                                 seed):
    cards, engine, effects = random_game("factors", count, {}, seed, deal=deal)
    expected = engine.state()
    assert expected["over"] and expected["round"] == count
    end = run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "4 %d ok ok" % count),
        ("keys", game_keys("factors", cards, effects, keys_of)), ("snap", "end")],
        heap=LONG_GAME_HEAP)[-1]
    assert end["inputs"] == cards
    assert end["state"] == expected
    best = min(p["score"] for p in expected["players"])
    assert end["state"]["winners"] == [s for s, p in enumerate(expected["players"])
                                       if p["score"] == best]


def test_pad_scores_penalties_and_hands_and_the_first_player_moves_left(micropython, tmp_path):
    s = play(micropython, tmp_path, FACTORS3,
             ("keys", "a 2 a 2 a 3"), ("snap", "penalties"),
             ("keys", "4 ok 0 ok 7"), ("snap", "typed"),
             ("keys", "ok"), ("snap", "round2"),
             ("keys", "ok 3"), ("snap", "round2_typed"),
             ("keys", "ok 1 ok 2 ok ok 5 ok 5 ok 9 ok"), ("snap", "end"))
    assert s["penalties"]["inputs"] == ["pen:1", "pen:1", "pen:2"]
    assert [p["penalties"] for p in s["penalties"]["state"]["players"]] == [0, 2, 1]
    # P1 4 cards, P2 none; P3's 7 is previewed: it ends the round
    assert s["typed"]["preview"] == ["7 -> P2 next END", "round scored"]
    round2 = s["round2"]["state"]
    assert [p["score"] for p in round2["players"]] == [4, 6, 10]
    assert round2["round"] == 2 and round2["turn"] == 1
    assert s["round2"]["news"] == ["ROUND 2"]
    # round 2 opens with P2's hand, then P3, then P1
    assert s["round2_typed"]["preview"] == ["3 -> P3 next"]
    end = s["end"]
    assert end["inputs"][3:] == ["hand:0:4", "hand:1:0", "hand:2:7", "hand:1:3", "hand:2:1",
                                 "hand:0:2", "hand:2:5", "hand:0:5", "hand:1:9"]
    assert [p["score"] for p in end["state"]["players"]] == [11, 18, 16]
    assert end["state"]["over"] and end["state"]["winners"] == [0]
    assert end["news"] == ["WINNER"]


def test_referee_rules_on_cards_without_touching_the_game(micropython, tmp_path):
    s = play(micropython, tmp_path, FACTORS3, ("keys", "a 1"),
             ("keys", REFEREE + " 1 2 ok 3 4 ok 4"), ("snap", "factor"),
             ("keys", "5 ok 1"), ("snap", "legal"),
             ("keys", "7 ok"), ("snap", "no_seven"),
             ("keys", "undo 1 0 ok 9"), ("snap", "no_colour_9"),
             ("keys", "1"), ("snap", "same_colour"),
             ("keys", "menu 6"), ("snap", "back"))
    assert pixels(s["factor"]["fb"]) == golden_pixels("factors_referee_no")
    assert pixels(s["legal"]["fb"]) == golden_pixels("factors_referee_legal")
    assert s["no_seven"]["message"] == "values: 2 3 4 5 6 8 9 10 12 15"
    assert s["no_colour_9"]["message"] == "colours are 1 to 6"
    assert pixels(s["same_colour"]["fb"]) != pixels(s["factor"]["fb"])
    for snap in s.values():
        assert snap["inputs"] == ["pen:0"]  # rulings change nothing
    assert s["back"]["preview"] == ["6 -> P2 next"]  # the pad again


def test_game_by_keys_on_the_virtual_board(vb, link, tmp_path, capsys):
    """The whole firmware on the virtual board, keys pressed on its matrix: two rounds, a
    penalty card, P2 wins with 7 points to 10."""
    cards = ["pen:0", "hand:0:3", "hand:1:5", "hand:1:2", "hand:0:4"]
    engine = new_game("factors", ["P1", "P2"])
    play_by_keys_and_sync(vb, link, tmp_path, capsys, engine, cards, "4 2 ok ok", keys_of)
    assert engine.state()["winners"] == [1]
