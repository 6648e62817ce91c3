# docs/rules.md section 1, Lobo 77: one test (or a few) per numbered rule and per card of the table.
# Runs on CPython (pytest) and on MicroPython (tests/rules_host/mp_runner.py).
# With 3 players A B C (seats 0 1 2) seat 0 deals, so B opens and play goes B, C, A, B, ...
from croupier.rules import new_game, SetupError, Illegal
from check import NAMES, game, play, illegal, fx, tokens, seats_out, raises, fields

DOUBLETS = (11, 22, 33, 44, 55, 66)


def test_lobo77_rule_1_three_tokens_each_seat_0_deals_seat_1_starts_clockwise():
    g = game("lobo77")
    s = g.state()
    assert fields(g, "game round total turn dir owed") == \
        ("lobo77", 1, 0, 1, 1, 1)
    assert s["over"] is False and s["winners"] == []
    assert [(p["name"], p["out"], p["tokens"]) for p in s["players"]] == \
        [("A", False, 3), ("B", False, 3), ("C", False, 3)]
    assert game("lobo77", 2).state()["turn"] == 1
    assert game("lobo77", 8).state()["turn"] == 1


def test_lobo77_rule_1_tokens_option_1_to_5():
    for count in (1, 2, 3, 4, 5):
        assert tokens(game("lobo77", 4, {"tokens": count})) == [count] * 4
    for bad in (0, 6, -1, "3", True, None, 2.0):
        exc = raises(SetupError, game, "lobo77", 3, {"tokens": bad})
        assert "tokens" in exc.reason


def test_lobo77_rule_1_two_to_eight_players():
    for count in range(2, 9):
        assert len(game("lobo77", count).state()["players"]) == count
    for count in (0, 1):
        assert "2 to 8" in raises(SetupError, game, "lobo77", count).reason
    assert "2 to 8" in raises(SetupError, new_game, "lobo77", NAMES + ["I"]).reason


def test_lobo77_rule_2_total_after_every_card():
    g = game("lobo77")
    totals = []
    for card in ["10", "9", "-10", "0", "rev", "33", "2x", "4", "76"]:
        g.play(card)
        totals.append(g.state()["total"])
    assert totals == [10, 19, 9, 9, 9, 42, 42, 46, 0]
    assert g.state()["round"] == 2  # 46 + 76 >= 77 ended round 1


def test_lobo77_rule_2_card_notation():
    g = game("lobo77")
    play(g, "9 33 -10 0 rev")
    assert g.state()["total"] == 32
    for card in ("", "x", "nine", "2X", "REV", "9 ", " 9", "+9", "09", "-0", "2x2", "end"):
        illegal(g, card)
    illegal(g, "9.5", "whole")
    illegal(g, "1,5", "whole")
    illegal(g, "1000", "999")
    assert "text" in raises(Illegal, g.play, 9).reason


def test_lobo77_rule_2_any_whole_number_card_76_and_house_cards():
    g = game("lobo77")
    play(g, "76")
    assert g.state()["total"] == 76
    g = game("lobo77")
    play(g, "7 -3 999")
    assert g.state()["round"] == 2


def test_lobo77_rule_3_number_card_making_a_doublet_costs_a_token():
    for doublet in DOUBLETS:
        g = game("lobo77", 2)
        assert g.play(str(doublet)) == fx("doublet", 1)
        assert tokens(g) == [3, 2]
    for other in (10, 12, 21, 23, 65, 67, 76):
        g = game("lobo77", 2)
        assert g.play(str(other)) == []
        assert tokens(g) == [3, 3]


def test_lobo77_rule_3_minus_ten_making_a_doublet_costs_a_token():
    g = game("lobo77")
    play(g, "10 9 2")
    assert g.play("-10") == fx("doublet", 1)
    assert g.state()["total"] == 11 and tokens(g) == [3, 2, 3]


def test_lobo77_rule_3_zero_rev_and_2x_on_a_doublet_are_free():
    g = game("lobo77")
    assert play(g, "10 9 3") == fx("doublet", 0)
    assert g.play("0") == []
    assert g.play("rev") == []
    assert g.state()["turn"] == 1  # C reversed: back to B
    assert g.play("2x") == []
    assert g.state()["total"] == 22 and tokens(g) == [2, 3, 3]


def test_lobo77_rule_3_negative_doublets_option():
    plain = game("lobo77")
    assert play(plain, "-10 -1") == []
    assert tokens(plain) == [3, 3, 3]
    negative = game("lobo77", 3, {"negative_doublets": True})
    assert play(negative, "-10 -1") == fx("doublet", 2)
    assert negative.state()["total"] == -11
    assert play(negative, "-55") == fx("doublet", 0)
    assert negative.setup()["options"]["negative_doublets"] is True
    for bad in (1, 0, "yes", None):
        raises(SetupError, game, "lobo77", 3, {"negative_doublets": bad})


