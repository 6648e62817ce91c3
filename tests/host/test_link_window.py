"""The link's flow control: the host never has more request bytes unread on the board than its
window (220), so a board that stalls for any length of time loses nothing.

The far end is tests/host/fakeboard.py: a board that reads only as fast as a test lets it and
fails the test at any write that would leave more than its limit unread.
"""
import threading
import time

import pytest

from croupier.link import OPENING, RING, WINDOW, Link, LinkError, LinkTimeout, NULL_ID, WrongProtocol, encode_frame
from fakeboard import FakeBoard, roster_handlers

NAMES16 = ["Name%02d-abcdefghi" % i for i in range(16)]  # 16 names of 16 characters


def log_pages(request):
    """Each `log` page: the seqs asked for, as records."""
    first = request["from"]
    return {"records": [[seq, None, 1, "play", "9"] for seq in range(first, first + request["max"])],
            "last_seq": 10_000, "log_epoch": "e"}


def stalled_after_opening():
    """(board, link): the link's opening hello answered, then the board reads nothing."""
    board = FakeBoard()
    link = Link(board, timeout=1.0)
    link.hello()
    board.pace = 0
    return board, link


def test_a_fake_board_that_is_sent_too_much_fails_the_test():
    board = FakeBoard(pace=0)
    board.write(b"x" * WINDOW)
    with pytest.raises(AssertionError, match="221 bytes unread"):
        board.write(b"x")


def test_the_opening_hello_is_small_and_alone_until_answered():
    board = FakeBoard()
    link = Link(board, timeout=0.5)
    assert link.call("state")["ok"] is True
    (opening, answered_before), (state, answered_after) = board.writes
    assert opening.startswith(b"\n@") and len(opening) <= OPENING and b'"cmd":"hello"' in opening
    assert answered_before == 0 and answered_after == 1, "the state request waited for the hello's answer"
    assert [r["cmd"] for r in board.requests] == ["hello", "state"]


def test_a_killed_hosts_unread_window_and_the_opening_fit_the_boards_receive_path():
    # the host before left a whole window unread: a cut-off request (no newline)
    leftover = (b'@{"cmd":"log","from":1,"id":7,"max":64}|00000000' * 5)[:WINDOW]
    board = FakeBoard(pace=0, limit=RING, leftover=leftover)
    link = Link(board, timeout=1.0)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (link.call("state"), done.set()))
    thread.start()
    try:
        assert not done.wait(0.3)
        assert len(board.sent()) <= OPENING, "nothing but the opening hello while the board reads nothing"
    finally:
        board.pace = None
        thread.join(5)
    assert done.is_set()
    assert [r["cmd"] for r in board.requests] == ["hello", "state"]
    assert any(b"stray line" in line for line in link.noise), "the leftover's refusal is not taken for the hello's"


def test_pipelined_requests_to_a_slow_board_stay_within_the_window_and_come_back_in_order():
    board = FakeBoard(pace=7, handlers={"log": log_pages})
    link = Link(board, timeout=2.0)
    ids = [link.send("log", max=1, **{"from": n}) for n in range(1, 41)]
    got = [link.answer("log", rid)["records"][0][0] for rid in ids]
    assert got == list(range(1, 41)), "every page, intact, in order"
    assert len(board.frames()) == 41  # the opening hello and the 40 requests, each once


def test_a_refusal_with_id_null_frees_the_oldest_request():
    board, link = stalled_after_opening()
    bad = b'@{"cmd":"state","id":5' + b" " * 180 + b"\n"  # not JSON: refused, id null
    link.write_raw(bad, reply=NULL_ID)  # 203 bytes: no request fits beside them
    board.take()  # the board reads the line and refuses it
    board.pace = None
    assert link.call("state")["ok"] is True
    assert board.writes[-1][1] == 2, "the request went once the refusal (after the hello's answer) freed the line"


