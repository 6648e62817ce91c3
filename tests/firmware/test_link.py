"""The protocol of docs/protocol.md against the firmware on the virtual board, frame by frame."""
import base64
import json
import time

from fwlink import crc_hex, frame, unframe, wait_for_boot

from croupier.commands.demo import script_game

LOG_MAX = 64  # records a `log` page holds at most: a journal segment

HELLO_FIELDS = {"device", "fw", "proto", "board", "boot", "uptime_ms", "log_epoch", "last_seq"}


def expect_error(frames, data, code, rid=None):
    frames.send_raw(data)
    answer = frames.reply(rid)
    assert answer["ok"] is False and answer["error"] == code, answer
    assert isinstance(answer["message"], str) and answer["message"]
    return answer


def test_hello_and_boot_event(frames, board):
    hello = frames.ok("hello")
    assert HELLO_FIELDS <= set(hello)
    assert hello["proto"] == 1 and hello["board"] == "sim" and hello["last_seq"] == 0
    assert len(hello["log_epoch"]) == 8 and int(hello["device"], 16) >= 0
    board.restart()
    boot = wait_for_boot(frames)
    assert HELLO_FIELDS <= set(boot) and boot["boot"] == hello["boot"] + 1
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
    expect_error(frames, b"@" + b"x" * 2000 + b"\n", "too_long")
    expect_error(frames, frame({"id": 10, "cmd": "fly"}), "unknown_cmd", 10)
    expect_error(frames, frame({"id": 11}), "unknown_cmd", 11)
    # not protocol: ignored without an answer
    frames.send_raw(b"hello there\n>>> print(1)\n" + b"z" * 3000 + b"\n\xff\xfe\x00\n")
    frames.send_raw(frame({"id": 12, "cmd": "hello"}))
    first = frames.read_frame()
    assert first["id"] == 12 and first["ok"], first


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
    assert "maumau_match is not available on this device" in answer["message"], answer
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


def test_the_request_after_a_key_answers_with_the_key_handled_and_on_the_glass(frames, board):
    """A key waiting while its host talks is handled in the lull before that host's next
    request, its frame with it: the answer sees both, without waiting for a refresh."""
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    time.sleep(0.5)  # the game's screen is up
    before = base64.b64decode(frames.ok("screen")["fb"])
    frames.ok("key", key="9")  # typed, not yet played: only the screen shows it
    after = base64.b64decode(frames.ok("screen")["fb"])
    assert after != before and after == board.glass()
    frames.ok("key", key="ok")
    assert frames.ok("state")["state"]["total"] == 9


def test_play_events_of_keys_and_requests_come_in_input_order(frames, board):
    """A keypad input's event waits for its frame, a request's goes before its reply:
    interleaved, every input still has one event, in journal order."""
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


def test_keys_wait_for_a_request_only_while_it_arrives(vb, link):
    """Key handling waits while a request is arriving; one whose sender stopped half-way
    holds the keys back no longer than a pause, and still completes when the rest comes."""
    from ui_run import wait_until

    request = frame({"id": 21, "cmd": "hello"})
    link.send_raw(request[:12])  # the sender stops mid-line
    before = vb.i2c_bytes
    vb.press("2")
    wait_until(lambda: vb.i2c_bytes != before, 10, "the key's frame while the line is open")
    link.send_raw(request[12:])
    assert link.reply(21)["ok"] is True


LINK_ON_RING = '''
import json
from ramflash import RamFlash, mount
from croupier.controller import Controller
from croupier.journal import Journal
from croupier.link import Link


class Ring:
    """A board whose receive ring holds pieces of input; a read takes what waits, at most
    limit bytes (the board contract)."""

    def __init__(self):
        self.pieces = []

    def console_read(self, limit):
        waiting = b"".join(self.pieces)
        self.pieces = [waiting[limit:]] if len(waiting) > limit else []
        return waiting[:limit]


class Wire:
    def __init__(self):
        self.out = bytearray()

    def write(self, data):
        self.out += data.encode() if isinstance(data, str) else data
        return len(data)


mount(RamFlash(blocks=64), fresh=True)
journal = Journal("/flash/j")
ring, wire = Ring(), Wire()
link = Link(Controller(journal), journal, None, None, ring, stdout=wire)
link._ready = lambda timeout: ring.pieces  # poll: a byte waits while pieces are left
'''

