# docs/rules.md section 3, Mau-Mau: the tracker (one test per action card) and the score pad
# (one test or a few per numbered rule). Runs on CPython (pytest) and on MicroPython.
# With 3 players A B C (seats 0 1 2) seat 0 starts round 1, clockwise.
from croupier.rules import SetupError
from check import game, play, illegal, fx, raises, scores, seats_out


def hands(g):
    return [p["hand"] for p in g.state()["players"]]


def turn(g):
    return g.state()["turn"]


def round_scored(g, going, points):
    """Seat going goes out (untracked); the others hold points (seat -> points)."""
    g.play("out:%d" % going)
    effects = None
    for seat in sorted(points):
        effects = g.play("hand:%d:%d" % (seat, points[seat]))
    return effects


def test_maumau_two_to_five_players():
    for count in range(2, 6):
        s = game("maumau", count).state()
        assert len(s["players"]) == count and s["game"] == "maumau"
    for count in (1, 6):
        assert "2 to 5" in raises(SetupError, game, "maumau", count).reason


def test_maumau_starts_seat_0_clockwise_seven_cards_each_no_total():
    s = game("maumau").state()
    assert (s["round"], s["total"], s["turn"], s["dir"], s["owed"], s["phase"], s["draw"],
            s["suit"]) == (1, None, 0, 1, 1, "play", 0, None)
    assert [(p["name"], p["out"], p["left"], p["score"], p["hand"], p["counted"])
            for p in s["players"]] == [(n, False, False, 0, 7, None) for n in "ABC"]


def test_maumau_options_default_and_checked():
    assert game("maumau").setup()["options"] == {
        "limit": -100, "points": "default", "jack_finish_doubles": False}
    for options, words in (({"limit": 100}, "limit"), ({"limit": 0}, "limit"),
                           ({"points": "tarot"}, "points"),
                           ({"jack_finish_doubles": 1}, "jack_finish_doubles")):
        assert words in raises(SetupError, game, "maumau", 3, options).reason


def test_maumau_plain_ranks_pass_the_turn_and_leave_the_hand():
    g = game("maumau")
    for rank in ("2", "3", "4", "5", "6", "10", "Q", "K"):
        seat = turn(g)
        assert g.play(rank) == []
        assert turn(g) == (seat + 1) % 3
    assert hands(g) == [4, 4, 5]


def test_maumau_unknown_cards_are_refused_with_the_notation():
    g = game("maumau")
    for card in ("1", "11", "J", "J:x", "Jh", "q", "ace", "", "7:h", "-7"):
        illegal(g, card)
    assert "J:h" in illegal(g, "J").reason
    assert "ranks" in illegal(g, "11").reason


def test_maumau_tracker_7_next_player_draws_2():
    g = game("maumau")
    assert g.play("7") == []
    s = g.state()
    assert (s["turn"], s["draw"]) == (1, 2)
    assert "draw 2" in illegal(g, "5").reason
    illegal(g, "A")
    illegal(g, "J:h")
    g.play("draw")
    s = g.state()
    assert (s["turn"], s["draw"]) == (2, 0) and hands(g) == [6, 9, 7]


def test_maumau_tracker_7_stacks_2_4_6():
    g = game("maumau")
    play(g, "7 7")
    assert g.state()["draw"] == 4
    g.play("7")
    assert g.state()["draw"] == 6 and turn(g) == 0
    g.play("draw")
    assert hands(g) == [12, 6, 6] and turn(g) == 1 and g.state()["draw"] == 0


def test_maumau_tracker_8_skips_the_next_player():
    g = game("maumau")
    g.play("8")
    assert turn(g) == 2
    g.play("8")
    assert turn(g) == 1


def test_maumau_tracker_8_with_two_players_plays_again():
    g = game("maumau", 2)
    g.play("8")
    assert turn(g) == 0


def test_maumau_tracker_9_reverses_direction():
    g = game("maumau")
    g.play("9")
    s = g.state()
    assert (s["dir"], s["turn"]) == (-1, 2)
    play(g, "5 5")
    assert turn(g) == 0
    g.play("9")
    assert (g.state()["dir"], turn(g)) == (1, 1)


def test_maumau_tracker_jack_is_wild_and_sets_the_suit():
    g = game("maumau")
    for suit in ("h", "d", "s", "c"):
        g.play("J:" + suit)
        assert g.state()["suit"] == suit
    g.play("K")
    assert g.state()["suit"] is None  # the wished suit was followed


def test_maumau_tracker_ace_same_player_plays_one_more_card():
    g = game("maumau")
    g.play("A")
    assert turn(g) == 0 and hands(g) == [6, 7, 7]
    g.play("A")
    assert turn(g) == 0
    g.play("Q")
    assert turn(g) == 1 and hands(g) == [4, 7, 7]


