"""The protocol of docs/protocol.md against the firmware on the virtual board, frame by frame."""
import base64
import json
import os
import signal
import time

from fwlink import LINE_MAX, WINDOW, crc_hex, frame, longest_hello, unframe, wait_for_boot

from croupier.commands.demo import script_game

LOG_MAX = 64  # records a `log` page holds at most: a journal segment

HELLO_FIELDS = {"device", "fw", "proto", "board", "boot", "uptime_ms", "log_epoch", "last_seq",
                "line_max", "window"}


def expect_error(frames, data, code, rid=None):
    frames.send_raw(data)
    answer = frames.reply(rid)
    assert answer["ok"] is False and answer["error"] == code, answer
    assert isinstance(answer["message"], str) and answer["message"]
    return answer


def test_hello_and_boot_event(frames, board):
    hello = frames.ok("hello")
    assert HELLO_FIELDS <= set(hello)
    assert hello["proto"] == 2 and hello["board"] == "sim" and hello["last_seq"] == 0
    assert (hello["line_max"], hello["window"]) == (LINE_MAX, WINDOW)
    assert len(hello["log_epoch"]) == 8 and int(hello["device"], 16) >= 0
    board.restart()
    boot = wait_for_boot(frames)
    assert HELLO_FIELDS <= set(boot) and boot["boot"] == hello["boot"] + 1
    assert (boot["proto"], boot["line_max"], boot["window"]) == (2, LINE_MAX, WINDOW)
    assert boot["log_epoch"] == hello["log_epoch"]


def test_framing_errors_and_noise(frames):
    frames.send_raw(b'@{"id":5,"cmd":"hello"}\r\n')  # typed by a person: no CRC
    assert frames.reply(5)["ok"]
    frames.send_raw(b'@{"id":6,"cmd":"hello"}\r')  # a terminal's Enter
    assert frames.reply(6)["ok"]
    expect_error(frames, b'@{"id":7,"cmd":"hello"}|00000000\n', "bad_frame")
    expect_error(frames, frame(raw=b'{"id":8,"cmd":'), "bad_frame")
    expect_error(frames, frame(raw=b'[1,2]'), "bad_frame")
    expect_error(frames, frame({"id": "9", "cmd": "hello"}), "bad_frame")
    expect_error(frames, b"@" + b"x" * (LINE_MAX - 1) + b"\n", "too_long")  # one byte over
    expect_error(frames, b"@" + b"x" * 250 + b"\r", "too_long")
    expect_error(frames, frame({"id": 10, "cmd": "fly"}), "unknown_cmd", 10)
    expect_error(frames, frame({"id": 11}), "unknown_cmd", 11)
    # not protocol: ignored without an answer, an over-long line too
    for rid, noise in ((12, b"hello there\n>>> print(1)\n" + b"z" * 150 + b"\n\xff\xfe\x00\n"),
                       (13, b"z" * (LINE_MAX + 1) + b"\n")):
        frames.send_raw(noise)
        frames.send_raw(frame({"id": rid, "cmd": "hello"}))  # the noise and it fit the window
        first = frames.read_frame()
        assert first["id"] == rid and first["ok"], first


def test_the_longest_request_is_answered_and_every_line_once(frames):
    """A request of LINE_MAX bytes is taken, one byte more is too long; each `@` line gets
    exactly one answer, refusals included."""
    for line, expected in ((longest_hello(20), (20, True, None)),
                           (b"@" + b"y" * LINE_MAX + b"\n", (None, False, "too_long")),
                           (b"# note\n" + frame(raw=b"[1]"), (None, False, "bad_frame")),
                           (frame({"id": 21, "cmd": "get_roster"}), (21, True, None))):
        frames.send_raw(line)
        answer = frames.read_frame()
        assert (answer["id"], answer["ok"], answer.get("error")) == expected, answer
    assert frames.read_frame(timeout=0.5) is None, "one answer a line"


