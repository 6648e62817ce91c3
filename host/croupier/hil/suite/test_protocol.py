"""docs/protocol.md conformance: framing, every command, every error code, noise on the line.

A refused request must leave the game exactly as it was, so most tests compare the state
before and after.
"""
import binascii
import json
import re
import time

import pytest

from croupier.link import NULL_ID, crc_hex, encode_frame

FRAME = re.compile(rb"^@(\{.*\})\|([0-9a-f]{8})$")
PLAYERS = ["Ann", "Bob", "Cy"]
SETTLE_S = 3.0  # deadline for the display task to draw what the game did
LINE_MAX = WINDOW = 220  # docs/protocol.md, "The window"


@pytest.fixture
def lobo(device):
    """A fresh 3-player Lobo 77 game with two cards played: total 19, seat 0 on turn."""
    device.new("lobo77", PLAYERS)
    device.play("10", "9")
    return device.state()


def raw_answer(device, data, what, reply=NULL_ID):
    """Write one raw request line (answered with id `reply`, or null), then read frames
    until the answer (not an event) arrives."""
    device.send_raw(data, reply)
    while True:
        frame = device.next_frame(what)
        if "ev" not in frame:
            return frame


def expect_refusal(answer, code, rid=None):
    assert answer.get("ok") is False and answer.get("error") == code, \
        "expected error %r (id %r), the board answered %r" % (code, rid, answer)
    assert answer.get("id") == rid, "a refused request is answered with id %r, got %r" % (rid, answer.get("id"))
    assert isinstance(answer.get("message"), str) and answer["message"], "an error carries a human message: %r" % answer


# -- framing --------------------------------------------------------------------------------
def test_every_frame_from_the_board_is_sealed_ascii_json(device, lobo):
    device.play("3")  # an answer and a play event
    device.call("screen")
    lines = [line for line in device.transcript.received().split(b"\n") if line.startswith(b"@")]
    assert len(lines) >= 3, "expected at least an answer, an event and a screen frame; got %r" % lines
    for line in lines:
        assert not line.endswith(b"\r"), "a frame ends with \\n alone, not \\r\\n (docs/protocol.md, Framing): %r" % line[-20:]
        match = FRAME.match(line)
        assert match, "a frame is @json|crc8 (docs/protocol.md, Framing): %r" % line[:120]
        payload, crc = match.groups()
        assert "%08x" % (binascii.crc32(payload) & 0xFFFFFFFF) == crc.decode(), "CRC-32 of the JSON bytes: %r" % line[:120]
        assert max(payload) < 0x80 and b"\x03" not in payload and b"\x04" not in payload, "7-bit ASCII, no Ctrl-C/D"
        assert isinstance(json.loads(payload), dict)


def test_a_request_without_crc_is_accepted(device):
    answer = raw_answer(device, b'@{"id":901,"cmd":"hello"}\n', "the answer to a hello typed without CRC", 901)
    assert answer.get("id") == 901 and answer.get("ok") is True and answer.get("proto") == 2, answer


def test_a_terminal_enter_ends_a_request_too(device):
    answer = raw_answer(device, b'@{"id":902,"cmd":"state"}\r', "the answer to a request ended by CR", 902)
    assert answer.get("id") == 902 and answer.get("ok") is True, answer


def test_wrong_crc_is_bad_frame_and_changes_nothing(device, lobo):
    good = encode_frame({"id": 903, "cmd": "play", "card": "3"})
    damaged = good[:-2] + (b"0" if good[-2:-1] != b"0" else b"1") + b"\n"  # last CRC digit changed
    expect_refusal(raw_answer(device, damaged, "bad_frame for a wrong CRC"), "bad_frame")
    assert device.state() == lobo, "a request with a wrong CRC must not be played"


@pytest.mark.parametrize("line", [b'@{"id":904,"cmd":"hello"', b"@[1,2,3]", b'@{"cmd":"hello"}', b'@{"id":"x","cmd":"hello"}',
                                  b"@\xff\xfe{}"], ids=["truncated", "not-object", "no-id", "string-id", "binary"])
def test_unparsable_request_is_bad_frame_with_null_id(device, line):
    expect_refusal(raw_answer(device, line + b"\n", "bad_frame for %r" % line), "bad_frame")


def test_over_long_request_is_too_long_and_changes_nothing(device, lobo):
    head = b'@{"id":905,"cmd":"play","card":"'
    long_line = head + b"9" * (LINE_MAX + 1 - len(head) - 3) + b'"}\n'
    assert len(long_line) == LINE_MAX + 1
    expect_refusal(raw_answer(device, long_line, "too_long for a 221-byte request"), "too_long")
    assert device.state() == lobo, "an over-long request must not change the game"
    assert device.hello()["proto"] == 2, "the board still answers after an over-long line"


def test_longest_allowed_request_is_taken(device):
    head = b'{"id":906,"cmd":"hello","pad":"'
    payload = head + b"x" * (LINE_MAX - 11 - len(head) - 2) + b'"}'
    line = b"@" + payload + b"|" + crc_hex(payload).encode() + b"\n"
    assert len(line) == LINE_MAX
    answer = raw_answer(device, line, "an answer to a 220-byte request", 906)
    expect_refusal(answer, "bad_args", 906)  # parsed and handled: `pad` is no argument of hello