def test_a_lost_request_is_sent_again_within_the_window():
    board = FakeBoard()
    link = Link(board, timeout=0.3)
    link.hello()
    board.lose = 1
    assert link.call("state")["ok"] is True
    assert [r["cmd"] for r in board.requests] == ["hello", "state"]
    assert board.sent().endswith(b"\n" + encode_frame({"cmd": "state", "id": 101})), \
        "the retry ends a stray line first"


def test_a_retry_that_does_not_fit_waits_for_a_probe_hello():
    handlers, roster = roster_handlers()
    board = FakeBoard(handlers=handlers)
    link = Link(board, timeout=0.3)
    link.hello()
    names = NAMES16[:6]  # a request of 160 bytes: a retry beside it would not fit
    board.lose = 1
    assert link.call("roster", names=names)["ok"] is True
    assert [r["cmd"] for r in board.requests] == ["hello", "hello", "roster"], "a probe, then the retry"
    assert roster == names


def test_a_board_that_reads_nothing_is_given_up_with_nothing_more_sent():
    board = FakeBoard()
    link = Link(board, timeout=0.3)
    link.hello()
    board.pace = 0
    with pytest.raises(LinkTimeout) as err:
        link.call("roster", names=NAMES16[:6])
    assert str(err.value) == ("the board has read nothing for 0.3 s (stalled, or not the Croupier firmware); "
                              "nothing more was sent, so nothing was lost")
    assert [f["cmd"] for f in board.frames()] == ["hello", "roster", "hello"], "the request and one probe"
    # reading again: the link opens anew, as a new host would: the window it gave up on and
    # one opening hello at most unread
    board.pace, board.limit = None, WINDOW + OPENING
    assert link.call("state")["ok"] is True
    assert [(f["cmd"], f["id"] < 100) for f in board.frames()[3:]] == [("hello", True), ("state", False)]


def test_a_boot_event_frees_the_window_after_an_opening_hello():
    board, link = stalled_after_opening()
    for n in range(4):  # requests the board never reads: a reset takes them
        link.send("log", max=1, **{"from": n})
    board.boot()
    board.pace = None
    assert link.call("state")["ok"] is True
    hello, state = board.frames()[-2:]
    assert (hello["cmd"], state["cmd"]) == ("hello", "state") and hello["id"] < 100, "an opening hello, then the request"
    assert link.wait_event("boot", timeout=0)["proto"] == 2


def test_hello_within_waits_for_a_booting_board_with_one_hello():
    board = FakeBoard(pace=0)
    link = Link(board, timeout=0.5)
    timer = threading.Timer(0.4, lambda: (board.boot(), setattr(board, "pace", None)))
    timer.start()
    info = link.hello(within=3)
    timer.join()
    assert info["proto"] == 2
    assert len([f for f in board.frames() if f["cmd"] == "hello"]) == 2, \
        "one hello while booting, lost in the reset; one after the boot event"


def test_hello_within_waits_for_a_board_that_restarts_under_an_open_link():
    board, link = stalled_after_opening()  # the board is resetting: it reads nothing
    timer = threading.Timer(1.2, lambda: (board.boot(), setattr(board, "pace", None)))
    timer.start()
    info = link.hello(within=5)
    timer.join()
    assert info["proto"] == 2 and link.wait_event("boot", timeout=0)
    hellos = [f for f in board.frames() if f["cmd"] == "hello"]
    assert [h["id"] for h in hellos if h["id"] < 100] == [1, 2], "after the boot event the link opened again"


def test_a_smaller_window_announced_by_the_board_is_kept():
    board = FakeBoard(pace=5, limit=100, hello={"window": 100}, handlers={"log": log_pages})
    link = Link(board, timeout=2.0)
    ids = [link.send("log", max=1, **{"from": n}) for n in range(1, 21)]
    assert [link.answer("log", rid)["records"][0][0] for rid in ids] == list(range(1, 21))


