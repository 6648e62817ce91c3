"""Lobo 77 through the keypad (RULES.md section 1): the worked example and a whole game."""
from croupier.hil.table import kinds, seats

ANN, BOB, CY = 0, 1, 2


def test_worked_example_round_one_through_keys(table):
    state = table.new("lobo77", ["Ann", "Bob", "Cy"])
    assert state["turn"] == BOB, "Ann deals, so Bob (seat 1) starts round 1 (RULES 1.1)"
    totals = [table.enter(card)["state"]["total"] for card in ("10", "9")]
    assert totals == [10, 19]

    event = table.enter("3")
    assert event["state"]["total"] == 22
    assert kinds(event["effects"]) == [("doublet", ANN)], "Ann's 3 makes 22: a doublet (RULES 1.3)"
    assert seats(event["state"], "tokens") == [2, 3, 3], "a doublet costs the player who made it one token (RULES 1.3)"
    assert event["state"]["turn"] == BOB

    event = table.enter("2x")
    assert event["effects"] == [], "2x on a doublet total costs nothing (RULES 1.3)"
    assert (event["state"]["turn"], event["state"]["owed"]) == (CY, 2), "after 2x, Cy owes two cards (RULES 1.7)"

    event = table.enter("0")
    assert event["effects"] == [] and event["state"]["total"] == 22, "0 on 22 is no doublet (RULES 1.3)"
    assert (event["state"]["turn"], event["state"]["owed"]) == (CY, 1), "Cy still owes the second card"

    event = table.enter("-10")
    assert event["state"]["total"] == 12
    assert (event["state"]["turn"], event["state"]["owed"]) == (ANN, 1)
    assert seats(event["state"], "tokens") == [2, 3, 3]


def test_77_ends_the_round_and_the_next_seat_starts(table, device):
    table.new("lobo77", ["Ann", "Bob", "Cy"])
    device.play("10", "9", "3", "2x", "0", "-10", "8", "10", "10", "10", "10", "0", "10")  # 70, Bob on turn
    assert device.state()["turn"] == BOB and device.state()["total"] == 70

    event = table.enter("7")
    assert kinds(event["effects"]) == [("bust", BOB), ("round_end", BOB)], "77 costs Bob a token and ends the round (RULES 1.4)"
    state = event["state"]
    assert seats(state, "tokens") == [2, 2, 3], "one token for 77, never also a doublet (RULES 1.4)"
    assert (state["round"], state["total"], state["dir"], state["turn"]) == (2, 0, 1, CY), \
        "round 2 starts at 0, clockwise, with Cy (RULES 1.8)"

    state = table.enter("9")["state"]
    assert (state["total"], state["turn"]) == (9, ANN), "the keypad works on after the round-end announcement"


def test_reverse_flips_the_direction(table):
    table.new("lobo77", ["Ann", "Bob", "Cy"])
    state = table.enter("rev")["state"]
    assert (state["dir"], state["turn"], state["total"]) == (-1, ANN, 0), "rev after Bob: counter-clockwise, Ann next (RULES 1)"
    state = table.enter("5")["state"]
    assert state["turn"] == CY, "counter-clockwise from Ann is Cy"


def test_a_whole_game_swimming_out_and_winner_through_keys(table):
    table.new("lobo77", ["Ann", "Bob"], tokens=1)
    event = table.enter("11")
    assert kinds(event["effects"]) == [("doublet", BOB), ("swimming", BOB)], "Bob's last token: he swims (RULES 1.6)"
    event = table.enter("11")
    assert kinds(event["effects"]) == [("doublet", ANN), ("swimming", ANN)]
    assert seats(event["state"], "out") == [False, False], "swimming players still play"
    event = table.enter("11")
    assert kinds(event["effects"])[:2] == [("doublet", BOB), ("eliminated", BOB)], \
        "a swimming player who pays again is out (RULES 1.6)"
    assert ("game_end", BOB) in kinds(event["effects"])
    state = event["state"]
    assert state["over"] is True and state["winners"] == [ANN], "the last player in wins, even swimming (RULES 1.9)"
