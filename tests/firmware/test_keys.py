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
out = []
while k._count:
    slot = k._head
    k._head = (slot + 1) % len(k._ring)
    k._count -= 1
    out.append([k.names[k._ring[slot]], k._ring_hold[slot]])
print(json.dumps(out))
'''


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


BESIDE_EDGES = MATRIX + r'''
import asyncio

hooked = []


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    k.beside_edges = lambda: hooked.append(m.col_reads) or True  # the link moves its input aside
    m.press(5, True)  # "5" goes down: its edge's handler samples the matrix
    task.cancel()
    await asyncio.sleep_ms(10)
    print(json.dumps(hooked))

asyncio.run(main())
'''


def test_the_edges_handler_lets_the_link_take_its_input_before_and_after_it_samples(mpy):
    """The handler runs between two bytecodes of anything, bursts of edges back to back:
    beside_edges runs before and after each of its samples. A sample with one key down
    reads each column at rest, that key's column once a row, and each column again."""
    before, after = json.loads(mpy(BESIDE_EDGES).strip().splitlines()[-1])
    assert after - before == 4 + 4 + 4


CUT_INTO_A_READ = MATRIX + r'''
import asyncio

hooked = []
reading = [True]  # the handler cuts into the link's console read: no input can move now


def beside():
    hooked.append((reading[0], m.col_reads))
    return not reading[0]


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    k.beside_edges = beside
    m.press(5, True)  # "5" goes down during the read
    unsampled = k._sampled  # the keys the last sample read down: none yet
    reading[0] = False  # the read's bytes are held
    k.sample_owed()
    k.sample_owed()  # nothing is owed any more
    await asyncio.sleep_ms(80)  # held: the scan task's scans see it too
    m.press(5, False)
    key = await asyncio.wait_for_ms(k.get(), 1000)
    task.cancel()
    await asyncio.sleep_ms(10)
    print(json.dumps({"hooked": hooked[:3], "unsampled": unsampled, "key": key}))

asyncio.run(main())
'''


def test_an_edge_that_cuts_into_the_links_read_samples_once_the_read_is_held(mpy):
    """The handler can cut into the link's console read, whose bytes are not held yet: a
    sample there would keep the next read waiting (on the virtual board, paced, up to 35 ms
    of the chip's time, beyond the receive buffer). beside_edges says not now; the handler
    reads nothing and leaves its sample to sample_owed(), which the link calls after the
    read, and which samples once, with the input moved aside before and after."""
    out = json.loads(mpy(CUT_INTO_A_READ).strip().splitlines()[-1])
    assert out["unsampled"] == 0
    (refused, at), (before, start), (after, end) = out["hooked"]
    assert (refused, before, after) == (True, False, False)
    assert end - start == 4 + 4 + 4  # a whole sample with "5" down, between the two
    assert out["key"] == ["5", False]


LATE_CHANGE = MATRIX + r'''
reads, plain = [0], Line.value


def value(self, x=None):
    level = plain(self, x)
    if x is None and self.kind == "col":
        reads[0] += 1
        if reads[0] == AT:  # "5" goes down right after this read: its handler runs in the pass
            m.press(5, True)
    return level


Line.value = value
for col in m.cols:
    col.irq(k._on_edge, Line.IRQ_FALLING | Line.IRQ_RISING)
k.scan(0)
print(json.dumps({"sampled": k._sampled, "reads": reads[0]}))
'''


def test_a_contact_that_changes_as_the_pass_checks_its_pins_is_sampled_by_that_pass(mpy):
    """With every key up a pass reads the columns at rest, then checks them again. A key
    going down after its column was checked (its interrupt's handler, run during the pass,
    leaves the sample to it) has the pass look again and sample it: while a request
    arrives the task makes no other pass, and the key would be up before the next edge."""
    for at in (5, 8):  # the check's read of column 0, and its last read (column 3)
        out = json.loads(mpy(LATE_CHANGE.replace("AT", str(at))).strip().splitlines()[-1])
        assert out["sampled"] == 1 << 5, (at, out)


OWN_EDGES = MATRIX + r'''
pending = []  # columns whose interrupt waits for the handler running now to return
plain = Line.value

