"""BASTA ("50") through the keypad (docs/rules.md section 2): the worked example, -5, doubles, game end."""
from croupier.hil.table import kinds, seats

A, B, C = 0, 1, 2


def test_worked_example_through_keys(table):
    state = table.new("basta", ["A", "B", "C"])
    assert state["turn"] == A, "seat 0 starts BASTA (rules.md 2.1)"
    totals = [table.enter(card)["state"]["total"] for card in ("10", "10", "10", "8", "5", "7")]
    assert totals == [10, 20, 30, 38, 43, 50]

    event = table.enter("basta")
    assert event["state"]["total"] == 50 and event["effects"] == [], "basta sets 50, which is safe (rules.md 2.2)"

    event = table.enter("1")
    assert kinds(event["effects"]) == [("bust", B), ("round_end", B)], "51 is over 50: B takes a penalty (rules.md 2.2)"
    state = event["state"]
    assert seats(state, "penalties") == [0, 1, 0]
    assert (state["round"], state["total"], state["turn"]) == (2, 0, B), "B starts round 2 at 0 (rules.md 2.4)"


def test_minus_five_keeps_the_same_player_on_turn(table):
    table.new("basta", ["A", "B", "C"])
    table.enter("10")
    state = table.enter("-5")["state"]
    assert (state["total"], state["turn"], state["owed"]) == (5, B, 1), "-5: B stays on turn for the card turned up (rules.md 2)"
    state = table.enter("-5")["state"]
    assert (state["total"], state["turn"]) == (0, B), "-5 again: the same once more"
    state = table.enter("3")["state"]
    assert (state["total"], state["turn"]) == (3, C)


def test_double_through_the_seat_choice(table, device):
    table.new("basta", ["A", "B", "C"])
    table.enter("1")
    state = table.enter("dbl:0")["state"]
    assert seats(state, "double") == [True, False, False], "B's dbl:0 lays a double in front of A (rules.md 2.3)"
    device.refuse("illegal", "play", card="dbl:0")  # C: A already has a double
    device.refuse("illegal", "play", card="dbl:2")  # C: not on oneself
    assert device.state() == state, "refused doubles change nothing"
    state = table.enter("4")["state"]
    assert (state["turn"], state["owed"]) == (A, 2), "A resolves the double on A's next turn: two cards (rules.md 2.3)"
    assert table.enter("4")["state"]["turn"] == A
    assert table.enter("4")["state"]["turn"] == B


def test_game_ends_at_the_penalty_limit(table):
    table.new("basta", ["A", "B"], limit=2)
    event = table.enter("51")
    assert kinds(event["effects"]) == [("bust", A), ("round_end", A)]
    assert event["state"]["turn"] == A, "the player who took the penalty starts the next round"
    event = table.enter("60")
    assert ("game_end", A) in kinds(event["effects"]), "the 2nd penalty with limit=2 ends the game at once (rules.md 2.5)"
    state = event["state"]
    assert state["over"] is True and state["winners"] == [B], "fewest penalties wins"
