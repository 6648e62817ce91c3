"""The keypad task on the virtual board's electrically emulated matrix: fast typing, key
chatter and long presses, observed through the game state on the link."""
import time


def settle(frames, want_total, timeout=5.0):
    deadline = time.monotonic() + timeout
    while True:
        state = frames.ok("state")["state"]
        if state["total"] == want_total or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_fast_typing_loses_and_doubles_nothing(frames, board):
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    cards = ["9", "5", "1", "8", "7", "4", "6", "3", "2", "9"]  # never a doublet, total 54
    for card in cards:
        for key in card + "#":
            board.press(key, ms=45, gap=35)  # ~12 keys a second
    state = settle(frames, sum(map(int, cards)))
    records = frames.ok("log", **{"from": 2, "max": 32})["records"]
    assert [r[4] for r in records] == cards
    assert state["total"] == 54


def test_chatter_is_one_press_and_a_long_press_is_redo(frames, board):
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    for _ in range(6):  # a bouncing contact: 3 ms on, 3 ms off, then held down
        board.key_down("7")
        time.sleep(0.003)
        board.key_up("7")
        time.sleep(0.003)
    board.press("7", ms=60)
    board.press("#", ms=60)
    assert settle(frames, 7)["total"] == 7  # one 7, not 77
    board.press("*", ms=60)
    assert settle(frames, 0)["total"] == 0  # undo
    board.press("*", ms=900)  # held past 600 ms: redo, and the release adds nothing
    assert settle(frames, 7)["total"] == 7
    time.sleep(0.3)
    assert frames.ok("state")["state"]["total"] == 7
    kinds = [r[3] for r in frames.ok("log", **{"from": 1, "max": 32})["records"]]
    assert kinds == ["new", "play", "undo", "redo"]