DRAINED_DURING_WORK = LINK_ON_RING + '''
ring.pieces = [b'@{"cmd":"get_roster","id":1}\\n@{"cmd":"get_ro', b'ster","id":2}\\n@{"cmd":']
link.drain()  # in the middle of a frame: held, not answered
during = bytes(wire.out)
ring.pieces = [b'"get_roster","id":3}\\n']
link.catch_up()  # the frame is out: the held input first, then what came since
print(json.dumps({"during": during.decode(), "after": bytes(wire.out).decode(), "left": len(ring.pieces)}))
'''


STARVED = LINK_ON_RING + '''
import asyncio, time
from croupier.link import PAUSE_MS

ring.pieces = [b'@{"cmd":"get_roster",']
link.catch_up()  # a request begins
ring.pieces = [b'"id":5}\\n']  # its rest came while the board was too busy to read
time.sleep_ms(PAUSE_MS + 10)  # longer than a pause since input was last taken


async def main():
    await link.quiet()

asyncio.run(main())
print(json.dumps({"answered": bytes(wire.out).decode()}))
'''


def test_a_line_whose_rest_waits_unread_has_not_paused(mpy):
    """quiet() holds keys back while a request arrives, unless its sender paused. Input
    waiting in the receive ring is no pause (the board was busy): quiet() takes it in, the
    request ends and is answered, and only then does it return."""
    out = json.loads(mpy(STARVED).strip().splitlines()[-1])
    replies = [unframe(line) for line in out["answered"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["ok"]) for r in replies] == [(5, True)]


BEGUN_UNSEEN = LINK_ON_RING + '''
import asyncio

ring.pieces = [b'@{"cmd":"get_roster",']  # a request began; the reader has not had its turn
order = []


async def rest_of_the_line():
    await asyncio.sleep_ms(5)
    order.append("rest")
    ring.pieces = [b'"id":7}\\n']


async def main():
    asyncio.create_task(rest_of_the_line())
    await link.quiet()  # a key's work, about to start
    order.append("work")

asyncio.run(main())
print(json.dumps({"order": order, "answered": bytes(wire.out).decode()}))
'''


def test_work_waits_for_a_request_that_began_before_the_readers_turn(mpy):
    """A host sends its next request the moment an answer is out, while the chip is busy:
    the reader's turn among the tasks may be far off. quiet() takes in what waits first,
    so a key's work or a frame waits for the line to end, not the line for them."""
    out = json.loads(mpy(BEGUN_UNSEEN).strip().splitlines()[-1])
    assert out["order"] == ["rest", "work"], out
    replies = [unframe(line) for line in out["answered"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["ok"]) for r in replies] == [(7, True)]


NEXT_BEGUN_WHILE_QUIET_SLEPT = LINK_ON_RING + '''
import asyncio

ring.pieces = [b'@{"cmd":"get_roster",']  # a request arrives: the key's work waits for it
order = []


async def reader():
    await asyncio.sleep_ms(5)
    ring.pieces = [b'"id":7}\\n']
    link.catch_up()  # the reader's turn: the request ends and is answered
    ring.pieces = [b'@{"cmd":"get_roster",']  # the host's next one begins at once
    await asyncio.sleep_ms(30)  # ends after quiet() has woken from its pause
    order.append("rest")
    ring.pieces = [b'"id":8}\\n']


async def main():
    asyncio.create_task(reader())
    await link.quiet()  # a key's work, waiting since the first request began
    order.append("work")

asyncio.run(main())
print(json.dumps({"order": order, "answered": bytes(wire.out).decode()}))
'''