def test_argument_errors_leave_state_alone(frames):
    expect_error(frames, frame({"id": 1, "cmd": "play", "card": "9"}), "no_game", 1)
    expect_error(frames, frame({"id": 2, "cmd": "undo"}), "no_game", 2)
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    state = frames.ok("state")["state"]
    for rid, request, code in (
            (3, {"cmd": "play"}, "bad_args"),
            (4, {"cmd": "play", "card": 9}, "bad_args"),
            (5, {"cmd": "play", "card": "9", "extra": 1}, "bad_args"),
            (6, {"cmd": "play", "card": "banana"}, "illegal"),
            (7, {"cmd": "redo"}, "illegal"),
            (8, {"cmd": "new", "game": "poker", "players": ["A", "B"]}, "bad_args"),
            (9, {"cmd": "new", "game": "lobo77", "players": ["A"]}, "bad_args"),
            (10, {"cmd": "new", "game": "lobo77", "players": "AB"}, "bad_args"),
            (11, {"cmd": "new", "game": "lobo77", "players": ["A", "B"], "options": 3}, "bad_args"),
            (12, {"cmd": "key", "key": "x"}, "bad_args"),
            (13, {"cmd": "key", "key": "9", "hold": 1}, "bad_args"),
            (14, {"cmd": "log", "from": -1}, "bad_args"),
            (15, {"cmd": "log", "max": 0}, "bad_args"),
            (16, {"cmd": "ack", "upto": 10 ** 6}, "bad_args"),
            (17, {"cmd": "ack", "upto": True}, "bad_args"),
            (18, {"cmd": "roster", "names": ["A", 3]}, "bad_args"),
            (19, {"cmd": "clock", "epoch": "now"}, "bad_args")):
        expect_error(frames, frame(dict(request, id=rid)), code, rid)
    assert frames.ok("state")["state"] == state
    assert frames.ok("hello")["last_seq"] == 1  # only the `new`


def test_the_laptops_game_is_not_on_the_board(frames):
    answer = expect_error(frames, frame({"id": 1, "cmd": "new", "game": "maumau_match", "players": ["A", "B"]}),
                          "bad_args", 1)
    # not offered, not named: the games the box has, and nothing about its modules
    assert answer["message"] == "unknown game maumau_match; games: basta, duo, factors, lobo77, maumau", answer
    answer = expect_error(frames, frame({"id": 2, "cmd": "new", "game": "poker", "players": ["A", "B"]}),
                          "bad_args", 2)
    assert answer["message"] == "unknown game poker; games: basta, duo, factors, lobo77, maumau", answer
    assert frames.ok("state")["state"] is None


def test_play_undo_redo_events_and_new_replacing_a_game(frames):
    frames.ok("clock", epoch=1_700_000_000)
    new = frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    assert new["state"]["total"] == 0 and new["state"]["turn"] == 1
    played = frames.ok("play", card="33")
    assert played["state"]["total"] == 33
    assert played["effects"] == [{"kind": "doublet", "seat": 1}]
    play_events = [e for e in frames.events if e["ev"] == "play"]
    assert play_events[-1]["seq"] == 2 and play_events[-1]["state"] == played["state"]
    undone = frames.ok("undo")
    assert undone["state"]["total"] == 0 and undone["effects"] == []
    redone = frames.ok("redo")
    assert redone["state"] == played["state"]
    frames.ok("new", game="basta", players=["Ann", "Bob"])
    records = frames.ok("log", **{"from": 1, "max": 10})["records"]
    kinds = [r[3] for r in records]
    assert kinds == ["new", "play", "undo", "redo", "abandon", "new"]
    assert records[4][2] == 1 and records[5][2] == 6  # game ids: the seq of each `new`
    assert all(r[1] is not None and r[1] >= 1_700_000_000 for r in records)


