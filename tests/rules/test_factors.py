# docs/rules.md section 4, the factor race: the referee (judge) and the score pad, one test or a
# few per rule line. Runs on CPython (pytest) and on MicroPython.
from croupier.rules import SetupError, Illegal
from croupier.rules.factors import judge, read_card, VALUES
from check import game, play, illegal, fx, raises, scores


def legal_on(previous):
    """Values that may go on previous (a card of colour 1), played in colour 2."""
    return [v for v in VALUES if judge("%d:1" % previous, "%d:2" % v) is None]


def test_factors_two_to_six_players_no_options():
    for count in range(2, 7):
        assert len(game("factors", count).state()["players"]) == count
    for count in (1, 7):
        assert "2 to 6" in raises(SetupError, game, "factors", count).reason
    assert game("factors").setup()["options"] == {}


def test_factors_sixty_cards_values_2_to_15_in_six_colours():
    cards = [read_card("%d:%d" % (v, c)) for v in VALUES for c in range(1, 7)]
    assert len(cards) == 60 and len(set(cards)) == 60
    assert VALUES == (2, 3, 4, 5, 6, 8, 9, 10, 12, 15)
    for text in ("7:1", "1:1", "11:2", "16:3", "12:0", "12:7", "12", "12:", ":3", "x:1",
                 "012:1", "12:-1", ""):
        raises(Illegal, read_card, text)
    assert "value" in raises(Illegal, read_card, "7:1").reason
    assert "colours are 1 to 6" in raises(Illegal, read_card, "12:7").reason


def test_factors_referee_different_colour_value_no_factor_no_multiple_is_legal():
    assert judge("12:1", "5:2") is None
    assert judge("9:3", "15:4") is None
    assert judge("8:6", "12:1") is None


def test_factors_referee_same_colour_is_illegal():
    assert judge("12:1", "5:1") == "same colour"


def test_factors_referee_same_value_is_illegal():
    assert judge("12:1", "12:2") == "same value"


def test_factors_referee_a_factor_is_illegal():
    assert judge("12:1", "4:2") == "4 is a factor of 12"


def test_factors_referee_a_multiple_is_illegal():
    assert judge("4:1", "8:2") == "8 is a multiple of 4"


def test_factors_referee_seed_example_factors_of_15_are_3_5_15():
    assert legal_on(15) == [2, 4, 6, 8, 9, 10, 12]


def test_factors_referee_seed_example_multiples_of_4_are_4_8_12():
    assert legal_on(4) == [3, 5, 6, 9, 10, 15]  # 2 is a factor


def test_factors_referee_on_every_value():
    assert legal_on(2) == [3, 5, 9, 15]
    assert legal_on(3) == [2, 4, 5, 8, 10]
    assert legal_on(12) == [5, 8, 9, 10, 15]
    for value in VALUES:  # the rule is symmetric: a factor one way is a multiple the other
        for other in VALUES:
            assert (other in legal_on(value)) == (value in legal_on(other))


def test_factors_referee_rejects_malformed_cards():
    raises(Illegal, judge, "12:1", "7:2")
    raises(Illegal, judge, "12", "5:2")


def test_factors_rule_2_round_scores_cards_plus_3_per_penalty_card():
    g = game("factors")
    s = g.state()
    assert (s["round"], s["total"], s["turn"], s["owed"]) == (1, None, 0, 0)
    assert g.play("pen:1") == [] and g.play("pen:1") == []
    assert g.play("pen:2") == []
    assert [p["penalties"] for p in g.state()["players"]] == [0, 2, 1]
    assert play(g, "hand:0:3 hand:1:5") == []
    assert [p["held"] for p in g.state()["players"]] == [3, 5, None]
    assert g.play("hand:2:7") == fx("round_end", 2)
    assert scores(g) == [3, 5 + 6, 7 + 3]
    s = g.state()
    assert s["round"] == 2 and [(p["penalties"], p["held"]) for p in s["players"]] == \
        [(0, None)] * 3


def test_factors_rule_2_a_late_stop_caller_may_hold_fewer_than_3():
    g = game("factors", 2)
    assert play(g, "hand:0:0 hand:1:10") == fx("round_end", 1)
    assert scores(g) == [0, 10]


def test_factors_score_pad_entries_are_checked():
    g = game("factors")
    for card in ("hand:1", "hand:1:", "hand:1:-1", "hand:3:4", "pen:3", "pen:", "12:3",
                 "stop", "hand:01:2"):
        illegal(g, card)
    g.play("hand:0:3")
    assert "already entered" in illegal(g, "hand:0:3").reason
    assert "0 to 10" in illegal(g, "hand:1:11").reason


def test_factors_rule_3_rounds_as_players_first_player_moves_left_lowest_wins():
    g = game("factors")
    firsts = [g.state()["turn"]]
    play(g, "hand:0:3 hand:1:6 hand:2:8")
    firsts.append(g.state()["turn"])
    play(g, "pen:0 hand:0:4 hand:1:3 hand:2:5")
    firsts.append(g.state()["turn"])
    assert firsts == [0, 1, 2]
    assert play(g, "hand:0:9 hand:1:2") == []
    assert g.play("hand:2:3") == fx("round_end", 2, "game_end", 2)
    s = g.state()
    assert scores(g) == [19, 11, 16] and s["over"] and s["winners"] == [1]
    assert s["round"] == 3
    illegal(g, "pen:0", "over")


def test_factors_rule_3_ties_share_the_win():
    g = game("factors", 2)
    play(g, "hand:0:4 hand:1:3 hand:0:3 pen:1")
    assert g.play("hand:1:1") == fx("round_end", 1, "game_end", 1)
    assert scores(g) == [7, 7] and g.state()["winners"] == [0, 1]


def test_factors_undo_takes_back_a_round_end():
    g = game("factors", 2)
    play(g, "pen:0 hand:0:4 hand:1:3")
    g.undo()
    s = g.state()
    assert s["round"] == 1 and scores(g) == [0, 0] and s["players"][0]["penalties"] == 1
    assert g.round_log() == [[0, "pen:0", None], [0, "hand:0:4", None]]
