"""Undo (`*`) and redo (hold `*`) from the keypad, any number of steps, across round ends."""
from croupier.hil.table import seats


def test_undo_steps_back_and_held_undo_redoes(table, device):
    start = table.new("lobo77", ["Ann", "Bob", "Cy"])
    states = [start] + [table.enter(card)["state"] for card in ("10", "9", "3")]
    for expected in reversed(states[:-1]):
        assert table.undo()["state"] == expected, "each * steps back exactly one card"
    assert device.state() == start
    for expected in states[1:]:
        assert table.undo(hold=True)["state"] == expected, "each held * replays the next card"
    assert seats(device.state(), "tokens") == [2, 3, 3], "the redone doublet costs Ann her token again"


def test_undo_crosses_a_round_end(table, device):
    table.new("basta", ["A", "B"])
    device.play("30", "20")
    before_bust = device.state()
    event = table.enter("5")
    assert event["state"]["round"] == 2
    state = table.undo()["state"]
    assert state == before_bust, "undo takes back the bust: round 1, total 50, no penalty"
    state = table.undo(hold=True)["state"]
    assert (state["round"], seats(state, "penalties")) == (2, [1, 0]), "redo applies the bust again"


def test_a_typed_digit_is_deleted_before_anything_is_undone(table, device, keys):
    table.new("lobo77", ["Ann", "Bob"])
    table.enter("9")
    keys.press("5", "undo", "4")
    before = device.last_seq()
    keys.press("ok")
    event = device.wait_play("the card 4 (5 typed, deleted with *, then 4 ok)", before)
    assert event["state"]["total"] == 13, "* deleted the typed 5 instead of undoing the 9"