def test_log_paging_and_ack(frames):
    frames.ok("new", game="lobo77", players=["Ann", "Bob"])
    for card in ["9"] * 20:
        frames.ok("play", card=card) if frames.ok("state")["state"]["total"] < 60 else None
    hello = frames.ok("hello")
    got, start = [], 0
    while True:
        page = frames.ok("log", **{"from": start, "max": 4})
        assert page["log_epoch"] == hello["log_epoch"] and page["last_seq"] == hello["last_seq"]
        if not page["records"]:
            break
        assert len(page["records"]) <= 4
        got += page["records"]
        start = page["records"][-1][0] + 1
    assert [r[0] for r in got] == list(range(1, hello["last_seq"] + 1))
    frames.ok("ack", upto=hello["last_seq"])
    assert frames.ok("log", **{"from": 0, "max": 4})["records"][0][0] >= 1


def play_records(frames, fewest):
    """Scripted Lobo 77 games through the link until the journal holds more than fewest."""
    seed = 0
    while frames.ok("hello")["last_seq"] <= fewest:
        seed += 1
        frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
        for card in script_game("lobo77", ["Ann", "Bob", "Cy"], seed=seed):
            frames.ok("play", card=card)
    return frames.ok("hello")


def test_log_pages_fill_to_max_up_to_log_max_across_segments(frames):
    hello = play_records(frames, 2 * LOG_MAX + 10)
    assert hello["log_max"] == LOG_MAX, "hello names the most records a page holds"
    for start in (1, 40, LOG_MAX + 1):  # a page within a segment, one across two, one from the next
        page = frames.ok("log", **{"from": start, "max": LOG_MAX})["records"]
        assert [r[0] for r in page] == list(range(start, start + LOG_MAX)), "every page filled to max"
    # far more than the 2 KB older firmware stopped at: the records stream out as stored
    assert len(frame({"records": page})) > 2048
    assert len(frames.ok("log", **{"from": 1, "max": 10 ** 6})["records"]) == LOG_MAX
    assert len(frames.ok("log", **{"from": 1})["records"]) == 32, "without max: as before"
    tail = frames.ok("log", **{"from": hello["last_seq"] - 2, "max": LOG_MAX})["records"]
    assert [r[0] for r in tail] == [hello["last_seq"] - 2, hello["last_seq"] - 1, hello["last_seq"]]
    assert frames.ok("log", **{"from": hello["last_seq"] + 1})["records"] == []


def test_every_answer_after_an_ack_sees_its_segments_deleted(frames):
    # the deletion follows the ack's answer (flash erases the host need not wait for), and
    # is done before the next request is read
    hello = play_records(frames, LOG_MAX + 10)
    frames.ok("ack", upto=hello["last_seq"])
    after = frames.ok("hello")
    assert after["acked"] == hello["last_seq"] and after["last_seq"] == hello["last_seq"]
    kept = frames.ok("log", **{"from": 0, "max": LOG_MAX})["records"]
    assert kept[0][0] == 65, "the first segment (records 1-64) is gone, the active one kept"
    assert kept[-1][0] == hello["last_seq"]


def test_hello_says_up_to_which_seq_a_host_acknowledged_and_keeps_it_across_boots(frames, board):
    assert frames.ok("hello")["acked"] == 0, "a fresh journal: no host holds anything"
    frames.ok("new", game="lobo77", players=["Ann", "Bob"])
    frames.ok("play", card="9")
    frames.ok("ack", upto=1)
    frames.ok("play", card="5")
    hello = frames.ok("hello")
    assert (hello["acked"], hello["last_seq"]) == (1, 3), "records 2 and 3 are held by no host yet"
    frames.ok("ack", upto=0)
    assert frames.ok("hello")["acked"] == 1, "an older ack does not take back a newer one"
    board.restart()
    boot = wait_for_boot(frames)
    assert boot["acked"] == 1 and frames.ok("hello")["acked"] == 1, "the acknowledged seq survives a restart"


