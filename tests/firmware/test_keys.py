"""The keypad task on the virtual board's electrically emulated matrix: fast typing, key
chatter and long presses, observed through the game state on the link."""
import json
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


def overlap(board, first, second, second_up_first):
    """first goes down, then second while first is still down; they come up in the same
    order or, second_up_first, the other way round (a fast typist's roll)."""
    board.key_down(first)
    time.sleep(0.06)
    board.key_down(second)
    time.sleep(0.06)
    for key in (second, first) if second_up_first else (first, second):
        board.key_up(key)
        time.sleep(0.06)


def test_overlapping_presses_count_in_the_order_they_went_down(frames, board):
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    overlap(board, "5", "#", second_up_first=False)  # 5 then ok: the card 5
    assert settle(frames, 5)["total"] == 5
    overlap(board, "3", "#", second_up_first=True)  # up in the other order: still 3 then ok
    assert settle(frames, 8)["total"] == 8
    overlap(board, "2", "#", second_up_first=True)
    state = settle(frames, 10)
    records = frames.ok("log", **{"from": 2, "max": 32})["records"]
    assert [r[4] for r in records if r[3] == "play"] == ["5", "3", "2"]
    assert state["total"] == 10


def test_chatter_is_one_press_and_a_long_press_is_redo(frames, board):
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    for _ in range(6):  # a bouncing contact, each change as soon as the board took the one
        board.key_down("7")  # before (no host sleep: a busy host would stretch a bounce
        board.key_up("7")  # past the 20 ms debounce), then held down
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


MATRIX = r'''
import json, micropython
from croupier.keys import Keypad

class Matrix:
    """The keypad's wiring: a pressed key joins its row and column; columns pull up."""
    def __init__(self):
        self.down = bytearray(16)
        self.rows = [Line(self, "row", i) for i in range(4)]
        self.cols = [Line(self, "col", i) for i in range(4)]
        self.handlers = [None] * 4  # each column's interrupt handler, while armed
        self.col_reads = 0

    def press(self, key, down):
        """A contact closes or opens; a column whose level it changes raises its interrupt."""
        before = [c.value() for c in self.cols]
        self.down[key] = 1 if down else 0
        for c in range(4):
            if before[c] != self.cols[c].value() and self.handlers[c]:
                self.handlers[c](self.cols[c])

class Line:
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, matrix, kind, i):
        self.m, self.kind, self.i, self.level = matrix, kind, i, 1
    def value(self, x=None):
        if x is not None:
            self.level = x
            return
        self.m.col_reads += 1
        for r in range(4):  # a column reads low when a pressed key joins it to a low row
            if self.m.rows[r].level == 0 and self.m.down[r * 4 + self.i]:
                return 0
        return 1
    def irq(self, handler=None, trigger=3):
        assert handler is None or trigger == self.IRQ_FALLING | self.IRQ_RISING
        self.m.handlers[self.i] = handler

LABELS = "1 2 3 A 4 5 6 B 7 8 9 C * 0 # D".split()
m = Matrix()
k = Keypad(m.rows, m.cols, LABELS)
'''

SCAN = MATRIX + r'''
# (ms, key index, down): chatter on "5", a 60 ms "5", a 700 ms "*", "1" and "2" overlapping,
# a 10 ms glitch on "9" that must not count
timeline = []
for i in range(5):
    timeline += [(100 + 2 * i, 5, i % 2 == 0)]
timeline += [(110, 5, True), (170, 5, False)]
timeline += [(300, 12, True), (1000, 12, False)]
timeline += [(1200, 0, True), (1240, 1, True), (1270, 0, False), (1320, 1, False)]
timeline += [(1500, 10, True), (1510, 10, False)]
'''

DRAIN = r'''
# the ring taken by hand, as get() takes it
out = []
while k._head != k._tail:
    slot = k._head % len(k._ring)
    out.append([k.names[k._ring[slot]], k._ring_hold[slot]])
    k._head = (k._head + 1) % (2 * len(k._ring))
print(json.dumps(out))
'''

RUN = r'''
def run():
    i = 0
    micropython.heap_lock()  # the scan itself must not allocate
    try:
        for t in range(0, 1700, 5):
            while i < len(timeline) and timeline[i][0] <= t:
                m.down[timeline[i][1]] = 1 if timeline[i][2] else 0
                i += 1
            k.scan(t)
    finally:
        micropython.heap_unlock()

run()
''' + DRAIN