def test_noise_between_requests_is_ignored(device, lobo):
    noise = [b"\n\n", b"ets Jun  8 2016 00:22:57\r\n", b">>> print('hi')\r\n", b"#" * 150 + b"\n",
             bytes(range(5, 64)) + b"\n", b"Traceback (most recent call last):\r\n"]
    for chunk in noise:
        device.send_raw(chunk)
    assert device.state() == lobo, "noise on the line must not change the game"
    assert device.play("3")["state"]["total"] == 22, "after the noise the board plays on"


def test_a_full_window_of_pipelined_requests_is_answered_in_order_and_intact(device, lobo):
    # docs/protocol.md, "The window": a host may have 220 request bytes unanswered; the board
    # reads them all, answering each once, in the order sent
    last = device.last_seq()  # its answer proves everything before it read: the window is empty
    asks = [("state", {}), ("screen", {}), ("log", {"from": last - 1, "max": 2}), ("play", {"card": "7.5"}),
            ("hello", {})]
    ids = [device.link.send(cmd, **args) for cmd, args in asks]
    size = sum(len(encode_frame(dict(args, cmd=cmd, id=rid))) for (cmd, args), rid in zip(asks, ids))
    assert WINDOW - 40 < size <= WINDOW, "the requests fill the window: %d bytes" % size
    answers = []
    while len(answers) < len(ids):
        frame = device.next_frame("the answers to %d requests sent at once (%d came)" % (len(ids), len(answers)))
        if "ev" not in frame:
            answers.append(frame)
    assert [a.get("id") for a in answers] == ids, "one answer for each request, in the order sent: %r" % answers
    state, screen, log, refused, hello = answers
    assert state["state"] == lobo, "the game as it was"
    assert screen["ok"] is True and (screen["w"], screen["h"]) == (128, 64) and len(screen["fb"]) > 1000
    assert [(r[0], r[3], r[4]) for r in log["records"]] == [(last - 1, "play", "10"), (last, "play", "9")]
    expect_refusal(refused, "illegal", ids[3])
    assert hello["ok"] is True and hello["last_seq"] == last, "the refused card wrote nothing"
    assert device.state() == lobo


# -- commands -------------------------------------------------------------------------------
def test_hello_fields(device):
    info = device.hello()
    assert info["proto"] == 2
    assert (info["line_max"], info["window"]) == (LINE_MAX, WINDOW), "hello announces the line limit and the window"
    assert re.fullmatch(r"[0-9a-f]+", info["device"]), "device is the hex unique id: %r" % info["device"]
    assert isinstance(info["fw"], str) and info["fw"]
    assert isinstance(info["board"], str) and info["board"]
    for field in ("boot", "uptime_ms", "last_seq"):
        assert isinstance(info[field], int) and info[field] >= 0, "%s: %r" % (field, info[field])
    assert isinstance(info["log_epoch"], str) and info["log_epoch"]
    later = device.hello()
    assert later["uptime_ms"] >= info["uptime_ms"] and later["boot"] == info["boot"]


def test_non_ascii_names_travel_as_escapes(device):
    state = device.new("lobo77", ["Zo\u00eb", "J\u00fcrgen"])
    assert [p["name"] for p in state["players"]] == ["Zo\u00eb", "J\u00fcrgen"], "names come back as sent"
    received = device.transcript.received()
    assert b"Zo\\u00eb" in received and max(received) < 0x80, "non-ASCII text is sent as \\uXXXX escapes"


def test_new_answers_the_initial_state(device):
    state = device.new("lobo77", PLAYERS, tokens=2)
    assert state["game"] == "lobo77" and state["round"] == 1 and state["total"] == 0
    assert [p["name"] for p in state["players"]] == PLAYERS
    assert [p["tokens"] for p in state["players"]] == [2, 2, 2], "option tokens=2 gives every player 2 tokens"
    assert state["turn"] == 1 and state["dir"] == 1 and state["owed"] == 1 and state["over"] is False
    assert device.state() == state


def test_play_answers_state_and_effects_and_emits_a_play_event(device, lobo):
    before = device.last_seq()
    answer = device.play("3")
    assert answer["state"]["total"] == 22
    assert answer["effects"] == [{"kind": "doublet", "seat": 0}], "19 + 3 = 22 is a doublet for seat 0"
    event = device.wait_play("a play event for the card played over the link", before)
    assert event["state"] == answer["state"] and event["effects"] == answer["effects"]
    assert event["seq"] == before + 1


def test_undo_and_redo_over_the_link(device, lobo):
    after = device.play("3")["state"]
    assert device.call("undo")["state"] == lobo, "undo restores the state before the card"
    assert device.call("redo")["state"] == after, "redo plays the card again"


def test_nothing_to_undo_or_redo_is_illegal(device):
    state = device.new("basta", PLAYERS)
    device.refuse("illegal", "undo")
    device.refuse("illegal", "redo")
    assert device.state() == state


