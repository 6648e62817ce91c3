"""The journal across hard resets: the game resumes exactly, nothing is lost or repeated."""


def test_game_resumes_after_a_hard_reset(device, reset, table):
    table.new("lobo77", ["Ann", "Bob", "Cy"])
    device.play("10", "9", "3", "2x", "0")
    table.enter("-10")
    before, info = device.state(), device.hello()
    records = device.journal(info["last_seq"] - 6)

    boot = reset()
    assert set(boot) - {"ev"} == set(info) - {"id", "ok"}, "the boot event carries the fields of hello"
    assert boot["boot"] == info["boot"] + 1, "the boot event counts this start (%r)" % boot
    assert (boot["log_epoch"], boot["last_seq"]) == (info["log_epoch"], info["last_seq"]), "the journal survives a reset"
    assert device.state() == before, "after a reset the game resumes at the last card"
    assert device.journal(info["last_seq"] - 6) == records, "no record lost, changed or repeated"
    state = device.play("5")["state"]
    assert state["total"] == 17 and device.last_seq() == info["last_seq"] + 1, "play goes on, seq goes on"


def test_a_finished_game_is_not_resumed_and_play_needs_a_game(device, reset):
    device.new("basta", ["A", "B"], limit=1)
    assert device.play("51")["state"]["over"] is True
    reset()
    assert device.state() is None, "after a reset with the last game over, no game is set up"
    for cmd, args in (("play", {"card": "5"}), ("undo", {}), ("redo", {})):
        device.refuse("no_game", cmd, **args)
    assert device.state() is None
