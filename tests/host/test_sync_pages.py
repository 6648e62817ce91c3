"""How sync asks for `log` pages: ahead of the answers from a board that fills every page
(`hello`'s log_max), one at a time from older firmware, and what it does when a page it
asked ahead for does not follow on from the one before.

The far end is a real pseudo-terminal; the test writes the device's bytes into it by hand
(the link's requests count from id 100).
"""
import json
import threading

from croupier.link import Link, encode_frame
from croupier.sync import PAGE_MAX, _page_size, pull
from fakeboard import FakeBoard


def page(rid, seqs, last_seq):
    """The device's answer to `log` request rid: records with these seqs."""
    records = [[seq, None, 1, "play", "9"] for seq in seqs]
    return encode_frame({"id": rid, "ok": True, "log_epoch": "e", "last_seq": last_seq, "records": records})


def requests(data):
    """(id, from, max) of each `log` request among the bytes the host sent."""
    out = []
    for line in data.split(b"\n"):
        if line.startswith(b"@"):
            req = json.loads(line[1:].rpartition(b"|")[0])
            out.append((req["id"], req["from"], req["max"]))
    return out


def pulling(link, **options):
    """pull() in a thread: (thread, list that receives its records)."""
    got = []
    thread = threading.Thread(target=lambda: got.extend(pull(link, "e", 1, **options)))
    thread.start()
    return thread, got


def test_a_board_naming_log_max_gets_its_pages_asked_ahead_and_filled_to_it():
    assert _page_size({"log_max": 64}) == (64, True)
    for older in ({}, {"log_max": 0}, {"log_max": "64"}, {"log_max": True}):
        assert _page_size(older) == (PAGE_MAX, False)


def test_the_next_page_is_asked_before_this_one_is_answered(wire):
    link, device, host_bytes, _ = wire
    thread, got = pulling(link, page_max=2, ahead=True, last_seq=5)
    assert requests(host_bytes()) == [(100, 1, 2), (101, 3, 2)], "two pages asked, none answered yet"
    device(page(100, [1, 2], 5))
    assert requests(host_bytes()) == [(102, 5, 2)], "one more asked once the first came"
    device(page(101, [3, 4], 5) + page(102, [5], 5))
    thread.join(5)
    assert [r[0] for r in got] == [1, 2, 3, 4, 5]
    assert host_bytes() == b"", "nothing is asked beyond the board's last_seq"


def test_a_page_asked_ahead_that_does_not_follow_on_is_dropped_and_asked_again(wire):
    # a damaged record on the board's flash makes a page skip the rest of its segment: the
    # page asked ahead of it then starts before that page's end, and is asked again from
    # the record after it
    link, device, host_bytes, _ = wire
    thread, got = pulling(link, page_max=2, ahead=True, last_seq=5)
    assert requests(host_bytes()) == [(100, 1, 2), (101, 3, 2)]
    device(page(100, [1, 3], 5) + page(101, [3, 4], 5))
    # the next page was asked (from 5) before the one from 3 was seen not to follow on
    assert requests(host_bytes()) == [(102, 5, 2), (103, 4, 2)]
    device(page(102, [5], 5) + page(103, [4, 5], 5))
    thread.join(5)
    assert [r[0] for r in got] == [1, 3, 4, 5], "each record once, in order"


def test_older_firmware_is_asked_one_page_at_a_time(wire):
    link, device, host_bytes, _ = wire
    thread, got = pulling(link, last_seq=40)
    assert requests(host_bytes()) == [(100, 1, PAGE_MAX)]
    device(page(100, range(1, 33), 40))  # the 32 records older firmware puts in a page
    assert requests(host_bytes()) == [(101, 33, PAGE_MAX)]
    device(page(101, range(33, 41), 40))
    thread.join(5)
    assert [r[0] for r in got] == list(range(1, 41))


def test_pages_asked_ahead_wait_for_room_in_a_small_window():
    # a board announcing a window that holds one `log` request: the page ahead waits for the
    # answer before it, and every record still arrives once, in order
    def log(request):
        first = request["from"]
        seqs = range(first, min(first + request["max"], 41))
        return {"records": [[seq, None, 1, "play", "9"] for seq in seqs], "last_seq": 40, "log_epoch": "e"}

    board = FakeBoard(pace=9, limit=60, hello={"window": 60}, handlers={"log": log})
    link = Link(board, timeout=2.0)
    link.hello()
    got = pull(link, "e", 1, page_max=8, ahead=True, last_seq=40)
    assert [r[0] for r in got] == list(range(1, 41))
