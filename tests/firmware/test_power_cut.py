"""Power cuts at random block writes during play.

The long run is on the MicroPython unix port with a real littlefs on a RAM flash that dies at
the chosen write (powercut_driver.py): hundreds of cuts, each checked after power-up. The
virtual board run cuts the whole firmware's power mid-game through the link."""
import json

from fwlink import HERE, wait_for_boot


def answer_before_the_cut(frames, board, rid):
    """The response to rid, or None when the board died before sending it: read while it
    runs (2 s at most), then once more for an answer already on the line when it died."""
    for _ in range(8):
        if not board.powered:
            break
        try:
            return frames.reply(rid, timeout=0.25)
        except AssertionError:
            pass
    try:
        return frames.reply(rid, timeout=0.5)
    except AssertionError:
        return None


def test_220_power_cuts_lose_duplicate_or_corrupt_nothing(mpy):
    # the last line is the summary; a dead mount's file finalisers may print before it
    out = json.loads(mpy(HERE / "powercut_driver.py", 7, 220, timeout=120).splitlines()[-1])
    assert out["cuts"] >= 220
    assert out["records"] == out["last_seq"] > 400  # every record accounted for
    # every power-up that wrote a record has a boot number of its own (the driver checks
    # each record); one whose first write the cut struck wrote none, and needs none
    assert out["boots"] > out["stamped_boots"] > out["power_ups"] / 2 > 110


def test_virtual_board_resumes_at_the_last_confirmed_card(frames, board):
    cards = ["9", "2x", "5", "rev", "-10", "8", "3", "0", "7", "4"]
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    for i, card in enumerate(cards):
        before = frames.ok("state")["state"]
        board.cut_power(after_writes=1 + i % 3)  # the 1st, 2nd or 3rd write of this card
        frames.send_raw(b'@{"id":900,"cmd":"play","card":"%s"}\n' % card.encode())
        answer = answer_before_the_cut(frames, board, 900)
        if board.powered:
            board.power_off()
        board.wait_off()
        board.restart()
        boot = wait_for_boot(frames)
        state = frames.ok("state")["state"]
        records = frames.ok("log", **{"from": 0, "max": 32})["records"]
        assert [r[0] for r in records] == list(range(1, boot["last_seq"] + 1)), \
            "no record lost or duplicated"
        assert records[-1][3:5] == ["play", card] or state == before  # [3:5]: kind, data
        if answer is not None:
            assert state == answer["state"], "a confirmed card survives the cut"
        if state == before:  # the card went down with the power: the table plays it again
            assert frames.ok("play", card=card)["state"] != before