def test_lobo77_rule_4_77_or_more_costs_one_token_and_ends_the_round():
    g = game("lobo77")
    play(g, "66")  # B pays for the doublet
    assert g.play("11") == fx("bust", 2, "round_end", 2)  # 77 is not also a doublet
    assert tokens(g) == [3, 2, 2]
    assert fields(g, "round total") == (2, 0)
    g = game("lobo77")
    play(g, "70")
    assert g.play("10") == fx("bust", 2, "round_end", 2)


def test_lobo77_rule_4_77_ends_the_round_even_mid_2x():
    g = game("lobo77")
    play(g, "2x")
    assert g.play("77") == fx("bust", 2, "round_end", 2)
    assert fields(g, "round turn owed total") == (2, 2, 1, 0)


def test_lobo77_rule_5_tokens_go_back_to_the_supply_never_regained():
    g = game("lobo77")
    payments = 0
    before = tokens(g)
    for card in "11 66 11 22 0 44 77 33 2x 1 10 -10 77".split():
        payments += len([e for e in g.play(card) if e["kind"] in ("doublet", "bust")])
        after = tokens(g)
        assert all(b >= a for b, a in zip(before, after))
        before = after
    assert g.state()["round"] > 2 and payments >= 5
    assert 9 - sum(before) + len(seats_out(g)) == payments


def test_lobo77_rule_6_swimming_player_still_plays():
    g = game("lobo77", 3, {"tokens": 1})
    assert g.play("11") == fx("doublet", 1, "swimming", 1)
    assert tokens(g) == [1, 0, 1] and seats_out(g) == []
    play(g, "1 1")
    assert g.state()["turn"] == 1
    assert g.play("1") == []


def test_lobo77_rule_6_swimming_player_who_pays_again_is_eliminated_round_goes_on():
    g = game("lobo77", 4, {"tokens": 1})
    play(g, "11 1 1 1")  # B swims; C, D, A play
    assert g.play("8") == fx("doublet", 1, "eliminated", 1)
    assert seats_out(g) == [1]
    assert fields(g, "round total turn over") == (1, 22, 2, False)
    play(g, "1 1 1")  # C, D, A: B's seat is skipped
    assert g.state()["turn"] == 2


def test_lobo77_rule_6_eliminated_on_the_first_of_two_cards_turn_passes():
    g = game("lobo77", 3, {"tokens": 1})
    play(g, "11 1 2x")  # B swims, C plays, A makes B owe 2 cards
    assert g.state()["owed"] == 2
    assert g.play("10") == fx("doublet", 1, "eliminated", 1)
    assert fields(g, "turn owed") == (2, 1)


def test_lobo77_rule_7_2x_next_player_plays_two_cards_each_totalled():
    g = game("lobo77")
    play(g, "2x")
    assert fields(g, "turn owed total") == (2, 2, 0)
    g.play("5")
    assert fields(g, "turn owed total") == (2, 1, 5)
    g.play("6")
    assert fields(g, "turn owed total") == (0, 1, 11) and tokens(g) == [3, 3, 2]


def test_lobo77_rule_7_first_of_two_may_not_be_2x_second_may():
    g = game("lobo77")
    play(g, "2x")
    illegal(g, "2x", "first of two")
    play(g, "5 2x")
    assert fields(g, "turn owed") == (0, 2)


def test_lobo77_rule_7_rev_among_the_two_flips_direction_after_the_turn():
    g = game("lobo77")
    play(g, "2x rev")
    assert fields(g, "turn dir owed") == (2, -1, 1)
    g.play("5")
    assert g.state()["turn"] == 1
    g = game("lobo77")
    play(g, "2x rev rev")  # two flips cancel
    assert fields(g, "turn dir") == (0, 1)


def test_lobo77_rule_7_doublet_on_first_card_costs_and_turn_goes_on_two_tokens_lost():
    g = game("lobo77")
    play(g, "10 2x")
    assert g.play("1") == fx("doublet", 0)
    assert fields(g, "turn owed") == (0, 1)
    assert g.play("11") == fx("doublet", 0)
    assert tokens(g) == [1, 3, 3] and g.state()["turn"] == 1