def test_get_roster_answers_the_names_last_pushed(frames):
    assert frames.ok("get_roster")["names"] == [], "no roster pushed yet"
    frames.ok("roster", names=["Ann", "Bob", "Cy"])
    assert frames.ok("get_roster")["names"] == ["Ann", "Bob", "Cy"]
    frames.ok("roster", names=[])
    assert frames.ok("get_roster")["names"] == []
    expect_error(frames, frame({"id": 30, "cmd": "get_roster", "names": ["X"]}), "bad_args", 30)


def test_roster_add_appends_up_to_sixteen_names_and_a_refusal_changes_nothing(frames):
    frames.ok("roster", names=["P%d" % i for i in range(1, 11)])
    frames.ok("roster", names=["P11", "P12"], add=True)
    assert frames.ok("get_roster")["names"] == ["P%d" % i for i in range(1, 13)]
    answer = expect_error(frames, frame({"id": 31, "cmd": "roster", "add": True,
                                         "names": ["Q%d" % i for i in range(5)]}), "bad_args", 31)
    assert "16" in answer["message"], answer
    expect_error(frames, frame({"id": 32, "cmd": "roster", "names": ["X"], "add": 1}), "bad_args", 32)
    assert frames.ok("get_roster")["names"] == ["P%d" % i for i in range(1, 13)]
    frames.ok("roster", names=["Q1", "Q2", "Q3", "Q4"], add=True)
    assert len(frames.ok("get_roster")["names"]) == 16
    frames.ok("roster", names=["Ann"], add=False)
    assert frames.ok("get_roster")["names"] == ["Ann"]


def test_key_screen_and_roster(frames, board):
    frames.ok("roster", names=["Ann", "Bob", "Cy", "Dee"])
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    frames.ok("key", key="9")
    frames.ok("key", key="ok")
    deadline = time.monotonic() + 5
    while frames.ok("state")["state"]["total"] != 9:
        assert time.monotonic() < deadline, "the keys were not handled like a key press"
        time.sleep(0.05)
    time.sleep(0.3)  # let the display task send the frame
    screen = frames.ok("screen")
    fb = base64.b64decode(screen["fb"])
    assert (screen["w"], screen["h"], len(fb)) == (128, 64, 1024)
    assert fb == board.glass() and any(fb)


def test_play_events_of_keys_and_requests_come_in_input_order(frames, board):
    """A keypad input's event goes out when the link's sender gets its turn, a request's
    before its reply: interleaved, every input still has one event, in journal order."""
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    for card in ("2", "3", "4"):
        board.press(card, ms=60, gap=60)
        board.press("#", ms=60, gap=0)
        frames.ok("play", card="1")  # may overtake the card typed just before it
    deadline = time.monotonic() + 20
    while frames.ok("hello")["last_seq"] < 7:
        assert time.monotonic() < deadline, "the typed cards were not all played"
        time.sleep(0.05)
    while True:  # events still on the way
        obj = frames.read_frame(timeout=0.5)
        if obj is None:
            break
        if "ev" in obj:
            frames.events.append(obj)
    seqs = [e["seq"] for e in frames.events if e["ev"] == "play"]
    assert seqs == list(range(1, 8))
    states = [e["state"]["total"] for e in frames.events if e["ev"] == "play"]
    assert states[-1] == frames.ok("state")["state"]["total"] == 2 + 3 + 4 + 3


FLASH_DIES_UNDER_A_PAGE = r'''
import json
from ramflash import RamFlash, mount
from croupier.controller import Controller
from croupier.journal import Journal
from croupier.link import Link


class Wire:
    """What the link writes; the flash fails once more than die_after bytes are out."""

    def __init__(self):
        self.out = bytearray()
        self.die_after = None

    def write(self, data):
        self.out += data.encode() if isinstance(data, str) else data
        if self.die_after is not None and len(self.out) > self.die_after:
            device.dead = True
        return len(data)


device = mount(RamFlash(blocks=64), fresh=True)
journal = Journal("/flash/j")
game = journal.append(None, "new", {"game": "basta", "players": ["A", "B"], "options": {}})
for i in range(100):
    journal.append(game, "play", "1")
wire = Wire()
link = Link(Controller(journal), journal, None, None, None, stdout=wire)
link.feed(b'@{"cmd":"log","from":1,"id":7,"max":64}')
intact = bytes(wire.out)
wire.out, wire.die_after = bytearray(), 300
link.feed(b'@{"cmd":"log","from":1,"id":8,"max":64}')
print(json.dumps({"intact": intact.decode(), "cut": bytes(wire.out).decode()}))
'''


