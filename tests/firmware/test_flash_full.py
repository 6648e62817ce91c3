"""A board whose flash is full loses nothing: it still boots into its game, a
card is refused with a clear reason over the link and at the keys, the state and the
journal stay as they were, and once there is space again play goes on."""
from pathlib import Path

from croupier.deploy import Mpremote
from fwlink import frames_on
from ui_run import wait_until

# Sent to the raw REPL (mpremote interrupts the firmware) with flashfill.py's functions. The
# journal's folder is filled too: a small file lives in its folder's own metadata block
# (littlefs's inline files, up to the cache size boot.py mounts with), so an append to the
# journal's active segment can still fit there when only the root is full.
FLASHFILL = (Path(__file__).parent / "flashfill.py").read_text()
FILL = FLASHFILL + '\nprint("filled", fill("") + fill("/journal"))\n'
FREE = FLASHFILL + '\nfree("")\nfree("/journal")\n'
ERROR_TUNE_HZ = 220  # the first note of the buzzer's "error" tune


def error_tune_since(board, count):
    """Whether the buzzer has sounded the error tune since its first `count` tones."""
    return ERROR_TUNE_HZ in [freq for _, freq, duty in board.tones[count:] if duty]


def test_a_full_flash_refuses_cards_clearly_and_the_board_keeps_its_game(board):
    with frames_on(board.port, boot=True) as frames:
        frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
        frames.ok("play", card="9")
    assert "filled" in Mpremote(board.port).run("exec", FILL, timeout=120)

    board.hard_reset()  # a full flash still boots into the game
    with frames_on(board.port, boot=True) as frames:
        state = frames.ok("state")["state"]
        assert state["total"] == 9 and frames.boot["last_seq"] == 2
        answer = frames.call("play", card="5")
        assert answer["ok"] is False and answer["error"] == "internal", answer
        assert answer["message"] == "flash full: sync to free space"
        tones = len(board.tones)
        for key in ("5", "ok"):  # the same card at the keys
            board.press(key)
        # the link may answer before the keys are handled: the refusal's tune tells
        wait_until(lambda: error_tune_since(board, tones), 10, "the error tune after the refused card")
        assert frames.ok("state")["state"] == state, "a refused card changes nothing"
        assert frames.ok("hello")["last_seq"] == 2, "and writes nothing"

    Mpremote(board.port).run("exec", FREE)  # what sync and ack do for finished games
    board.hard_reset()
    with frames_on(board.port, boot=True) as frames:
        assert frames.ok("play", card="5")["state"]["total"] == 14
        records = frames.ok("log", **{"from": 0, "max": 10})["records"]
        assert [r[3:5] for r in records] == [
            ["new", records[0][4]], ["play", "9"], ["play", "5"]], "every accepted card, once"