def value(self, x=None):
    """A row driven moves every column a pressed key joins it to: an edge, an interrupt."""
    if x is None or self.kind != "row":
        return plain(self, x)
    before = [c.value() for c in m.cols]
    plain(self, x)
    for c in range(4):
        if before[c] != m.cols[c].value() and m.handlers[c]:
            pending.append(c)

Line.value = value
scans = []
sample = k.scan
k.scan = lambda now=None: scans.append(1) or sample(now)
for col in m.cols:
    col.irq(k._on_edge, Line.IRQ_FALLING | Line.IRQ_RISING)
m.press(5, True)  # "5" goes down: its edge's handler samples, driving the rows
handled = 0
while pending and handled < 50:  # one handler at a time, as the scheduler runs them
    c = pending.pop(0)
    m.handlers[c](m.cols[c])
    handled += 1
m.press(5, False)  # and up: sampled again
print(json.dumps([len(scans), handled, len(pending)]))
'''


def test_the_edges_a_sample_raises_as_it_drives_the_rows_start_no_sample(mpy):
    """With a key down, each row the edges' handler drives moves that key's column: on a
    chip those edges' interrupts run right after the handler (one at a time). Sampling for
    each of them would sample again, and again, as long as the key stays down."""
    samples, own_edges, left = json.loads(mpy(OWN_EDGES).strip().splitlines()[-1])
    assert own_edges == 4  # rows up, its row down and up again, rows back at rest
    assert (samples, left) == (2, 0)  # the press and the release


# The keys queued until none comes for 300 ms, printed; then the scan task is cancelled.
PRINT_KEYS = r'''
import asyncio

async def print_keys(task):
    keys = []
    try:
        while True:
            keys.append(await asyncio.wait_for_ms(k.get(), 300))
    except asyncio.TimeoutError:
        pass
    task.cancel()
    print(json.dumps(keys))
'''

BUSY = MATRIX + PRINT_KEYS + r'''
import time

def busy(ms):
    """The chip busy in one piece of work (a screen loading): no task runs meanwhile."""
    t = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t) < ms:
        pass

def tap(key, ms, then):
    m.press(key, True)
    busy(ms)
    m.press(key, False)
    busy(then)

async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    busy(30)
    # all while busy: "5" tapped twice (80 ms, 60 ms apart), "6" for 10 ms (a glitch),
    # "*" held 700 ms (a long press: redo)
    tap(5, 80, 60)
    tap(5, 80, 30)
    tap(6, 10, 30)
    tap(12, 700, 30)
    await print_keys(task)

asyncio.run(main())
'''


def test_keys_tapped_while_the_chip_is_busy_count_and_a_glitch_does_not(mpy):
    """No scan runs while the app works through something long; the columns' interrupts
    sample the matrix at each edge instead."""
    assert json.loads(mpy(BUSY)) == [["5", False], ["5", False], ["undo", True]]


TORN = MATRIX + r'''
read = Line.value

def value(line, x=None):  # "1" (column 0) goes down once column 0 has been read
    if x is None and m.col_reads == 1:
        m.down[0] = 1
    return read(line, x)

Line.value = value
k.scan(100)  # the one sample while "1" is down: the chip busy, its interrupt seen mid-scan
m.down[0] = 0
k.scan(200)  # the next: up again
k.scan(230)  # and its release confirmed
print(json.dumps([k.names[k._ring[0]]] if k._count else []))
'''


def test_a_contact_that_changes_while_the_pins_are_read_is_read_again(mpy):
    assert json.loads(mpy(TORN)) == ["1"]


PAUSED = MATRIX + PRINT_KEYS + r'''
import time

read = Line.value
pause = []


