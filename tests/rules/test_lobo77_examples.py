# docs/rules.md, the worked examples, Lobo 77: 3 players A B C (seats 0 1 2), 3 tokens; A deals, B starts.
from check import game, play, fx, tokens, seats_out, illegal, fields


def test_lobo77_example_b10_c9_a3_makes_22_a_pays():
    g = game("lobo77")
    assert play(g, "10") == [] and g.state()["total"] == 10
    assert play(g, "9") == [] and g.state()["total"] == 19
    assert play(g, "3") == fx("doublet", 0)
    assert fields(g, "total turn") == (22, 1) and tokens(g) == [2, 3, 3]


def test_lobo77_example_b_2x_c_plays_0_and_minus_10_a_owes_one():
    g = game("lobo77")
    play(g, "10 9 3")
    assert g.play("2x") == [] and g.state()["total"] == 22
    assert fields(g, "turn owed") == (2, 2)
    assert g.play("0") == [] and g.state()["total"] == 22  # a 0 is no doublet
    assert g.play("-10") == [] and g.state()["total"] == 12
    assert fields(g, "turn owed") == (0, 1) and tokens(g) == [2, 3, 3]


def test_lobo77_example_b_makes_77_round_2_c_starts_round_3_a_starts():
    g = game("lobo77")
    play(g, "10 9 3 2x 0 -10 58")  # A brings the total to 70; B is on turn
    assert fields(g, "total turn") == (70, 1)
    assert g.play("7") == fx("bust", 1, "round_end", 1)
    assert fields(g, "round turn total dir") == (2, 2, 0, 1)
    assert tokens(g) == [2, 2, 3]
    play(g, "77")
    assert fields(g, "round turn") == (3, 0)


def test_lobo77_example_a_swims_at_44_is_eliminated_at_55_last_one_in_wins():
    g = game("lobo77", 3, {"tokens": 1})  # A (like everyone here) has 1 token
    play(g, "40 1")
    assert g.play("3") == fx("doublet", 0, "swimming", 0)
    play(g, "1 1")  # A still plays
    assert g.play("9") == fx("doublet", 0, "eliminated", 0)
    assert seats_out(g) == [0] and fields(g, "round total turn") == (1, 55, 1)
    play(g, "1 1")  # B, C, and A's seat is skipped
    assert g.state()["turn"] == 1
    assert g.play("20") == fx("bust", 1, "swimming", 1, "round_end", 1)
    assert g.state()["turn"] == 2  # B opened round 1, so C opens round 2
    assert g.play("11") == fx("doublet", 2, "swimming", 2)
    assert g.play("11") == fx("doublet", 1, "eliminated", 1, "round_end", 1, "game_end", 1)
    s = g.state()
    assert s["over"] is True and s["winners"] == [2] and tokens(g) == [0, 0, 0]
    illegal(g, "1", "over")