def test_a_protocol_1_board_is_refused_with_how_to_update_it():
    board = FakeBoard(hello={"proto": 1, "fw": "0.1.0"})
    link = Link(board, timeout=0.5)
    with pytest.raises(WrongProtocol) as err:
        link.call("state")
    assert str(err.value) == ("the board runs protocol-1 firmware (fw 0.1.0); this croupier speaks protocol 2: "
                              "update the board with `croupier flash --port /dev/fake`")
    assert [f["cmd"] for f in board.frames()] == ["hello"], "nothing but the opening hello was sent"


@pytest.mark.parametrize("proto,words", [(3, r"speaks protocol 3 \(fw 0.9.0\); this croupier speaks protocol 2: update croupier"),
                                         (None, r"names no protocol version .*is the Croupier firmware running on /dev/fake")])
def test_a_board_of_another_protocol_is_refused(proto, words):
    link = Link(FakeBoard(hello={"proto": proto, "fw": "0.9.0"}), timeout=0.5)
    with pytest.raises(WrongProtocol, match=words):
        link.hello()


def test_a_request_over_the_line_limit_is_refused_before_anything_is_sent():
    board = FakeBoard()
    link = Link(board, timeout=0.5)
    with pytest.raises(LinkError) as err:
        link.call("new", game="lobo77", players=NAMES16)
    assert str(err.value).startswith("the new request is ")
    assert str(err.value).endswith("bytes, the board takes at most 220: use shorter or fewer names")
    assert board.sent() == b""


def test_a_roster_too_long_for_one_request_is_split_and_lands_whole():
    handlers, roster = roster_handlers()
    board = FakeBoard(handlers=handlers)
    link = Link(board, timeout=0.5)
    assert link.set_roster(NAMES16) > 1
    assert roster == NAMES16
    sent = [r for r in board.requests if r["cmd"] == "roster"]
    assert "add" not in sent[0] and all(r["add"] is True for r in sent[1:])
    assert all(len(encode_frame(r)) <= 220 for r in sent)
    link.set_roster(["Ann"])
    assert roster == ["Ann"], "a short roster is one request that replaces the list"


def test_a_raw_line_longer_than_the_window_goes_only_into_an_empty_window():
    board = FakeBoard(pace=None, limit=RING - OPENING)
    link = Link(board, timeout=0.5)
    link.hello()
    long_line = b"@" + b"9" * 221 + b"\n"
    link.write_raw(long_line, reply=NULL_ID)
    assert link.next_message(time.monotonic() + 1)["error"] == "too_long"
    with pytest.raises(LinkError, match="do not fit"):
        link.write_raw(b"#" * 221 + b"\n")  # draws no answer: nothing would ever free it
    assert link.call("state")["ok"] is True


def test_noise_that_draws_no_answer_leaves_room_for_the_probe_that_frees_it():
    board = FakeBoard()
    link = Link(board, timeout=0.5)
    link.hello()
    for chunk in (b"#" * 150 + b"\n", bytes(range(14, 64)) + b"\n", b"ets Jun  8 2016\r\n" * 5):
        link.write_raw(chunk)
    assert link.call("state")["ok"] is True
    assert b"".join(data for data, _ in board.writes).count(b'"cmd":"hello"') >= 2, "probes freed the noise"
    with pytest.raises(LinkError, match="send at most 18[0-9] that draw no answer"):
        link.write_raw(b"#" * 200 + b"\n")


def test_flash_micropython_keeps_a_protocol_1_boards_journal(monkeypatch, tmp_path):
    """An older firmware's journal cannot be read here: erasing waits for its update and sync."""
    import croupier.link
    from croupier.commands.flash import check_nothing_at_risk
    from croupier.link import LinkError

    monkeypatch.setattr(croupier.link, "open_serial", lambda port: FakeBoard(hello={"proto": 1, "fw": "0.1.0"}))
    with pytest.raises(LinkError, match=r"firmware 0\.1\.0, whose journal this croupier cannot read: update it "
                                        r"with `croupier flash --port /dev/ttyUSB0` \(the journal stays\)"):
        check_nothing_at_risk("/dev/ttyUSB0", store=None)