def value(line, x=None):  # the chip stops just before the scan task reads the pins
    if x is None and pause:
        pause.pop()
        time.sleep_ms(40)
        m.down[5] = 0  # and "5" has come back up meanwhile
    return read(line, x)


Line.value = value


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    m.press(5, True)  # its interrupt samples "5" down
    pause.append(1)
    await print_keys(task)

asyncio.run(main())
'''


def test_a_scan_held_up_just_before_it_reads_the_pins_still_sees_the_press(mpy):
    """The task's scan is stopped (on the virtual board, by the pacer) right before it
    reads the pins, and the key it last saw go down is up by then: the scan's time is that
    of its reading, so the key was down long enough to count."""
    assert json.loads(mpy(PAUSED)) == [["5", False]]


STEADY = MATRIX + r'''
import asyncio

hooked = []
k.between_scans = lambda: hooked.append(m.col_reads)  # the link takes in its input


async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    idle_hooks = len(hooked)
    m.press(12, True)  # "*" goes down and stays
    await asyncio.sleep_ms(100)  # settled by now
    reads, hooks = m.col_reads, len(hooked)
    await asyncio.sleep_ms(300)
    scans = (m.col_reads - reads) // 12  # each column at rest, "*"'s once a row, each again
    hooks = len(hooked) - hooks
    m.press(5, True)  # "5" tapped for 50 ms while "*" is held
    await asyncio.sleep_ms(50)
    m.press(5, False)
    await asyncio.sleep_ms(60)
    m.press(12, False)
    keys = []
    for _ in range(2):
        keys.append(await asyncio.wait_for_ms(k.get(), 1000))
    task.cancel()
    print(json.dumps({"scans": scans, "keys": keys, "idle_hooks": idle_hooks,
                      "hooks_around_scans": abs(hooks - 2 * scans) <= 2}))

asyncio.run(main())
'''


def test_a_key_held_steady_is_scanned_less_often_and_a_tap_meanwhile_counts(mpy):
    """A scan costs the chip a wake-up: while the keys down are settled it runs every 20 ms
    (300 ms: 15 scans, not the 30 of a settling key's 10 ms), and a press as long as the
    debounce asks for is still seen. Before and after each scan, and only then,
    between_scans runs (the link takes in its input: a request seen beginning holds the
    scan)."""
    out = json.loads(mpy(STEADY))
    assert 5 <= out["scans"] <= 17, out
    assert out["keys"] == [["5", False], ["undo", False]]
    assert out["idle_hooks"] == 0 and out["hooks_around_scans"], out


HELD = MATRIX + PRINT_KEYS + r'''
receiving = [True]
k.hold = lambda: receiving[0]
quiet_reads = []

async def main():
    task = asyncio.create_task(k.run())
    await asyncio.sleep_ms(50)
    for key in (5, 6):  # tapped while a request arrives
        m.press(key, True)  # its edge's handler samples the matrix
        reads = m.col_reads
        await asyncio.sleep_ms(80)
        quiet_reads.append(m.col_reads - reads)
        m.press(key, False)
        await asyncio.sleep_ms(60)
    receiving[0] = False
    m.press(12, True)  # held past the long press's 600 ms once the line is quiet
    await asyncio.sleep_ms(700)
    m.press(12, False)
    await print_keys(task)
    print(json.dumps(quiet_reads))

asyncio.run(main())
'''


def test_while_the_scans_are_held_the_edges_still_count_each_tap(mpy):
    """While a request arrives (hold() is true) the scan task reads no pin: its scans
    could take the chip's time the reader needs. A tap meanwhile still counts, sampled by
    its edges' handler, and the scans go on once the hold is over (a long press)."""
    keys, quiet_reads = [json.loads(line) for line in mpy(HELD).strip().splitlines()[-2:]]
    assert quiet_reads == [0, 0]
    assert keys == [["5", False], ["6", False], ["undo", True]]


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
