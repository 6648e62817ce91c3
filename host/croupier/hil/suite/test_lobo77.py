"""Lobo 77 through the keypad (docs/rules.md section 1): the worked example and a whole game."""
from croupier.hil.table import kinds, seats

ANN, BOB, CY = 0, 1, 2


def test_setup_from_the_keypad_with_the_pushed_roster(device, keys):
    device.call("roster", names=["Ann", "Bob", "Cy", "Dee"])
    device.new("basta", ["X", "Y"])  # a game in play: the keypad must confirm abandoning it
    before = device.last_seq()
    # menu, 2 "New game", ok "abandon? yes", 1 "Lobo 77", ok 4 players, ok names, ok options, 2 "Bob deals"
    keys.press("menu", "2", "ok", "1", "ok", "ok", "ok", "2")
    state = device.wait_play("a new Lobo 77 game set up from the keypad", before)["state"]
    assert state["game"] == "lobo77" and [p["name"] for p in state["players"]] == ["Bob", "Cy", "Dee", "Ann"], \
        "4 players named from the pushed roster, seated clockwise from the dealer Bob: %r" % state["players"]
    assert seats(state, "tokens") == [3, 3, 3, 3] and state["turn"] == 1, "default 3 tokens; left of the dealer starts"
    kinds_since = [record[3] for record in device.journal(before + 1)]
    assert kinds_since == ["abandon", "new"], "the unfinished game is journaled as abandoned: %r" % kinds_since


def test_worked_example_round_one_through_keys(table):
    state = table.new("lobo77", ["Ann", "Bob", "Cy"])
    assert state["turn"] == BOB, "Ann deals, so Bob (seat 1) starts round 1 (rules.md 1.1)"
    totals = [table.enter(card)["state"]["total"] for card in ("10", "9")]
    assert totals == [10, 19]

    event = table.enter("3")
    assert event["state"]["total"] == 22
    assert kinds(event["effects"]) == [("doublet", ANN)], "Ann's 3 makes 22: a doublet (rules.md 1.3)"
    assert seats(event["state"], "tokens") == [2, 3, 3], "a doublet costs the player who made it one token (rules.md 1.3)"
    assert event["state"]["turn"] == BOB

    event = table.enter("2x")
    assert event["effects"] == [], "2x on a doublet total costs nothing (rules.md 1.3)"
    assert (event["state"]["turn"], event["state"]["owed"]) == (CY, 2), "after 2x, Cy owes two cards (rules.md 1.7)"

    event = table.enter("0")
    assert event["effects"] == [] and event["state"]["total"] == 22, "0 on 22 is no doublet (rules.md 1.3)"
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
    assert kinds(event["effects"]) == [("bust", BOB), ("round_end", BOB)], "77 costs Bob a token and ends the round (rules.md 1.4)"
    state = event["state"]
    assert seats(state, "tokens") == [2, 2, 3], "one token for 77, never also a doublet (rules.md 1.4)"
    assert (state["round"], state["total"], state["dir"], state["turn"]) == (2, 0, 1, CY), \
        "round 2 starts at 0, clockwise, with Cy (rules.md 1.8)"

    state = table.enter("9")["state"]
    assert (state["total"], state["turn"]) == (9, ANN), "the keypad works on after the round-end announcement"


def test_reverse_flips_the_direction(table):
    table.new("lobo77", ["Ann", "Bob", "Cy"])
    state = table.enter("rev")["state"]
    assert (state["dir"], state["turn"], state["total"]) == (-1, ANN, 0), "rev after Bob: counter-clockwise, Ann next (rules.md 1)"
    state = table.enter("5")["state"]
    assert state["turn"] == CY, "counter-clockwise from Ann is Cy"


def test_a_whole_game_swimming_out_and_winner_through_keys(table):
    table.new("lobo77", ["Ann", "Bob"], tokens=1)
    event = table.enter("11")
    assert kinds(event["effects"]) == [("doublet", BOB), ("swimming", BOB)], "Bob's last token: he swims (rules.md 1.6)"
    event = table.enter("11")
    assert kinds(event["effects"]) == [("doublet", ANN), ("swimming", ANN)]
    assert seats(event["state"], "out") == [False, False], "swimming players still play"
    event = table.enter("11")
    assert kinds(event["effects"])[:2] == [("doublet", BOB), ("eliminated", BOB)], \
        "a swimming player who pays again is out (rules.md 1.6)"
    assert ("game_end", BOB) in kinds(event["effects"])
    state = event["state"]
    assert state["over"] is True and state["winners"] == [ANN], "the last player in wins, even swimming (rules.md 1.9)"