def test_scan_debounces_reports_holds_and_never_allocates(mpy):
    events = json.loads(mpy(SCAN + RUN))
    assert events == [["5", 0], ["undo", 1], ["1", 0], ["2", 0]]


HELD_WHILE_TYPING = MATRIX + r'''
# "*" held past the hold time stays down (at rest, as the scan sees it) while "5" and "6"
# are typed; "*" released; then "1" released 10 ms short of the hold time: a short press
timeline = [(0, 12, True), (800, 5, True), (860, 5, False), (900, 6, True), (960, 6, False),
            (1000, 12, False), (1050, 0, True), (1640, 0, False)]
'''


def test_a_key_held_at_rest_leaves_typing_and_its_own_release_alone(mpy):
    events = json.loads(mpy(HELD_WHILE_TYPING + RUN))
    assert events == [["undo", 1], ["5", 0], ["6", 0], ["1", 0]]


IDLE = MATRIX + r'''
import asyncio

def armed():
    return [r.level for r in m.rows] == [0, 0, 0, 0] and None not in m.handlers

async def main():
    out = {}
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    out["armed"] = armed()
    reads = m.col_reads
    await asyncio.sleep_ms(300)
    out["reads_while_idle"] = m.col_reads - reads
    m.press(5, True)  # "5": row 1, column 1
    await asyncio.sleep_ms(80)
    out["scanning"] = m.col_reads - reads > 10
    m.press(5, False)
    out["key"] = await asyncio.wait_for_ms(k.get(), 1000)
    await asyncio.sleep_ms(100)
    out["armed_again"] = armed()
    task.cancel()
    await asyncio.sleep_ms(10)
    out["rows_high_after_cancel"] = [r.level for r in m.rows] == [1, 1, 1, 1]
    out["disarmed_after_cancel"] = m.handlers == [None] * 4
    print(json.dumps(out))

asyncio.run(main())
'''


def test_an_idle_keypad_sleeps_on_its_column_interrupts(mpy):
    """With every key up nothing is scanned: rows low, interrupts armed on the columns;
    a key going down wakes the scan, which reports it and goes back to sleep."""
    out = json.loads(mpy(IDLE))
    assert out == {"armed": True, "reads_while_idle": 0, "scanning": True, "key": ["5", False],
                   "armed_again": True, "rows_high_after_cancel": True,
                   "disarmed_after_cancel": True}


STEADY = MATRIX + r'''
import asyncio


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    m.press(12, True)  # "*" goes down and stays
    await asyncio.sleep_ms(100)  # settled by now
    reads = m.col_reads
    await asyncio.sleep_ms(300)
    scans = (m.col_reads - reads) // 8  # each column at rest, then "*"'s once a row
    m.press(5, True)  # "5" tapped for 50 ms while "*" is held
    await asyncio.sleep_ms(50)
    m.press(5, False)
    await asyncio.sleep_ms(60)
    m.press(12, False)
    keys = []
    for _ in range(2):
        keys.append(await asyncio.wait_for_ms(k.get(), 1000))
    task.cancel()
    print(json.dumps({"scans": scans, "keys": keys}))

asyncio.run(main())
'''


def test_a_key_held_steady_is_scanned_less_often_and_a_tap_meanwhile_counts(mpy):
    """A scan costs the chip a wake-up: while the keys down are settled it runs every 20 ms
    (300 ms: 15 scans, not the 30 of a settling key's 10 ms), and a press as long as the
    debounce asks for is still seen."""
    out = json.loads(mpy(STEADY))
    assert 5 <= out["scans"] <= 17, out
    assert out["keys"] == [["undo", False], ["5", False]]  # in the order they went down


BUSY = MATRIX + r"""
import asyncio, time


def busy(ms):
    # the chip at work (a frame, a journal write): no task runs, the handlers do
    t = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t) < ms:
        pass


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    busy(20)
    m.press(5, True)  # "5" tapped 100 ms while the chip is busy, then "6"
    busy(100)
    m.press(5, False)
    busy(80)
    m.press(6, True)
    busy(100)
    m.press(6, False)
    busy(100)
    await asyncio.sleep_ms(100)
    m.press(12, True)  # "*" held 750 ms, the chip busy for its first 700
    busy(700)
    await asyncio.sleep_ms(50)
    m.press(12, False)
    await asyncio.sleep_ms(100)
    m.press(12, True)  # and held 750 ms, the chip busy all along
    busy(750)
    m.press(12, False)
    busy(50)
    keys = []
    while k._head != k._tail or not keys:
        keys.append(await asyncio.wait_for_ms(k.get(), 1000))
    await asyncio.sleep_ms(100)
    while k._head != k._tail:
        keys.append(await k.get())
    task.cancel()
    print(json.dumps(keys))

asyncio.run(main())
"""