def test_work_waits_for_a_request_that_began_while_it_waited_for_the_last(mpy):
    """A key's work waits in quiet() while a request arrives; the reader ends that one and
    the host sends the next at once. When quiet() wakes it looks again before it returns:
    the work waits for the new line too."""
    out = json.loads(mpy(NEXT_BEGUN_WHILE_QUIET_SLEPT).strip().splitlines()[-1])
    assert out["order"] == ["rest", "work"], out
    replies = [unframe(line) for line in out["answered"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["ok"]) for r in replies] == [(7, True), (8, True)]


def test_input_drained_during_long_work_is_answered_after_it_in_order(mpy):
    """What drain() takes while a frame is sent waits, unanswered, until catch_up(); then
    every request it held is answered in order, the one split across the drain included."""
    out = json.loads(mpy(DRAINED_DURING_WORK).strip().splitlines()[-1])
    assert out["during"] == "" and out["left"] == 0
    replies = [unframe(line) for line in out["after"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["ok"]) for r in replies] == [(1, True), (2, True), (3, True)]


CUT_INTO = LINK_ON_RING + """
read = ring.console_read
refused, between = [], []


def console_read(limit):  # the keypad's interrupt handler cuts into the read
    refused.append(link.drain() is False)
    return read(limit)


def after_read():  # and, once the read's bytes are held, between two reads
    if late:
        ring.pieces.append(late.pop())  # came during the read
    between.append(link.drain())


late = [b'@{"cmd":"get_roster","id":3}\\n']


ring.console_read = console_read
link.after_read = after_read
ring.pieces = [b'@{"cmd":"get_roster","id":1}\\n@{"cmd":"get_ro', b'ster","id":2}\\n']
link.drain()
during = bytes(wire.out)
ring.pieces.append(b'@{"cmd":"get_roster","id":4}\\n')
link.catch_up()
print(json.dumps({"during": during.decode(), "after": bytes(wire.out).decode(), "left": len(ring.pieces),
                  "refused": refused, "between": between}))
"""


def test_a_drain_that_cuts_into_the_links_reading_leaves_the_input_to_it(mpy):
    """The keypad's interrupt handler drains the input too, between two bytecodes of
    anything. Inside a console read, whose bytes are not held yet, drain() refuses (what it
    read would go before them); between two reads (after_read) it drains, and the next read
    goes after what it held. Every request is answered once, in order."""
    out = json.loads(mpy(CUT_INTO).strip().splitlines()[-1])
    assert out["during"] == "" and out["left"] == 0
    assert out["refused"] and all(out["refused"])
    assert out["between"] and all(out["between"])
    replies = [unframe(line) for line in out["after"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["ok"]) for r in replies] == [(1, True), (2, True), (3, True), (4, True)]


AT_EVERY_TURN = LINK_ON_RING + """
import asyncio

answered_by_step = []


async def busy():
    for step in range(3):  # a task's steps (a scan, a click): the reader never has its turn
        answered_by_step.append(len(wire.out))
        if step == 0:
            ring.pieces = [b'@{"cmd":"get_roster","id":9}\\n']  # arrives during the step
        await asyncio.sleep_ms(0)


link.take_in_at_every_turn(True)
asyncio.run(busy())
link.take_in_at_every_turn(False)
asyncio.run(busy())  # off: nothing takes the input in
print(json.dumps({"answered_by_step": answered_by_step, "out": bytes(wire.out).decode()}))
"""


def test_every_turn_between_two_task_steps_takes_the_input_in(mpy):
    """asyncio queues the reader behind the steps already due; with the link running, the
    input that came during a step is taken in (and a request it ends answered) at the turn
    before the next step, whoever's it is."""
    out = json.loads(mpy(AT_EVERY_TURN).strip().splitlines()[-1])
    first, second = out["answered_by_step"][:3], out["answered_by_step"][3:]
    assert first[0] == 0 and first[1] > 0, out
    assert [unframe(line)["id"] for line in out["out"].encode().splitlines(keepends=True)] == [9]
    assert second == [first[2]] * 3, "switched off, a turn takes nothing in"


