# docs/rules.md section 5, two-player sums: one test or a few per rule line. Runs on CPython
# (pytest) and on MicroPython. A (seat 0) opens round 1; B is seat 1.
from croupier.rules import SetupError
from check import game, play, illegal, fx, raises

# A owns cells 7, 8, 9 (capturing B's markers on 8 and 9): the bottom row wins.
ROW_789 = "0 2 5 3 5 4 5"
# A stacks three markers on cell 5 (2+3, 1+4, 2+3).
STACK_5 = "0 2 3 1 4 2 3"


def duo(options=None):
    return game("duo", 2, options)


def player(g, seat):
    return g.state()["players"][seat]


def cell(g, number):
    return g.state()["board"][number - 1]


def round_end(seat, points):
    ended = fx("round_end", seat)
    ended[0]["points"] = points
    return ended


def test_duo_exactly_two_players():
    for count in (1, 3):
        assert "2 to 2" in raises(SetupError, game, "duo", count).reason
    assert len(duo().state()["players"]) == 2


def test_duo_setup_16_cards_10_markers_with_one_x2_empty_3x3_board():
    s = duo().state()
    assert (s["round"], s["turn"], s["total"], s["last"], s["pile"], s["owed"]) == \
        (1, 0, None, None, 9, 1)
    assert s["board"] == [None] * 9 and s["layout"] == "123456789"
    assert [(p["score"], p["markers"], p["x2"], p["captured"], p["hand"])
            for p in s["players"]] == [(0, 10, True, 0, 4), (0, 10, True, 0, 3)]


def test_duo_options_layout_and_target():
    assert duo().setup()["options"] == {"layout": "123456789", "target": 5}
    for layout in ("12345678", "1234567890", "123456788", "023456789", 123456789, None):
        assert "layout" in raises(SetupError, duo, {"layout": layout}).reason
    assert "target" in raises(SetupError, duo, {"target": 0}).reason


def test_duo_rule_1_player_1_opens_with_one_card_and_no_marker():
    g = duo()
    assert "opens with a card" in illegal(g, "draw").reason
    illegal(g, "3x", "no marker")
    assert g.play("3") == []
    s = g.state()
    assert (s["turn"], s["last"], s["total"], s["board"]) == (1, 3, None, [None] * 9)
    assert player(g, 0)["markers"] == 10 and player(g, 0)["hand"] == 3
    assert g.round_log() == [[0, "3", None]]


def test_duo_rule_1_marker_goes_on_the_sum_of_the_last_two_cards():
    g = duo()
    play(g, "3 5")
    s = g.state()
    assert (s["total"], s["turn"], s["last"]) == (8, 0, 5)
    assert cell(g, 8) == [1, 1, False] and player(g, 1)["markers"] == 9
    g.play("0")
    assert cell(g, 5) == [0, 1, False] and g.state()["total"] == 5


def test_duo_rule_1_a_card_must_differ_from_the_last_one():
    g = duo()
    g.play("3")
    assert "differ" in illegal(g, "3").reason
    illegal(g, "3x")
    for card in ("6", "-1", "33", "x", "3y", "", "3 ", "draw2"):
        illegal(g, card)


def test_duo_rule_1_sums_are_always_cells_1_to_9():
    for first in range(6):
        for second in range(6):
            if first != second:
                g = duo()
                play(g, "%d %d" % (first, second))
                assert g.state()["total"] == first + second
                assert cell(g, first + second) == [1, 1, False]


def test_duo_rule_1_opposing_markers_on_the_cell_are_captured():
    g = duo()
    play(g, "1 2 0 3")  # B on 3, A on 2, B on 3 again
    assert cell(g, 3) == [1, 2, False]
    g.play("0")  # 3 + 0: A captures both
    assert cell(g, 3) == [0, 1, False]
    assert player(g, 0)["captured"] == 2 and player(g, 1)["markers"] == 8