def test_a_flash_failing_under_a_streamed_page_cuts_its_line_and_answers_internal(mpy):
    out = json.loads(mpy(FLASH_DIES_UNDER_A_PAGE).strip().splitlines()[-1])
    page = unframe(out["intact"].encode())
    assert [r[0] for r in page["records"]] == list(range(1, 65))
    cut, answer = out["cut"].encode().splitlines(keepends=True)
    assert 300 < len(cut) < len(out["intact"]), "the page stopped where the flash failed"
    body = cut.rstrip(b"\n")[1:]
    assert crc_hex(body.rpartition(b"|")[0]).encode() != body.rpartition(b"|")[2], \
        "the cut line fails its CRC: a host drops it"
    error = unframe(answer)
    assert (error["id"], error["ok"], error["error"]) == (8, False, "internal")
    assert "OSError" in error["message"]


def test_a_request_half_sent_holds_nothing_up(vb, link):
    """The link reads only what has arrived: a request whose sender stopped half-way keeps
    no key and no frame waiting, and is answered once the rest comes."""
    from ui_run import wait_until

    request = frame({"id": 21, "cmd": "hello"})
    link.send_raw(request[:12])  # the sender stops mid-line
    before = vb.i2c_bytes
    vb.press("2")
    wait_until(lambda: vb.i2c_bytes != before, 10, "the key's frame while the line is open")
    link.send_raw(request[12:])
    assert link.reply(21)["ok"] is True


def window_of_requests(first_id):
    """Requests that together fill a host's window: a roster built name by name (each one
    changes what the next answers), hellos in the room left, then a get_roster.
    -> [(id, line, names the roster holds once it is answered)]."""
    def fits(more):
        return sum(len(line) for _, line, _ in lines) + len(more) + len(ask) <= WINDOW

    rid, names = first_id, []
    lines = []
    ask = b""
    while True:
        ask = frame({"id": rid + 1, "cmd": "get_roster"})
        line = frame(dict({"id": rid, "cmd": "roster", "names": ["N%d" % rid]}, **({"add": True} if names else {})))
        if not fits(line):
            break
        names = names + ["N%d" % rid]
        lines.append((rid, line, names))
        rid += 1
    while True:
        ask = frame({"id": rid + 1, "cmd": "get_roster"})
        line = frame({"id": rid, "cmd": "hello"})
        if not fits(line):
            return lines + [(rid, frame({"id": rid, "cmd": "get_roster"}), names)]
        lines.append((rid, line, names))
        rid += 1


def test_a_board_stalled_with_a_full_window_in_flight_answers_every_request(frames, board):
    """The host has a whole window of requests unanswered while the board runs nothing for
    1.5 s: once it runs again, every one is answered intact and in order, and the board's
    receive buffer lost nothing (the window fits the chip's 259-byte ring)."""
    for round_ in range(3):
        requests = window_of_requests(100 * (round_ + 1))
        assert WINDOW - 40 < sum(len(line) for _, line, _ in requests) <= WINDOW
        pid = board._proc.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            for _, line, _ in requests:
                frames.send_raw(line)
            board.wait_delivered(timeout=10)
            time.sleep(1.5)
        finally:
            os.kill(pid, signal.SIGCONT)
        for rid, _, names in requests:
            answer = frames.reply(rid, timeout=10)
            assert answer["ok"] is True and answer.get("names", names) == names, (answer, names)
        assert answer["names"] == names and len(names) >= 2
    assert board.rx_overflow == 0
