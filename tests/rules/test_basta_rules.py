# docs/rules.md section 2, BASTA ("50"): one test (or a few) per numbered rule and per card.
# Runs on CPython (pytest) and on MicroPython (tests/rules_host/mp_runner.py).
# With 3 players A B C (seats 0 1 2) seat 0 starts, so play goes A, B, C, A, ...
from croupier.rules import SetupError
from check import game, play, illegal, fx, penalties, raises, fields


def doubles(g):
    return [p["double"] for p in g.state()["players"]]


def test_basta_rule_1_seat_0_starts_clockwise():
    g = game("basta")
    s = g.state()
    assert fields(g, "game round total turn dir owed") == \
        ("basta", 1, 0, 0, 1, 1)
    assert s["over"] is False and s["winners"] == []
    assert [(p["name"], p["out"], p["penalties"], p["double"]) for p in s["players"]] == \
        [("A", False, 0, False), ("B", False, 0, False), ("C", False, 0, False)]
    play(g, "5")
    assert g.state()["turn"] == 1


def test_basta_rule_1_two_to_six_players():
    for count in range(2, 7):
        assert len(game("basta", count).state()["players"]) == count
    for count in (1, 7):
        assert "2 to 6" in raises(SetupError, game, "basta", count).reason


def test_basta_rule_2_exactly_50_is_safe_over_50_takes_a_penalty_and_ends_the_round():
    g = game("basta")
    assert play(g, "50 0") == []
    assert g.play("basta") == [] and g.state()["total"] == 50
    assert g.play("1") == fx("bust", 0, "round_end", 0)
    assert penalties(g) == [1, 0, 0] and g.state()["round"] == 2


def test_basta_rule_2_minus_5_chain_active_player_takes_the_penalty():
    g = game("basta")
    play(g, "48")
    assert g.play("-5") == []
    assert fields(g, "total turn owed") == (43, 1, 1)
    play(g, "-5")
    assert fields(g, "total turn owed") == (38, 1, 1)
    assert g.play("20") == fx("bust", 1, "round_end", 1)


def test_basta_rule_2_card_turned_up_after_minus_5_acts_for_the_active_player():
    g = game("basta")
    play(g, "-5 rev")  # A turns up a direction change: it turns play away from A
    assert fields(g, "total dir turn") == (-5, -1, 2)
    g = game("basta")
    play(g, "-5")
    illegal(g, "dbl:0", "yourself")  # the turned-up double is still A's own card
    play(g, "dbl:1")
    assert fields(g, "turn owed") == (1, 2)


def test_basta_rule_2_player_resolving_a_double_takes_the_penalty():
    g = game("basta")
    play(g, "dbl:1 45")
    assert g.play("10") == fx("bust", 1, "round_end", 1)
    assert penalties(g) == [0, 1, 0]


def test_basta_rule_3_double_resolved_on_targets_next_turn_each_card_checked():
    g = game("basta")
    play(g, "dbl:2")
    assert doubles(g) == [False, False, True]
    assert fields(g, "turn owed") == (1, 1)
    play(g, "5")
    assert fields(g, "turn owed") == (2, 2) and doubles(g) == [False, False, False]
    assert g.play("40") == [] and g.state()["total"] == 45  # first card checked: safe
    assert fields(g, "turn owed") == (2, 1)
    assert g.play("10") == fx("bust", 2, "round_end", 2)


def test_basta_rule_3_first_card_of_a_double_over_50_ends_the_round_at_once():
    g = game("basta")
    play(g, "dbl:1")
    assert g.play("60") == fx("bust", 1, "round_end", 1)
    assert fields(g, "round turn owed") == (2, 1, 1)


def test_basta_rule_3_minus_5_inside_a_double_turn_adds_the_turned_up_card():
    g = game("basta")
    play(g, "dbl:1 -5")
    assert fields(g, "turn owed") == (1, 2)
    play(g, "3 3")
    assert fields(g, "turn owed total") == (2, 1, 1)


def test_basta_rule_4_penalised_player_starts_clockwise_total_0_doubles_cleared():
    g = game("basta")
    play(g, "dbl:2 rev")  # C has a double; B reverses, so A is next
    assert g.play("60") == fx("bust", 0, "round_end", 0)
    assert fields(g, "round turn dir total owed") == (2, 0, 1, 0, 1)
    assert doubles(g) == [False, False, False]
    play(g, "1 1")
    assert g.state()["owed"] == 1  # C's double did not survive the round


def test_basta_rule_5_fourth_penalty_ends_the_game_fewest_win_ties_share():
    g = game("basta")
    for _ in range(3):
        assert g.play("51") == fx("bust", 0, "round_end", 0)
    assert g.play("51") == fx("bust", 0, "round_end", 0, "game_end", 0)
    s = g.state()
    assert s["over"] is True and s["winners"] == [1, 2] and penalties(g) == [4, 0, 0]
    assert s["owed"] == 0 and s["turn"] == 1
    illegal(g, "5", "over")


def test_basta_rule_5_limit_option_and_single_winner():
    g = game("basta", 3, {"limit": 2})
    play(g, "51 1 51")  # A, then B take a penalty; B opens round 3
    assert penalties(g) == [1, 1, 0]
    assert g.play("60") == fx("bust", 1, "round_end", 1, "game_end", 1)
    assert g.state()["winners"] == [2]
    assert g.setup()["options"] == {"limit": 2}
    assert game("basta").setup()["options"] == {"limit": 4}
    for bad in (0, 21, "4", True, None, 4.0):
        assert "limit" in raises(SetupError, game, "basta", 3, {"limit": bad}).reason


def test_basta_card_swap_changes_only_hands():
    g = game("basta")
    play(g, "10")
    assert g.play("swap") == [] and g.state()["total"] == 10
    assert g.play("swap:0") == []
    assert fields(g, "total turn") == (10, 0)
    assert g.round_log()[-1] == [2, "swap:0", 10]
    for bad in ("swap:0", "swap:3", "swap:-1", "swap:x", "swap:", "swap:01", "swap:1:2"):
        illegal(g, bad)
    illegal(g, "swap:0", "yourself")
    illegal(g, "swap:3", "seat")


def test_basta_card_basta_sets_50_even_at_50():
    g = game("basta")
    play(g, "7 -5")
    assert g.play("basta") == [] and g.state()["total"] == 50
    assert g.play("basta") == [] and g.state()["total"] == 50


def test_basta_card_double_needs_another_player_without_one():
    g = game("basta", 4)
    illegal(g, "dbl", "target")
    illegal(g, "dbl:0", "yourself")
    illegal(g, "dbl:4", "seat")
    illegal(g, "dbl:x", "seat")
    play(g, "dbl:3")
    illegal(g, "dbl:3", "already")
    play(g, "dbl:0")
    assert doubles(g) == [True, False, False, True]


def test_basta_card_notation():
    g = game("basta")
    for card in ("", "x", "BASTA", "-5 ", "+5", "05", "-0", "rev:1", "end", "2x"):
        illegal(g, card)
    illegal(g, "7.5", "whole")
    play(g, "9 0 rev")
    assert g.state()["total"] == 9