def test_duo_rule_1_the_x2_marker_is_placed_once_and_can_be_captured():
    g = duo()
    play(g, "1 2x")
    assert cell(g, 3) == [1, 1, True] and player(g, 1)["x2"] is False
    assert player(g, 1)["markers"] == 9
    g.play("0")
    assert "already used" in illegal(g, "3x").reason
    g.play("3")
    assert cell(g, 3) == [1, 2, True]
    g.play("0")  # 3 + 0: A captures both, the x2 with them
    assert cell(g, 3) == [0, 1, False] and player(g, 0)["captured"] == 2
    assert player(g, 1)["markers"] == 8 and player(g, 0)["x2"] is True


def test_duo_rule_1_draw_only_with_3_cards_or_fewer():
    g = duo()
    g.play("2")  # A: 3 cards
    assert g.play("draw") == [] and player(g, 1)["hand"] == 4  # B had 3
    assert g.state()["turn"] == 0 and g.state()["pile"] == 8
    g.play("draw")  # A had 3
    assert "3 cards or fewer" in illegal(g, "draw").reason  # B holds 4
    assert g.state()["board"] == [None] * 9


def test_duo_rule_1_empty_pile_reshuffles_the_sequence_but_its_last_card():
    g = duo()
    play(g, "0 5 3 draw 1 3 draw 4 0 2 draw")  # B has played all its cards
    assert player(g, 1)["hand"] == 0
    assert "no card in hand" in illegal(g, "1").reason
    play(g, "draw 4 draw draw draw draw draw")  # the 9th draw empties the pile
    s = g.state()
    assert (s["pile"], s["turn"], s["last"]) == (0, 0, 4)
    assert [player(g, 0)["hand"], player(g, 1)["hand"]] == [3, 4]
    g.play("draw")  # 9 sequence cards: 8 go back, one is drawn
    s = g.state()
    assert (s["pile"], s["last"], player(g, 0)["hand"]) == (7, 4, 4)
    g.play("1")  # the sequence goes on from its last card: 4 + 1
    assert g.state()["total"] == 5


def test_duo_rule_2_reveal_costs_a_captured_marker_before_the_turn():
    g = duo()
    g.play("2")
    assert "none" in illegal(g, "reveal").reason
    play(g, "1 0 3")  # B on 3, A on 1, B on 3
    g.play("0")  # A captures 2 on cell 3
    play(g, "2 draw")  # B on 2, A draws
    assert "none" in illegal(g, "reveal").reason  # B has captured nothing
    g.play("draw")
    assert g.play("reveal") == [] and player(g, 0)["captured"] == 1
    assert g.state()["turn"] == 0 and g.round_log()[-1] == [0, "reveal", 2]
    assert "one reveal" in illegal(g, "reveal").reason
    g.play("1")  # the turn itself goes on
    assert g.state()["turn"] == 1


def test_duo_rule_2_force_discards_an_own_marker_opponent_must_play():
    g = duo()
    illegal(g, "force", "card was played")
    g.play("2")
    illegal(g, "force", "card was played")  # the opening card is no turn
    g.play("3")
    assert g.play("force") == [] and player(g, 1)["markers"] == 8
    s = g.state()
    assert s["forced"] and s["turn"] == 0
    assert g.round_log()[-1] == [1, "force", 5]
    assert "forced" in illegal(g, "draw").reason
    illegal(g, "protect", "card was played")  # one ending per turn
    g.play("1")
    assert not g.state()["forced"]


def test_duo_rule_2_forced_but_stuck_reveals_and_draws():
    g = duo()
    play(g, "2 3 force")
    assert "stuck" in illegal(g, "draw").reason
    assert g.play("stuck") == [] and player(g, 0)["hand"] == 4
    s = g.state()
    assert (s["turn"], s["forced"]) == (1, False)
    illegal(g, "stuck", "forced")


def test_duo_rule_2_protect_discards_an_own_marker_no_force_next_turn():
    g = duo()
    play(g, "2 3")
    assert g.play("protect") == [] and player(g, 1)["markers"] == 8
    assert g.state()["protected"] == 1
    g.play("1")
    assert "protected" in illegal(g, "force").reason
    g.play("2")  # B's turn: the protection is over
    assert g.state()["protected"] is None
    assert g.play("force") == []


def test_duo_rule_3_three_in_a_row_wins_1_point():
    g = duo()
    play(g, ROW_789[:-2])
    assert g.play("5") == round_end(0, 1)
    s = g.state()
    assert s["players"][0]["score"] == 1 and s["round"] == 2
    assert g.round_log()[-1] == [0, "5", 9]  # the finished round stays in view