def test_lobo77_rule_7_swimming_player_losing_two_in_one_turn_is_eliminated():
    g = game("lobo77", 3, {"tokens": 1})
    play(g, "10 2x")
    assert g.play("1") == fx("doublet", 0, "swimming", 0)
    assert g.play("11") == fx("doublet", 0, "eliminated", 0)
    assert seats_out(g) == [0] and g.state()["turn"] == 1


def test_lobo77_rule_7_77_on_the_first_card_ends_the_round():
    g = game("lobo77")
    play(g, "70 2x")
    assert g.play("7") == fx("bust", 0, "round_end", 0)
    assert g.state()["owed"] == 1 and g.state()["round"] == 2


def test_lobo77_rule_7_end_cuts_a_two_card_turn_short():
    g = game("lobo77")
    play(g, "2x 5")
    assert g.play("end") == []
    assert fields(g, "turn owed total") == (0, 1, 5)
    assert g.round_log()[-1] == [2, "end", 5]


def test_lobo77_rule_7_a_two_card_turn_plays_at_least_one_card():
    g = game("lobo77")
    play(g, "2x")
    assert not g.second_card_owed()
    illegal(g, "end", "at least one card")
    assert fields(g, "turn owed total") == (2, 2, 0)
    assert "second_card" not in g.state()
    play(g, "5")
    assert g.second_card_owed() and fields(g, "turn owed") == (2, 1)
    assert g.state()["second_card"] is True  # the state says it too: a host shows "one more card"
    play(g, "end")
    assert not g.second_card_owed() and fields(g, "turn owed") == (0, 1)
    assert "second_card" not in g.state()


def test_lobo77_rule_7_end_outside_a_two_card_turn_is_illegal():
    g = game("lobo77")
    illegal(g, "end", "two-card")
    play(g, "2x 5 5")
    illegal(g, "end", "two-card")


def test_lobo77_rule_8_next_round_starter_moves_clockwise_direction_and_total_reset():
    g = game("lobo77")
    play(g, "rev")  # B reverses: A is next
    assert g.play("77") == fx("bust", 0, "round_end", 0)
    assert fields(g, "round turn dir total owed") == (2, 2, 1, 0, 1)
    play(g, "77")
    assert fields(g, "round turn") == (3, 0)
    play(g, "77")
    assert g.state()["turn"] == 1


def test_lobo77_rule_8_pending_2x_is_cleared():
    g = game("lobo77")
    play(g, "70 2x")  # A owes two
    assert g.play("7") == fx("bust", 0, "round_end", 0)
    assert g.state()["owed"] == 1


def test_lobo77_rule_8_eliminated_seats_are_skipped_by_the_starter():
    g = game("lobo77", 4, {"tokens": 1})
    play(g, "1 10 1 1 1 8")  # C swims at 11, is eliminated at 22
    assert seats_out(g) == [2]
    play(g, "50 1")
    assert g.play("4") == fx("bust", 1, "swimming", 1, "round_end", 1)
    assert g.state()["turn"] == 3  # B opened round 1; C is out, so D opens round 2


def test_lobo77_rule_9_last_player_in_wins_even_swimming():
    g = game("lobo77", 2, {"tokens": 1})
    play(g, "11 11")  # both swim
    assert g.play("11") == fx("doublet", 1, "eliminated", 1, "round_end", 1, "game_end", 1)
    s = g.state()
    assert s["over"] is True and s["winners"] == [0] and tokens(g) == [0, 0]
    assert (s["turn"], s["owed"]) == (0, 0)
    illegal(g, "5", "over")
    illegal(g, "end", "over")


def test_lobo77_rule_9_strict_winner_ends_when_one_player_holds_tokens():
    strict = game("lobo77", 3, {"tokens": 1, "strict_winner": True})
    play(strict, "11")
    assert strict.play("11") == fx("doublet", 2, "swimming", 2, "round_end", 2, "game_end", 2)
    s = strict.state()
    assert s["over"] is True and s["winners"] == [0] and seats_out(strict) == []
    default = game("lobo77", 3, {"tokens": 1})
    play(default, "11 11")
    assert default.state()["over"] is False
    for bad in (1, "true", None):
        raises(SetupError, game, "lobo77", 3, {"strict_winner": bad})


def test_lobo77_rule_10_round_log_shows_who_played_how_many_cards():
    g = game("lobo77")
    play(g, "10 2x 5 3")
    assert g.round_log() == [[1, "10", 10], [2, "2x", 10], [0, "5", 15], [0, "3", 18]]
    play(g, "60")  # B busts: the finished round stays visible until the next card
    assert g.round_log()[-1] == [1, "60", 78]
    play(g, "4")
    assert g.round_log() == [[2, "4", 4]]
