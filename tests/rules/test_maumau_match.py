# Mau-Mau against the computer (docs/rules.md "Mau-Mau against the computer"): one test or a
# few per rule line, on stacked decks. Runs on CPython (pytest) and on MicroPython.
# With 3 players A B C (seats 0 1 2), seat 0 opens round 1, clockwise.
from croupier.rules import SetupError, Illegal
from croupier.rules.canon import dumps
from croupier.rules.maumau_match import shuffled, full_deck, sort_cards, CARDS, LOG_SHOWN
from check import game, play, illegal, raises, retraces
from maumau_decks import stacked, dealt, accounted, whole_deck

MATCH = "maumau_match"
# Three hands for the tests below.
A = ["5h", "7h", "8h", "9h", "Jc", "Ah", "Kd"]
B = ["5s", "7s", "8s", "9s", "Js", "As", "Ks"]
C = ["2c", "3c", "4c", "6c", "10c", "Qc", "Kc"]


def table(hands=None, turned=("5d",), draws=(), players=3, options=None):
    """A game dealt from a stacked deck."""
    g = game(MATCH, players, options)
    dealt(g, hands or [A, B, C][:players], list(turned), list(draws))
    return g


def sorted_hand(cards):
    return sort_cards(list(cards))


def hand(g, seat):
    return g.state()["players"][seat]["hand"]


def sizes(g):
    return [len(p["hand"]) for p in g.state()["players"]]


def test_match_two_to_five_players():
    for count in range(2, 6):
        assert len(game(MATCH, count).state()["players"]) == count
    for count in (1, 6):
        assert "2 to 5" in raises(SetupError, game, MATCH, count).reason


def test_match_options_default_and_checked():
    assert game(MATCH).setup()["options"] == {"limit": -100, "points": "default", "starter": 0}
    for options, words in (({"limit": 0}, "limit"), ({"points": "tarot"}, "points"),
                           ({"starter": 3}, "starter"), ({"starter": -1}, "starter")):
        assert words in raises(SetupError, game, MATCH, 3, options).reason


