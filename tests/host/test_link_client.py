"""The protocol client: framing, CRC, ids, noise, events, retries, deadlines.

The far end is a real pseudo-terminal; the test writes the device's bytes into it by hand
(the `wire` fixture has answered the link's opening hello: requests count from id 100).
"""
import time

import pytest

from croupier.link import DeviceError, Link, LinkError, LinkTimeout, crc_hex, decode_frame, encode_frame, open_serial


def frame(payload: bytes) -> bytes:
    return b"@" + payload + b"|" + crc_hex(payload).encode() + b"\n"


def test_crc_matches_the_protocol_example():
    assert crc_hex(b'{"id":1,"cmd":"hello"}') == "a1907c01"


def test_frames_are_canonical_ascii_with_crc():
    raw = encode_frame({"id": 7, "cmd": "roster", "names": ["Zoë"]})
    assert raw == frame(b'{"cmd":"roster","id":7,"names":["Zo\\u00eb"]}')
    assert decode_frame(raw) == {"id": 7, "cmd": "roster", "names": ["Zoë"]}


@pytest.mark.parametrize("line", [
    b"MicroPython v1.24 on 2024-01-01; boot banner",
    b'@{"id":1,"ok":true}|00000000',         # wrong CRC
    b'@{"id":1,"ok":true}',                   # no CRC (the device always sends one)
    frame(b'{"id":1,"ok":tru'),               # bad JSON behind a good CRC
    frame(b"[1,2,3]"),                        # not an object
    frame(b'{"ok":true,"\xff":1}'),           # not ASCII
])
def test_lines_that_are_not_valid_frames_decode_to_nothing(line):
    assert decode_frame(line) is None


def test_answer_is_found_among_noise_events_stale_answers_and_damaged_frames(wire):
    link, device, host_bytes, _ = wire
    device(b"rst:0x1 (POWERON_RESET)\r\nTraceback (most recent call last):\r\n"
           + frame(b'{"ev":"play","seq":3}')
           + b'@{"id":100,"ok":true,"state":null}|deadbeef\n'
           + frame(b'{"id":99,"ok":true}')
           + frame(b'{"id":100,"ok":true,"state":{"total":5}}'))
    assert link.call("state")["state"] == {"total": 5}
    assert host_bytes().startswith(b'@{"cmd":"state","id":100}|')
    assert [ev["ev"] for ev in link.events] == ["play"]
    assert b"rst:0x1 (POWERON_RESET)\r" in link.noise
    assert b'@{"id":100,"ok":true,"state":null}|deadbeef' in link.noise


def test_a_refusal_raises_with_the_devices_code_and_words(wire):
    link, device, _, _ = wire
    device(frame(b'{"error":"illegal","id":100,"message":"the first of two cards cannot be 2x","ok":false}'))
    with pytest.raises(DeviceError) as err:
        link.call("play", card="2x")
    assert (err.value.error, err.value.message) == ("illegal", "the first of two cards cannot be 2x")


def test_a_garbled_idempotent_request_is_sent_again(wire):
    link, device, host_bytes, _ = wire
    device(frame(b'{"error":"bad_frame","id":null,"message":"bad CRC","ok":false}')
           + frame(b'{"id":101,"log_epoch":"e","ok":true,"proto":2}'))
    assert link.call("hello")["log_epoch"] == "e"
    assert host_bytes().count(b'"cmd":"hello"') == 2


def test_the_opening_hello_and_the_first_request_after_a_timeout_end_any_stray_line():
    from fakeboard import FakeBoard

    board = FakeBoard()
    link = Link(board, timeout=0.3)
    link.call("ack", upto=1)
    board.lose = 1  # the play never arrives
    with pytest.raises(LinkTimeout):
        link.call("play", card="9")
    link.call("ack", upto=2)
    assert board.sent() == (b"\n" + encode_frame({"id": 1, "cmd": "hello"})
                            + encode_frame({"id": 100, "cmd": "ack", "upto": 1})
                            + b"\n" + encode_frame({"id": 102, "cmd": "ack", "upto": 2}))


def test_the_refusal_of_a_stray_line_is_not_taken_for_the_requests(wire):
    # The newline before the first request after a timeout ends a stray `@...` line, which
    # the board refuses (id null) before it answers the request: a play must not be taken
    # as refused.
    link, device, _, _ = wire
    with pytest.raises(LinkTimeout):
        link.call("state", retries=0, timeout=0.2)
    device(frame(b'{"error":"bad_frame","id":null,"message":"not valid JSON","ok":false}')
           + frame(b'{"id":101,"ok":true,"state":{"total":9}}'))
    assert link.call("play", card="9")["state"] == {"total": 9}
    assert any(b"stray line" in line for line in link.noise)


def test_silence_ends_at_the_deadline_with_a_clear_error(wire):
    link, _, host_bytes, _ = wire
    start = time.monotonic()
    with pytest.raises(LinkTimeout, match="is the Croupier firmware running"):
        link.call("play", card="9", timeout=0.3)
    assert 0.3 <= time.monotonic() - start < 2
    assert host_bytes().count(b'"cmd":"play"') == 1  # never repeated: it would play twice


def test_events_are_waited_for_with_a_deadline(wire):
    link, device, _, _ = wire
    device(frame(b'{"ev":"play","seq":4}'))
    assert link.wait_event("play", timeout=1)["seq"] == 4
    with pytest.raises(LinkTimeout, match="no 'play' event"):
        link.wait_event("play", timeout=0.2)


def test_transcript_sees_raw_bytes_both_ways(wire):
    link, device, _, sent = wire
    device(b"noise\n" + frame(b'{"id":100,"ok":true}'))
    link.call("ack", upto=3)
    assert b"".join(b for d, b in sent if d == "rx") == b"noise\n" + frame(b'{"id":100,"ok":true}')
    assert b"".join(b for d, b in sent if d == "tx") == encode_frame({"id": 100, "cmd": "ack", "upto": 3})




def test_an_unknown_port_is_a_clear_error():
    with pytest.raises(LinkError, match="there is no serial port /dev/no-such-board: is the board plugged in"):
        open_serial("/dev/no-such-board")
    with pytest.raises(LinkError, match="cannot open nosuch://board"):  # URLs are pyserial's to judge
        open_serial("nosuch://board")
