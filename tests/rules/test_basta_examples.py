# docs/rules.md, the worked examples, BASTA: 3 players A B C (seats 0 1 2); A starts.
from check import game, play, illegal, fx, penalties, fields


def test_basta_example_up_to_50_then_b_plays_1_takes_a_penalty_and_starts_round_2():
    g = game("basta")
    totals = []
    for card in "10 10 10 8 5 7 basta".split():
        assert g.play(card) == []
        totals.append(g.state()["total"])
    assert totals == [10, 20, 30, 38, 43, 50, 50]
    assert g.play("1") == fx("bust", 1, "round_end", 1)
    assert fields(g, "round turn total") == (2, 1, 0) and penalties(g) == [0, 1, 0]


def test_basta_example_minus_5_stays_on_turn_with_one_card_owed_and_again():
    g = game("basta")
    play(g, "20 -5")
    assert fields(g, "total turn owed") == (15, 1, 1)
    play(g, "-5")
    assert fields(g, "total turn owed") == (10, 1, 1)
    play(g, "3")
    assert g.state()["turn"] == 2


def test_basta_example_c_doubles_a_second_double_on_a_and_a_double_on_oneself_illegal():
    g = game("basta")
    play(g, "rev")  # A reverses, so C plays next and B after C
    assert g.play("dbl:0") == []
    assert g.state()["players"][0]["double"] is True
    illegal(g, "dbl:0", "already")  # B tries a second double on A
    illegal(g, "dbl:1", "yourself")
    play(g, "5")
    assert fields(g, "turn owed") == (0, 2)


def test_basta_example_fourth_penalty_ends_the_game_ties_share_the_win():
    g = game("basta", 4)
    play(g, "51")  # A: 1
    play(g, "1 51")  # B: 1
    play(g, "1 1 51")  # D: 1
    play(g, "51 51")  # D: 3
    assert penalties(g) == [1, 1, 0, 3]
    assert g.play("51") == fx("bust", 3, "round_end", 3, "game_end", 3)
    s = g.state()
    assert s["over"] is True and s["winners"] == [2]
    g = game("basta", 4)
    play(g, "51 51 51 1 51 1 51 1 51 1")  # A: 3, B: 1, C: 1, D: 1... then A again
    assert penalties(g) == [3, 1, 1, 1] and not g.state()["over"]
    assert g.play("51")[-1] == {"kind": "game_end", "seat": 0}
    assert g.state()["winners"] == [1, 2, 3]