IN_A_LULL = LINK_ON_RING + """
import asyncio, time
from croupier.link import HOST_TURN_MS

ran = []


def step():  # a key's work: what a request answered after it must see
    ran.append(time.ticks_ms())
    link.controller.roster = ["Ann", "Bob"]
    return False


async def main():
    started = time.ticks_ms()
    await link.in_a_lull(step)  # no host has talked: at once
    at_once = len(ran) == 1 and time.ticks_diff(ran[0], started) < 20
    ran.clear()
    link.controller.roster = []
    ring.pieces = [b'@{"cmd":"get_roster","id":1}\\n']
    link.catch_up()  # answered: the host talks now

    async def next_request():
        await asyncio.sleep_ms(HOST_TURN_MS // 2)
        before = len(ran)
        ring.pieces = [b'@{"cmd":"get_roster","id":2}\\n']
        link.catch_up()
        return before

    host = asyncio.create_task(next_request())
    await link.in_a_lull(step)
    before_request = await host
    print(json.dumps({"at_once": at_once, "before_request": before_request,
                      "out": bytes(wire.out).decode()}))

asyncio.run(main())
"""


def test_long_work_waits_for_the_next_request_while_a_host_talks(mpy):
    """A key's or a frame's work outlasts the receive buffer: while no host talks it runs at
    once, but right after an answer (a host's next request may be on its way) it waits
    for the next request and runs just before that is handled, while its host waits for
    the answer: the answer sees what it did."""
    out = json.loads(mpy(IN_A_LULL).strip().splitlines()[-1])
    assert out["at_once"], out
    assert out["before_request"] == 0, "it ran while the host could still be sending"
    replies = [unframe(line) for line in out["out"].encode().splitlines(keepends=True)]
    assert [(r["id"], r["names"]) for r in replies] == [(1, []), (2, ["Ann", "Bob"])]


SILENT_HOST = LINK_ON_RING + """
import asyncio, time
from croupier.link import HOST_TURN_MS

ran = []


def step():
    ran.append(time.ticks_ms())
    return len(ran) < 3  # three steps' work: run until it says it is done


async def main():
    ring.pieces = [b'@{"cmd":"get_roster","id":1}\\n']
    link.catch_up()
    answered = time.ticks_ms()
    await link.in_a_lull(step)
    print(json.dumps({"turn": HOST_TURN_MS, "after": [time.ticks_diff(t, answered) for t in ran]}))

asyncio.run(main())
"""


def test_long_work_runs_once_the_host_has_fallen_silent(mpy):
    """With no request after an answer, the work waits HOST_TURN_MS, then runs, every step
    of it."""
    out = json.loads(mpy(SILENT_HOST).strip().splitlines()[-1])
    assert len(out["after"]) == 3, out
    assert all(out["turn"] <= t < out["turn"] + 100 for t in out["after"]), out


INPUT_DURING_LULL = LINK_ON_RING + """
import asyncio

ran = []


def step():
    ran.append(len(ran))
    if len(ran) == 2:
        ring.pieces = [b'@{"cmd":"get_roster",']  # a request begins during the second step
    return True  # more work waits


async def main():
    try:
        await asyncio.wait_for_ms(link.in_a_lull(step), 200)
    except asyncio.TimeoutError:
        pass
    print(json.dumps({"steps": len(ran)}))

asyncio.run(main())
"""


def test_long_work_stops_between_steps_when_input_comes(mpy):
    """A request beginning during a step ends the lull before the next step: the line comes
    first, and the rest of the work waits for the next lull."""
    out = json.loads(mpy(INPUT_DURING_LULL).strip().splitlines()[-1])
    assert out["steps"] == 2, out