def test_keys_pressed_while_the_chip_is_busy_count_and_a_long_press_is_redo(mpy):
    """A column's interrupt samples the matrix between two bytecodes of whatever the chip is
    busy with: taps the scan task never sees are presses, in order, and a 750 ms press is a
    long press (undo held: redo) however little of it the scan task saw."""
    assert json.loads(mpy(BUSY)) == [["5", False], ["6", False], ["undo", True], ["undo", True]]


EDGE_IN_SCAN = MATRIX + r"""
import time

col3, plain, hooks = m.cols[3], m.cols[3].value, []


def read_then_hook(x=None):
    level = plain(x)
    if x is None and hooks:
        hooks.pop()()
    return level


col3.value = read_then_hook
for col in m.cols:
    col.irq(k._on_edge, col.IRQ_FALLING | col.IRQ_RISING)  # as the scan task arms them
hooks.append(lambda: m.press(5, True))  # "5" goes down just after its column was read
k.scan()
t = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t) < 100:  # the chip busy: no scan
    pass
m.press(5, False)  # released meanwhile: its interrupt's handler samples
k.scan()
out = []
while k._head != k._tail:
    out.append(k.names[k._ring[k._head % len(k._ring)]])
    k._head = (k._head + 1) % (2 * len(k._ring))
print(json.dumps(out))
"""


def test_a_key_pressed_while_a_scan_reads_the_matrix_is_not_lost(mpy):
    """Its interrupt comes while the pass runs (the handler leaves the sample to it): the
    pass reads again before it ends, and the tap counts however late the next scan is."""
    assert json.loads(mpy(EDGE_IN_SCAN)) == ["5"]


def test_hello_counts_the_presses_queued_lost_and_handled(frames, board):
    before = frames.ok("hello")["keys"]
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    for key in "5#":
        board.press(key, ms=60, gap=60)
    settle(frames, 5)
    after = frames.ok("hello")["keys"]
    assert after["registered"] - before["registered"] == 2
    assert after["handled"] - before["handled"] == 2
    assert after["refused"] == before["refused"] == 0


FULL_QUEUE = MATRIX + r'''
for _ in range(32):
    k.inject("1")  # the queue is full: nobody takes keys meanwhile
timeline = [(0, 5, True), (100, 5, False)]
''' + RUN + r'''
print(json.dumps([k.registered, k.refused, k.handled, len(out)]))
'''


def test_a_press_into_a_full_queue_is_counted_as_lost(mpy):
    registered, refused, handled, taken = json.loads(mpy(FULL_QUEUE).strip().splitlines()[-1])
    assert (registered, refused) == (32, 1), "the 32 queued keys, and the press that found no room"
    assert taken == 32 and handled == 0, "RUN takes the ring by hand, not through get()"


HELD_THROUGH_A_BOUNCE = MATRIX + r'''
# "5" held from 0 to 300 ms, scanned every 20 ms while steady; at 99 its contact opens for
# 3 ms: the column's handler samples at the opening, the scan task's next pass 1 ms later
# agrees, and neither has seen the contact closed since the pass at 80
events = [(0, 5, True), (99, 5, False), (102, 5, True), (300, 5, False)]
scans = list(range(0, 100, 20)) + [99, 100] + list(range(110, 400, 10))
scans.sort()
i = 0
for t in scans:
    while i < len(events) and events[i][0] <= t:
        m.down[events[i][1]] = 1 if events[i][2] else 0
        i += 1
    k.scan(t)
''' + DRAIN


def test_a_held_key_whose_contact_opens_for_a_few_ms_is_one_press(mpy):
    """Two samples 1 ms apart agree on a level only just seen: the change must also have
    lasted the settle time, or a bounce of a held key is a release and a second press."""
    assert json.loads(mpy(HELD_THROUGH_A_BOUNCE)) == [["5", 0]]