def test_maumau_tracker_ace_or_draws_one():
    g = game("maumau")
    play(g, "A draw")
    assert turn(g) == 1 and hands(g) == [7, 7, 7]


def test_maumau_tracker_draw_takes_one_card_and_ends_the_turn():
    g = game("maumau")
    g.play("draw")
    assert turn(g) == 1 and hands(g) == [8, 7, 7]


def test_maumau_rule_1_round_ends_when_a_player_plays_the_last_card():
    g = game("maumau")
    assert play(g, "5 draw draw 5 draw draw 5 draw draw 5 draw draw 5 draw draw") == []
    assert hands(g) == [2, 12, 12]
    assert g.play("5") == fx("mau", 0)  # reminder: announce the last card
    play(g, "draw draw")
    assert g.play("K") == fx("maumau", 0)
    s = g.state()
    assert (s["phase"], s["round"], s["turn"], s["owed"]) == ("count", 1, 1, 0)
    illegal(g, "5", "hand points")


def test_maumau_rule_1_last_card_a_7_next_player_draws_2_first():
    g = game("maumau")
    play(g, "7 draw draw " * 3)
    play(g, "5 draw draw " * 3)
    assert hands(g)[0] == 1
    assert g.play("7") == []
    s = g.state()
    assert (s["phase"], s["turn"], s["draw"]) == ("play", 1, 2)
    assert "went out on a 7" in illegal(g, "7").reason
    illegal(g, "hand:1:5")
    assert g.play("draw") == fx("maumau", 0)
    assert hands(g)[1] == 7 + 3 * 2 + 3 + 2 and g.state()["phase"] == "count"


def test_maumau_rule_1_ace_as_last_card_ends_the_round():
    g = game("maumau", 2)
    play(g, "A A A A A A")
    assert g.play("A") == fx("maumau", 0)


def test_maumau_rule_1_untracked_play_out_s_ends_the_round():
    g = game("maumau")
    assert g.play("out:2") == fx("maumau", 2)
    s = g.state()
    assert (s["phase"], s["turn"]) == ("count", 0)
    for card in ("out:3", "out:x", "out:"):
        illegal(g, card)


def test_maumau_rule_2_other_hands_count_negative():
    g = game("maumau")
    assert round_scored(g, 1, {0: 23}) == []
    assert g.state()["players"][0]["counted"] == 23 and turn(g) == 2
    assert g.play("hand:2:7") == fx("round_end", 1)
    assert scores(g) == [-23, 0, -7]
    s = g.state()
    assert (s["round"], s["phase"], s["turn"]) == (2, "play", 1)
    assert hands(g) == [7, 7, 7] and [p["counted"] for p in s["players"]] == [None] * 3


def test_maumau_rule_2_hand_entries_are_checked():
    g = game("maumau")
    g.play("out:1")
    assert "went out" in illegal(g, "hand:1:5").reason
    assert "without sign" in illegal(g, "hand:0:-5").reason
    for card in ("hand:0", "hand:0:", "hand:9:5", "hand:0:5.5", "hand:0:X,2", "5", "draw",
                 "join:Dee", "leave:0"):
        illegal(g, card)
    g.play("hand:0:5")
    assert "already counted" in illegal(g, "hand:0:6").reason


def test_maumau_rule_2_default_card_points():
    g = game("maumau")
    g.play("out:0")
    play(g, "hand:1:2,3,4,5,6,7,8,9,10 hand:2:J,Q,K,A")
    assert scores(g) == [0, -54, -51]


def test_maumau_rule_2_skat_preset_card_points():
    g = game("maumau", 3, {"points": "skat"})
    g.play("out:0")
    play(g, "hand:1:J,Q,K,A hand:2:10,J")
    assert scores(g) == [0, -20, -12]


def test_maumau_rule_2_jack_finish_doubles_option():
    g = game("maumau", 3, {"jack_finish_doubles": True})
    play(g, "out:0:J hand:1:10 hand:2:4")
    assert scores(g) == [0, -20, -8]
    play(g, "out:1 hand:0:10 hand:2:4")  # no jack: single points
    assert scores(g) == [-10, -20, -12]


def test_maumau_rule_2_jack_finish_doubles_tracked_jack_and_default_off():
    g = game("maumau", 2, {"jack_finish_doubles": True})
    play(g, "5 draw " * 6 + "J:s")
    assert g.state()["phase"] == "count"
    g.play("hand:1:9")
    assert scores(g) == [0, -18]
    g = game("maumau", 2)
    play(g, "out:0:J hand:1:9")
    assert scores(g) == [0, -9]