def test_duo_rule_3_line_with_the_x2_wins_2_points():
    g = duo()
    play(g, ROW_789[:-2])
    assert g.play("5x") == round_end(0, 2)
    g = duo()
    play(g, "0 2 5x 3 5 4")  # the x2 on 7, first cell of the row
    assert g.play("5") == round_end(0, 2)


def test_duo_rule_3_a_column_wins():
    g = duo()
    play(g, "0 2 1 5 1 4")  # A on 3 and 6 (capturing B's 6), B on 2 and 5
    assert cell(g, 6) == [0, 1, False]
    assert g.play("5") == round_end(0, 1)  # 4 + 5: A on 9


def test_duo_rule_3_a_diagonal_wins():
    g = duo()
    play(g, "4 0 1 2 3 4")  # A on 1 and 5, B on 4, 3, 7
    assert g.play("5") == round_end(0, 1)


def test_duo_rule_3_a_captured_cell_counts_for_its_new_top_marker():
    g = duo()
    play(g, "0 2 5 3")  # B on 2, A on 7, B on 8
    assert cell(g, 8) == [1, 1, False]
    play(g, "5 4")  # A takes 8, B goes on 9
    assert [cell(g, 7), cell(g, 8), cell(g, 9)] == [[0, 1, False], [0, 1, False],
                                                    [1, 1, False]]
    assert g.play("5") == round_end(0, 1)  # A takes 9: the row is A's


def test_duo_rule_3_three_stacked_wins_1_point_2_with_the_x2():
    g = duo()
    play(g, STACK_5[:-2])
    assert cell(g, 5) == [0, 2, False]
    assert g.play("3") == round_end(0, 1)
    g = duo()
    play(g, STACK_5[:-2])
    assert g.play("3x") == round_end(0, 2)


def test_duo_rule_3_layout_option_changes_the_lines():
    magic = {"layout": "276951438"}  # a magic square: the lines are the sums to 15
    g = duo(magic)
    play(g, ROW_789)
    assert g.state()["round"] == 1  # 7, 8, 9 is no line here
    top_row = "3 0 2 3 4 1 5"  # A on 2, 7, 6; B on 5 (twice)
    g = duo()
    play(g, top_row)
    assert g.state()["round"] == 1
    g = duo(magic)
    play(g, top_row[:-2])
    assert g.play("5") == round_end(0, 1)
    g = duo(magic)
    play(g, STACK_5[:-2])
    assert g.play("3") == round_end(0, 1)  # a stack wins in any layout


def test_duo_rule_3_out_of_markers_loses_the_round():
    g = duo()
    # B discards markers to protect and force until the protect after its 5th card
    play(g, "4 2 protect 0 5 protect 4 draw 0 5 force stuck 3 force 4 draw draw 5")
    assert player(g, 1)["markers"] == 1 and player(g, 1)["x2"]  # the x2 goes last
    assert g.play("protect") == round_end(0, 1)
    assert g.state()["players"][0]["score"] == 1


def test_duo_rule_4_first_to_5_points_wins_the_match_openers_alternate():
    g = duo()
    for seat in (0, 1, 0, 1):
        assert g.state()["turn"] == seat  # the round's opener
        assert play(g, STACK_5 + "x") == round_end(seat, 2)
    assert play(g, STACK_5 + "x") == round_end(0, 2) + fx("game_end", 0)
    s = g.state()
    assert s["over"] and s["winners"] == [0]
    assert [p["score"] for p in s["players"]] == [6, 4]


def test_duo_rule_4_target_option():
    g = duo({"target": 1})
    play(g, STACK_5[:-2])
    assert g.play("3") == round_end(0, 1) + fx("game_end", 0)


def test_duo_new_round_resets_the_board_and_markers():
    g = duo()
    play(g, ROW_789)
    s = g.state()
    assert s["board"] == [None] * 9 and (s["turn"], s["last"], s["total"]) == (1, None, None)
    assert [(p["markers"], p["x2"], p["captured"], p["hand"]) for p in s["players"]] == \
        [(10, True, 0, 3), (10, True, 0, 4)]