def test_match_104_cards_double_deck_seven_each():
    deck = full_deck()
    assert len(deck) == 104 and len(CARDS) == 52
    for card in CARDS:
        assert deck.count(card) == 2
    ranks = set(card[:-1] for card in CARDS)
    assert ranks == set(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
    for seed in (0, 1, 4294967295):
        g = game(MATCH, 4)
        g.play("deal:%d" % seed)
        s = g.state()
        assert [len(p["hand"]) for p in s["players"]] == [7, 7, 7, 7]
        assert accounted(s) == whole_deck()
        assert len(s["pile"]) + len(s["stock"]) == 104 - 28
        assert s["phase"] == "play" and s["turn"] == 0


def test_match_deal_is_a_chance_input_that_replays():
    assert shuffled(7) == shuffled(7) and shuffled(7) != shuffled(8)
    g = game(MATCH)
    assert g.state()["phase"] == "deal" and g.legal() == []
    assert "dealt" in illegal(g, "5h").reason
    for bad in ("deal:", "deal:-1", "deal:07", "deal:4294967296", "deal:x", "deck:5h"):
        illegal(g, bad)
    g.play("deal:12345")
    assert "once a round" in illegal(g, "deal:1").reason
    again = game(MATCH)
    again.play("deal:12345")
    assert dumps(again.state()) == dumps(g.state())


def test_match_turned_up_action_cards_are_covered_without_effect():
    g = table(turned=["7d", "Jd", "Ad", "8d", "9d", "5d"])
    s = g.state()
    assert s["pile"] == ["7d", "Jd", "Ad", "8d", "9d", "5d"]
    assert (s["draw"], s["wish"], s["ace"], s["turn"], s["dir"]) == (0, None, False, 0, 1)
    assert len(s["stock"]) == 104 - 21 - 6


def test_match_same_suit_or_same_rank():
    g = table(turned=["5d"])
    assert "5h" in g.legal() and "Kd" in g.legal() and "7h" not in g.legal()
    assert "7\u2665 does not go on 5\u2666" in illegal(g, "7h").reason  # the suits as the cards show them
    g.play("5h")  # same rank
    assert g.state()["turn"] == 1
    g.play("5s")  # same rank again
    assert "does not go on" in illegal(g, "2c").reason
    assert "does not hold" in illegal(g, "5h").reason  # A's card, not C's
    illegal(g, "1h")
    illegal(g, "5x")


def test_match_who_cannot_or_will_not_play_draws_one_and_the_turn_passes():
    g = table(turned=["5d"], draws=["2h", "3h"])
    assert "draw" in g.legal()
    effects = g.play("draw")  # A could play 5h or Kd, but will not
    assert effects == [{"kind": "drew", "seat": 0, "cards": 1}]
    assert hand(g, 0) == sorted_hand(A + ["2h"]) and g.state()["turn"] == 1
    g.play("draw")  # B cannot play: draws, and may not play that turn either
    assert sizes(g) == [8, 8, 7] and g.state()["turn"] == 2


def test_match_7_next_draws_2_or_answers_with_a_7_stacking():
    g = table(turned=["5h"])
    g.play("7h")
    s = g.state()
    assert (s["turn"], s["draw"]) == (1, 2)
    assert g.legal() == ["7s", "draw"]
    assert "draw 2 or answer with a 7" in illegal(g, "Js:s").reason
    g.play("7s")  # B answers: C owes 4
    assert g.state()["draw"] == 4 and g.state()["turn"] == 2
    assert g.play("draw") == [{"kind": "drew", "seat": 2, "cards": 4}]
    s = g.state()
    assert sizes(g) == [6, 6, 11] and (s["draw"], s["turn"]) == (0, 0)


def test_match_8_next_player_skips():
    g = table(turned=["5h"])
    assert g.play("8h") == [{"kind": "skipped", "seat": 1}]
    assert g.state()["turn"] == 2
    two = table(players=2, turned=["5h"])
    two.play("8h")  # with two players the same player plays again
    assert two.state()["turn"] == 0


def test_match_9_direction_changes():
    g = table(turned=["5h"])
    g.play("9h")
    s = g.state()
    assert (s["dir"], s["turn"]) == (-1, 2)
    g.play("draw")
    assert g.state()["turn"] == 1


def test_match_jack_on_anything_wishes_a_suit_until_followed():
    g = table(turned=["5s"])
    assert "Jc:h" in g.legal() and "Jc:s" in g.legal()
    assert "wishes a suit" in illegal(g, "Jc").reason
    assert "only a jack" in illegal(g, "5h:s").reason
    g.play("Jc:h")
    assert g.state()["wish"] == "h"
    assert "hearts wished" in illegal(g, "5s").reason  # the jack's own suit does not count
    g.play("Js:d")  # a jack on a jack, wishing again
    assert g.state()["wish"] == "d" and g.state()["turn"] == 2
    g.play("draw")  # C has no diamond: the wish stays for the next player
    assert g.state()["wish"] == "d"
    assert "diamonds wished" in illegal(g, "5h").reason
    g.play("Kd")  # followed: the wish is over
    assert g.state()["wish"] is None and g.state()["pile"][-1] == "Kd"


def test_match_ace_plays_one_more_card_or_draws_one():
    g = table(turned=["5h"], draws=["2d"])
    g.play("Ah")
    s = g.state()
    assert (s["turn"], s["ace"]) == (0, True)
    assert "does not go on A\u2665" in illegal(g, "Kd").reason
    g.play("7h")  # the extra card, on the ace
    s = g.state()
    assert (s["turn"], s["ace"], s["draw"]) == (1, False, 2)
    h = table(turned=["5h"], draws=["2d"])
    h.play("Ah")
    h.play("draw")  # or draws one, and the turn passes
    assert sizes(h) == [7, 7, 7] and h.state()["turn"] == 1 and not h.state()["ace"]


# Two players: A lays four 8s (each lets A play again), then a king: 2 cards left, and B,
# who holds no diamond and no king, draws. Then A is on turn with its last two cards.
A8 = ["8h", "8h", "8d", "8d", "Kd"]
B0 = ["2s", "3s", "4s", "6s", "10s", "5s", "3h"]


def down_to_two(last_two, draws=("9s", "2d", "3d", "4d", "6d"), options=None):
    g = game(MATCH, 2, options)
    dealt(g, [A8 + list(last_two), B0], ["5h"], list(draws))
    play(g, "8h 8h 8d 8d Kd draw")
    assert g.state()["turn"] == 0 and sizes(g)[0] == 2
    return g


def test_match_mau_is_announced_with_two_cards():
    g = table()
    assert "mau" not in g.legal()
    assert "2 cards" in illegal(g, "mau").reason
    g = down_to_two(["Qd", "Qc"])
    assert g.legal() == ["Qd", "draw", "mau"]
    assert g.play("mau") == [{"kind": "mau", "seat": 0}]
    assert g.state()["said"] and "already" in illegal(g, "mau").reason
    assert g.play("Qd") == []  # announced: no penalty
    assert sizes(g) == [1, 8] and not g.state()["said"]


def test_match_forgetting_mau_costs_2_cards_at_once():
    g = down_to_two(["Qd", "Qc"])
    assert g.play("Qd") == [{"kind": "forgot", "seat": 0, "cards": 2}]
    assert hand(g, 0) == sorted_hand(["Qc", "2d", "3d"]) and g.state()["turn"] == 1


def test_match_round_ends_when_a_player_lays_the_last_card():
    g = down_to_two(["Qd", "Qc"])
    play(g, "mau Qd draw")
    effects = g.play("Qc")
    assert effects == [{"kind": "maumau", "seat": 0}, {"kind": "round_end", "seat": 0}]
    s = g.state()
    assert (s["phase"], s["round"], s["gone"], s["turn"], s["starter"]) == ("deal", 2, 0, 1, 1)
    assert g.legal() == [] and "not dealt" in illegal(g, "5s").reason


def test_match_last_card_a_7_makes_the_next_player_draw_2_first():
    g = down_to_two(["Qd", "7d"])
    play(g, "mau Qd draw")
    effects = g.play("7d")
    assert effects == [{"kind": "maumau", "seat": 0}, {"kind": "drew", "seat": 1, "cards": 2},
                       {"kind": "round_end", "seat": 0}]
    assert sizes(g) == [0, 11]  # B drew on Kd and on Qd, then the 2


def test_match_others_score_their_hand_as_negative_points():
    g = down_to_two(["Qd", "Qc"])
    play(g, "mau Qd draw Qc")
    # B: 2 3 4 6 10 5 of spades, 3h, and drew 9s and 2d: 2+3+4+6+10+5+3+9+2
    assert [p["score"] for p in g.state()["players"]] == [0, -44]
    assert [p["lost"] for p in g.state()["players"]] == [0, 44]
    g = down_to_two(["Qd", "Jh"])
    play(g, "mau Qd draw")
    g.play("Jh:h")
    # J 20, Q 10, K 10, A 11 (2-10 face value); the skat preset: J 2, Q 3, K 4, A 11
    assert g.state()["players"][1]["score"] == -44
    skat = down_to_two(["Qd", "Qc"], draws=("As", "Qs", "Jd", "Kc"), options={"points": "skat"})
    play(skat, "mau Qd draw Qc")
    assert skat.state()["players"][1]["score"] == -(2 + 3 + 4 + 6 + 10 + 5 + 3 + 11 + 3)
    plain = down_to_two(["Qd", "Qc"], draws=("As", "Qs", "Jd", "Kc"))
    play(plain, "mau Qd draw Qc")
    assert plain.state()["players"][1]["score"] == -(2 + 3 + 4 + 6 + 10 + 5 + 3 + 11 + 10)


def test_match_a_player_at_the_limit_is_out_and_the_last_one_left_wins():
    g = down_to_two(["Qd", "Qc"], options={"limit": -44})
    play(g, "mau Qd draw")
    effects = g.play("Qc")
    assert effects == [{"kind": "maumau", "seat": 0}, {"kind": "eliminated", "seat": 1},
                       {"kind": "round_end", "seat": 0}, {"kind": "game_end", "seat": 0}]
    s = g.state()
    assert s["over"] and s["winners"] == [0] and s["players"][1]["out"]
    assert "over" in illegal(g, "deal:1").reason
    g = down_to_two(["Qd", "Qc"], options={"limit": -45})  # -44 is above the limit: still in
    play(g, "mau Qd draw Qc")
    assert not g.state()["over"] and g.state()["phase"] == "deal"


def test_match_three_players_the_game_goes_on_without_the_eliminated():
    g = game(MATCH, 3, {"limit": -42})
    c = ["2c", "3c", "4c", "6c", "10c", "Qh", "Kc"]
    dealt(g, [A8 + ["Qd", "Qc"], B0, c], ["5h"], ["9s", "2d", "3d", "4d", "6d", "2h"])
    # each 8 skips B and C draws; B draws on Kd, C follows with Kc
    play(g, "8h draw 8h draw 8d draw 8d draw Kd draw Kc")
    play(g, "mau Qc draw Qh")
    effects = g.play("Qd")
    assert effects == [{"kind": "maumau", "seat": 0}, {"kind": "eliminated", "seat": 2},
                       {"kind": "round_end", "seat": 0}]
    s = g.state()
    # B: 33 + 6d + 2h = 41 points; C: 2+3+4+6+10 + 9s 2d 3d 4d = 43, at or below -42: out
    assert [p["score"] for p in s["players"]] == [0, -41, -43]
    assert [p["out"] for p in s["players"]] == [False, False, True]
    assert not s["over"] and s["phase"] == "deal" and s["turn"] == 1
    g.play("deal:5")
    assert sizes(g) == [7, 7, 0]
    play(g, "draw")
    assert g.state()["turn"] == 0  # C is skipped


def test_match_join_between_rounds_at_the_worst_active_score():
    g = down_to_two(["Qd", "Qc"])
    play(g, "mau Qd draw Qc")
    assert g.play("join:Dee") == [{"kind": "joined", "seat": 2}]
    s = g.state()
    assert [(p["name"], p["score"]) for p in s["players"]] == [("A", 0), ("B", -44), ("Dee", -44)]
    assert g.setup()["players"] == ["A", "B"]
    assert "two players are called dee" in illegal(g, "join:dee").reason
    play(g, "join:Eve join:Fay")
    assert "2 to 5" in illegal(g, "join:Gus").reason  # five are in
    g.play("deal:3")
    assert sizes(g) == [7, 7, 7, 7, 7] and g.state()["turn"] == 1  # B opens round 2
    assert "between rounds" in illegal(g, "join:Gus").reason
    assert "between rounds" in illegal(g, "leave:0").reason


def test_match_leave_between_rounds_is_struck_from_the_score_list():
    g = game(MATCH, 3)
    assert g.play("leave:0") == [{"kind": "left", "seat": 0}]
    s = g.state()
    assert s["players"][0]["left"] and s["players"][0]["out"] and s["turn"] == 1
    assert "out of the game" in illegal(g, "leave:0").reason
    assert "already has a seat" in illegal(g, "join:A").reason  # struck off, not forgotten
    illegal(g, "leave:3")
    g.play("deal:9")
    assert sizes(g) == [0, 7, 7] and g.state()["turn"] == 1
    assert "seat 0" not in dumps(g.view(1)["legal"])
    h = game(MATCH, 2)
    assert h.play("leave:1") == [{"kind": "left", "seat": 1}, {"kind": "round_end", "seat": 1},
                                 {"kind": "game_end", "seat": 1}]
    assert h.state()["over"] and h.state()["winners"] == [0]


def test_match_a_player_leaving_after_a_round_leaves_their_cards_on_the_table():
    g = down_to_two(["Qd", "Qc"])
    play(g, "mau Qd draw Qc join:Dee")
    left = hand(g, 1)
    assert left and accounted(g.state()) == whole_deck()
    g.play("leave:1")
    s = g.state()
    assert hand(g, 1) == [] and s["pile"][:len(left)] == left  # under the discard pile
    assert accounted(s) == whole_deck()


def drain(g):
    """Both players draw until the stock is empty; the effects of the last draw."""
    effects = None
    while g.state()["stock"]:
        effects = g.play("draw")
    return effects


def test_match_empty_stock_reshuffles_the_pile_under_its_top_card():
    g = game(MATCH, 2)
    dealt(g, [A8 + ["Qd", "Qc"], B0], ["5h"])
    play(g, "8h 8h 8d 8d")
    drain(g)
    s = g.state()
    assert s["pile"] == ["5h", "8h", "8h", "8d", "8d"] and s["stock"] == []
    effects = g.play("draw")
    assert effects[0] == {"kind": "reshuffled", "seat": effects[0]["seat"]}
    assert effects[1]["cards"] == 1
    s = g.state()
    assert s["pile"] == ["8d"] and len(s["stock"]) == 3
    assert accounted(s) == whole_deck()


def test_match_no_card_left_anywhere_the_draw_is_a_pass():
    g = game(MATCH, 2)
    dealt(g, [A8 + ["Qd", "Qc"], B0], ["5h"])
    drain(g)
    turn = g.state()["turn"]
    assert g.play("draw") == [{"kind": "drew", "seat": turn, "cards": 0}]
    assert g.state()["turn"] == 1 - turn and accounted(g.state()) == whole_deck()


def test_match_a_refused_input_changes_nothing():
    g = table()
    for bad in ("", "draw ", "Qx", "J", "Jc:x", "10", "mau:1", "join:X", "leave:1", "7h:h"):
        illegal(g, bad)
    raises(Illegal, g.play, 7)


def test_match_replays_from_setup_and_inputs_and_undo_retraces():
    g = table(turned=["5h"])
    history = []
    for card in ("Ah", "7h", "7s", "draw", "Jc:d", "draw"):
        g.play(card)
        history.append(dumps(g.state()))
    again = game(MATCH)
    for card in g.inputs:
        again.play(card)
    assert dumps(again.state()) == dumps(g.state()) and again.inputs == g.inputs
    retraces(g, history, len(history) - 1)
    while g.can_undo():
        g.undo()
    assert g.state()["phase"] == "deal"


def test_match_view_shows_only_what_the_seat_sees():
    g = table()
    v = g.view(1)
    assert v["hand"] == sorted_hand(B) and v["counts"] == [7, 7, 7]
    assert v["pile"] == ["5d"] and v["stock"] == 104 - 22 and v["legal"] == []
    text = dumps(v)
    for card in A + C:
        if card not in B and card != "5d":
            assert '"%s"' % card not in text, card
    assert "deck:" not in text and "deal:" not in text
    assert g.view(0)["legal"] == g.legal()
    raises(Illegal, g.view, 3)


def test_match_view_shares_nothing_with_the_engine():
    g = table()
    before = dumps(g.state())
    v = g.view(0)
    v["hand"].append("Ah")
    v["pile"].clear()
    v["counts"][1] = 0
    v["scores"][0] = 99
    v["log"].append([0, "x"])
    v["legal"].append("x")
    v["options"]["limit"] = -1
    assert dumps(g.state()) == before


def test_match_view_log_shows_the_round_last_public_inputs():
    g = table(players=2, turned=["5d"])
    assert g.view(0)["log"] == []  # the deal is not shown
    play(g, "Kd draw")
    assert g.view(1)["log"] == [[0, "Kd"], [1, "draw"]]
    for _ in range(60):
        g.play("draw")
    log = g.view(0)["log"]
    assert len(log) == LOG_SHOWN and log[-1][1] == "draw"
    assert len(g.round_log()) == 63  # the engine keeps the whole round