def test_maumau_rule_3_limit_eliminates_play_goes_on_last_one_in_wins():
    g = game("maumau")
    round_scored(g, 0, {1: 60, 2: 10})
    assert round_scored(g, 0, {1: 40, 2: 10}) == fx("eliminated", 1, "round_end", 0)
    s = g.state()
    assert seats_out(g) == [1] and not s["over"] and scores(g) == [0, -100, -20]
    assert s["turn"] == 2 and s["round"] == 3  # the starter moves on, seat 1 is skipped
    play(g, "5 5")
    assert turn(g) == 2
    illegal(g, "hand:1:5")
    assert round_scored(g, 2, {0: 99}) == fx("round_end", 2)
    assert round_scored(g, 2, {0: 1}) == fx("eliminated", 0, "round_end", 2, "game_end", 2)
    s = g.state()
    assert s["over"] and s["winners"] == [2] and scores(g) == [-100, -100, -20]
    illegal(g, "5", "over")


def test_maumau_rule_3_limit_option():
    g = game("maumau", 2, {"limit": -50})
    assert round_scored(g, 0, {1: 49}) == fx("round_end", 0)
    assert round_scored(g, 0, {1: 1}) == fx("eliminated", 1, "round_end", 0, "game_end", 0)


def test_maumau_rule_4_join_between_rounds_with_the_worst_active_score():
    g = game("maumau")
    round_scored(g, 0, {1: 30, 2: 12})
    assert g.play("join:Dee") == fx("joined", 3)
    s = g.state()
    assert s["players"][3] == {"name": "Dee", "out": False, "left": False, "score": -30,
                               "hand": 7, "counted": None}
    play(g, "5 5 5")
    assert turn(g) == 0  # after seat 1 started: 2, 3, 0
    assert g.setup()["players"] == ["A", "B", "C"]  # the game began with three


def test_maumau_rule_4_worst_score_ignores_eliminated_players():
    g = game("maumau", 3, {"limit": -50})
    round_scored(g, 0, {1: 60, 2: 20})
    g.play("join:Dee")
    assert scores(g) == [0, -60, -20, -20]


def test_maumau_rule_4_join_is_checked():
    g = game("maumau", 5)
    assert "2 to 5" in illegal(g, "join:Fay").reason
    g = game("maumau")
    assert "two players" in illegal(g, "join:b").reason
    g.play("leave:1")
    assert "already has a seat" in illegal(g, "join:B ").reason
    illegal(g, "join:")
    illegal(g, "join:" + "x" * 25)
    g.play("5")
    assert "between rounds" in illegal(g, "join:Dee").reason


def test_maumau_rule_4_leave_strikes_from_the_standings_kept_in_history():
    g = game("maumau", 4)
    round_scored(g, 0, {1: 5, 2: 6, 3: 7})
    assert g.play("leave:1") == fx("left", 1)
    s = g.state()
    assert s["players"][1]["name"] == "B" and s["players"][1]["out"]
    assert s["players"][1]["left"] and s["players"][1]["score"] == -5
    assert s["turn"] == 2  # seat 1 would have started round 2
    play(g, "5 5")
    assert turn(g) == 0
    illegal(g, "leave:1", "out")
    illegal(g, "leave:0", "between rounds")


def test_maumau_rule_4_leaving_can_leave_one_winner():
    g = game("maumau", 2)
    assert g.play("leave:0") == fx("left", 0, "round_end", 0, "game_end", 0)
    s = g.state()
    assert s["over"] and s["winners"] == [1]


def test_maumau_rule_4_a_new_name_after_leaving_joins_fresh():
    g = game("maumau", 5)
    play(g, "leave:4 join:Fay")
    assert len(g.state()["players"]) == 6 and seats_out(g) == [4]


def test_maumau_rule_5_forgot_to_announce_draws_2():
    g = game("maumau")
    play(g, "5 5")
    assert g.play("forgot:0") == []
    assert hands(g) == [8, 6, 7] and turn(g) == 2
    illegal(g, "forgot:7")
    assert g.round_log()[-1] == [0, "forgot:0", None]


def test_maumau_round_log_lists_seat_and_input():
    g = game("maumau")
    play(g, "7 draw 9")
    assert g.round_log() == [[0, "7", None], [1, "draw", None], [2, "9", None]]


def test_maumau_undo_takes_back_a_join_and_the_scoring():
    g = game("maumau")
    round_scored(g, 0, {1: 30, 2: 12})
    g.play("join:Dee")
    g.undo()
    assert len(g.state()["players"]) == 3
    g.undo()
    assert g.state()["phase"] == "count" and scores(g) == [0, 0, 0]
    g.redo()
    g.redo()
    assert len(g.state()["players"]) == 4 and scores(g) == [0, -30, -12, -30]