def test_illegal_card_changes_nothing(device, lobo):
    device.refuse("illegal", "play", card="7.5")
    device.refuse("illegal", "play", card="end")  # no two-card turn is going on
    assert device.state() == lobo


def test_key_command_is_a_keypad_press(device, lobo):
    before = device.last_seq()
    for key in ("3", "ok"):
        device.call("key", key=key)
    event = device.wait_play("a play event after the keys 3 ok", before)
    assert event["state"]["total"] == 22 and event["effects"] == [{"kind": "doublet", "seat": 0}]


def test_screen_is_a_128x64_page_ordered_buffer_that_follows_the_game(device, lobo, screen):
    first = screen()
    assert (first.w, first.h, len(first.fb)) == (128, 64, 1024)
    assert first.lit() > 0, "the play screen is not blank"
    device.play("9")
    device.until("the screen to change when the total goes from 19 to 28", lambda: screen().fb != first.fb,
                 lambda: "the same frame for %.0f s" % SETTLE_S, SETTLE_S)


def test_log_pages_and_record_format(device, lobo):
    info = device.hello()
    answer = device.call("log", **{"from": info["last_seq"] - 2, "max": 10})
    assert answer["log_epoch"] == info["log_epoch"] and answer["last_seq"] == info["last_seq"]
    records = answer["records"]
    assert [r[0] for r in records] == [info["last_seq"] - 2, info["last_seq"] - 1, info["last_seq"]], records
    new, first, second = records
    assert new[3] == "new" and new[4]["game"] == "lobo77" and new[4]["players"] == PLAYERS, new
    assert first[2] == second[2] == new[0], "a game's records carry the seq of its `new` record as game id"
    assert [first[3:5], second[3:5]] == [["play", "10"], ["play", "9"]]
    stamps = [r[5] for r in records]
    assert [boot for boot, _ in stamps] == [info["boot"]] * 3, "[boot, ms]: written in this boot"
    assert [ms for _, ms in stamps] == sorted(ms for _, ms in stamps) and stamps[-1][1] <= info["uptime_ms"], \
        "ms since the boot, on hello's uptime_ms clock: %r, uptime %d" % (stamps, info["uptime_ms"])
    one = device.call("log", **{"from": info["last_seq"] - 2, "max": 1})["records"]
    assert one == records[:1], "max limits the page"


def test_clock_stamps_later_records(device, lobo):
    epoch = int(time.time())  # the true time: a board with a clock module keeps what is set
    device.call("clock", epoch=epoch)
    device.play("3")
    record = device.call("log", **{"from": device.last_seq(), "max": 1})["records"][0]
    assert isinstance(record[1], int) and epoch <= record[1] < epoch + 600, "record time %r after clock %d" % (record[1], epoch)


def test_ack_and_roster_are_accepted(device, lobo):
    last = device.last_seq()
    device.call("ack", upto=last)
    device.refuse("bad_args", "ack", upto=last + 1000)
    device.call("roster", names=["Ann", "Bob", "Cy", "Dee"])
    assert device.state() == lobo and device.last_seq() == last, "ack and roster do not touch the game"


def test_roster_add_appends_up_to_sixteen_names(device):
    device.call("roster", names=["Ann", "Bob"])
    device.call("roster", names=["Cy"], add=True)
    assert device.call("get_roster")["names"] == ["Ann", "Bob", "Cy"], "add appends to the roster"
    device.refuse("bad_args", "roster", names=["P%d" % i for i in range(14)], add=True)
    assert device.call("get_roster")["names"] == ["Ann", "Bob", "Cy"], "a roster over 16 names changes nothing"
    device.call("roster", names=["Dee"])
    assert device.call("get_roster")["names"] == ["Dee"], "without add the list is replaced"


# -- error codes ----------------------------------------------------------------------------
def test_unknown_command(device, lobo):
    message = device.refuse("unknown_cmd", "shuffle")
    assert "shuffle" in message
    assert device.state() == lobo


@pytest.mark.parametrize("cmd,args", [
    ("new", {"game": "chess", "players": PLAYERS}),
    ("new", {"game": "lobo77", "players": ["Solo"]}),
    ("new", {"game": "lobo77", "players": "Ann,Bob"}),
    ("new", {"game": "lobo77", "players": PLAYERS, "options": {"tokens": 9}}),
    ("new", {"players": PLAYERS}),
    ("play", {}),
    ("play", {"card": 9}),
    ("play", {"card": "9", "seat": 1}),
    ("key", {"key": "#"}),
    ("key", {"key": "9", "hold": "yes"}),
    ("log", {"from": "first"}),
    ("log", {"from": 0, "max": 0}),
    ("ack", {"upto": -1}),
    ("roster", {"names": [""]}),
    ("clock", {"epoch": "noon"}),
], ids=lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True))
def test_bad_arguments_change_nothing(device, lobo, cmd, args):
    last = device.last_seq()
    device.refuse("bad_args", cmd, **args)
    assert device.state() == lobo and device.last_seq() == last, "a refused %s must leave game and journal alone" % cmd
