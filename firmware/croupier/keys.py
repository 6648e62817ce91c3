# The 4x4 key matrix: rows are driven low one at a time, pressed keys pull their column low.
# Each key is debounced on its own (a change counts once two samples in a row agree and the
# old level has not been seen for DEBOUNCE_MS), so fast typing with overlapping presses loses
# nothing. A short press is reported on release, a long press once when HOLD_MS has passed
# (its release is then swallowed). Keys wait in a preallocated ring; the scan loop allocates
# nothing. A scan reads the pins into a bit mask (row by row only the columns that read low
# at rest: on a chip each pin read is a call, and most keys are up) and spends bytecode only
# on the keys that are changing, settling or waiting for their hold. It runs every SETTLE_MS
# while a key is settling, every STEADY_MS while keys are held steady (a press stable that
# long is still seen: the debounce asks for DEBOUNCE_MS anyway), as each scan costs the chip
# a wake-up.
# Between scans all rows are driven low and every column's pin interrupt is armed, both
# edges: with every key up and settled nothing is scanned until a key goes down, so an idle
# keypad costs no CPU. And the interrupt's handler samples the matrix itself: it is
# scheduled, so it runs between two bytecodes of whatever the chip is busy with. A key
# pressed and released during a long piece of work (a screen loading, a journal write),
# which the scan task never sees, is still sampled at both ends, and a key seen down and
# next seen up DEBOUNCE_MS or more later counts as a press. That also lets the scans wait
# while a request arrives on the serial line (hold): the reader needs the chip then. A
# handler that cuts into the reader's console read leaves its sample until the bytes read
# are held (sample_owed): sampled there, it would keep the next read waiting.
from micropython import const
import asyncio
import time

SETTLE_MS = const(10)  # between scans while a key is settling
STEADY_MS = const(20)  # between scans while the keys down are settled
DEBOUNCE_MS = const(20)
HOLD_MS = const(600)
RING = const(32)  # queued keys; a full ring refuses more (the link answers `busy`)
FRESH_MS = const(2)  # a sample this recent (an edge's handler took it) stands for the task's

# Logical key of each printed label (docs/protocol.md "Logical keys").
LOGICAL = {"*": "undo", "#": "ok", "A": "a", "B": "b", "C": "c", "D": "menu"}

_UP = const(0)
_DOWN = const(1)
_HELD = const(2)  # down, and the long press has been reported
_TORN = const(1 << 29)  # in a sample: a contact changed while it was read (above any key)


class Keypad:
    """Scans the matrix (rows: output pins, cols: pulled-up inputs, labels row-major)."""

    def __init__(self, rows, cols, labels):
        self._rows = rows
        self._cols = cols
        self._rest()  # a scan starts from the rows at rest
        self.names = tuple(LOGICAL.get(label, label) for label in labels)
        n = len(labels)
        self._state = bytearray(n)  # _UP, _DOWN or _HELD: the debounced state
        self._pending = bytearray(n)  # samples in a row that differ from the state
        self._since = [0] * n  # when the settled level was last seen (kept while it matters)
        self._down = 0  # bit per key: its debounced state is down (_DOWN or _HELD)
        self._busy = 0  # bit per key: settling (pending), or _DOWN with its hold time to come
        self._settling = 0  # bit per key: settling (pending)
        self._last_scan = 0  # when the last scan ran: the settled level's last sighting
        self._sampled = 0  # keys the last sample read down: their columns read low at rest
        self._pressed_at = [0] * n
        self._seen_at = [0] * n  # when a key was first seen at the level it now differs at
        # each column's keys (labels row-major), as bits
        self._column_keys = [sum(1 << k for k in range(c, n, len(cols))) for c in range(len(cols))]
        self._ring = bytearray(RING)  # key index
        self._ring_hold = bytearray(RING)
        self._head = 0  # next to read
        self._count = 0
        self._ready = asyncio.Event()
        self._pressed = asyncio.ThreadSafeFlag()  # set by a column's interrupt
        self._on_edge = self._edge  # bound once: the interrupt handler allocates nothing
        self._in_use = False  # the scan task scans or a key is injected: an edge leaves its
        # sample to the task (the handler may run in the middle of either)
        self._in_edge = False  # the handler samples: a press it finds waits for the task
        self._owed = False  # to wake get(): an asyncio.Event is not set from a handler
        self.hold = None  # () -> True while the scans should wait (the link: a request is
        # arriving, and the reader needs the chip); the edges' handler still samples every change
        self.between_scans = None  # called before and after each scan (the link takes in
        # its input: on a busy chip a scan may be all that runs between two of the reader's
        # turns, and a request seen beginning holds the scan)
        self.beside_edges = None  # called before and after the edges' handler samples (the
        # link moves its input aside: handlers run back to back, between two bytecodes of
        # anything, a burst of edges as long as the receive buffer lasts); False before: not
        # now, the handler cut into the link's read (the sample waits for sample_owed())
        self._owes_sample = False  # an edge's sample waits for sample_owed()
        self._edge_in_scan = False  # a column's interrupt came while a pass ran
        # Counts for the link's `hello`: presses queued (from the matrix or the link), the
        # matrix's presses lost to a full queue, and presses the UI took from the queue.
        self.registered = self.refused = self.handled = 0

    def inject(self, key, hold=False):
        """Queue a logical key as if pressed on the matrix. ValueError for an unknown key;
        OverflowError when the queue is full."""
        try:
            index = self.names.index(key)
        except ValueError:
            raise ValueError("unknown key %r" % (key,))
        self._in_use = True
        try:
            pushed = self._push(index, hold)
        finally:
            self._in_use = False
        if not pushed:
            raise OverflowError("key queue full")

    def _push(self, index, hold):
        if self._count >= RING:
            return False
        self.registered += 1
        slot = (self._head + self._count) % RING
        self._ring[slot] = index
        self._ring_hold[slot] = 1 if hold else 0
        self._count += 1
        if self._in_edge:
            self._owed = True
        else:
            self._ready.set()
        return True

    def _press(self, index, hold):
        if not self._push(index, hold):
            self.refused += 1

    async def get(self):
        """The next key as (logical name, hold)."""
        await self.waiting()
        return self.take()

    async def waiting(self):
        """Until a key waits in the queue."""
        while not self.queued():
            self._ready.clear()
            await self._ready.wait()

    def queued(self):
        """Whether a key waits in the queue."""
        return self._count > 0

    def take(self):
        """The next key as (logical name, hold); None when none waits."""
        if not self.queued():
            return None
        slot = self._head
        self._head = (slot + 1) % RING
        self._count -= 1
        self.handled += 1
        return self.names[self._ring[slot]], bool(self._ring_hold[slot])

    def scan(self, now=None):
        """One pass over the matrix at time now (ms ticks), by default the time the pins
        were read: taken after the reading, so that a pause before it (a handler that ran
        first, the chip's work) cannot make a key's new level look younger than it is. The
        pass itself only reads the pins into a bit mask: a key costs bytecode of its own
        only while it differs from its debounced level, is settling, or is down and waiting
        for its hold time. A column's interrupt that came after the pins were checked (the
        handler leaves its sample to the pass) has the columns read again at its end, and
        the pass made again if one changed: while a request arrives no other pass may come
        before the key is up again."""
        self._in_use = True
        while True:
            self._edge_in_scan = False
            sample = self._sample()
            if sample & _TORN:  # a contact changed while the pins were read
                sample = self._sample() & ~_TORN
            self._sampled = sample
            at = time.ticks_ms() if now is None else now
            work = (sample ^ self._down) | self._busy
            k = 0
            while work:
                if work & 1:
                    self._track(k, sample >> k & 1, at)
                work >>= 1
                k += 1
            self._last_scan = at
            if not self._changed_since(sample):
                break
        self._in_use = False

    def _changed_since(self, sample):
        """Whether a contact changed after the pass checked its pins: a column's interrupt
        came meanwhile and a column at rest reads other than `sample` says. It looks again
        as long as interrupts come while it looks."""
        while self._edge_in_scan:
            self._edge_in_scan = False
            if self._torn(sample):
                return True
        return False

    def _sample(self):
        """-> bit k set: key k reads down; _TORN too when a contact changed meanwhile. The
        rows are low at rest, so the columns read first tell which of them have a key down:
        only those are read row by row (a key up costs no read; all up, no row is driven).
        The rows are left low. Then each column must read what the sample says of its keys,
        else one of them changed after it was read (its interrupt came while the scan held
        the handler off)."""
        rows, cols = self._rows, self._cols
        n = len(cols)
        low = 0  # columns with a key down
        for c in range(n):
            if not cols[c].value():
                low |= 1 << c
        sample = 0
        if low:
            for row in rows:
                row.value(1)
            base = 0
            for row in rows:
                row.value(0)
                for c in range(n):
                    if low >> c & 1 and not cols[c].value():
                        sample |= 1 << (base + c)
                row.value(1)
                base += n
            self._rest()
            # The edges those row drives raised have had their handlers run (each at the
            # next jump): a handler from now on is a contact's own change.
            self._edge_in_scan = False
        return sample | _TORN if self._torn(sample) else sample

    def _torn(self, sample):
        """Whether a column at rest reads other than `sample` says of its keys: one of them
        changed after it was read."""
        cols, keys = self._cols, self._column_keys
        for c in range(len(cols)):
            if (cols[c].value() == 0) != (sample & keys[c] != 0):
                return True
        return False

    def _rest(self):
        """Every row low, as between scans: a key going down pulls its column low."""
        for row in self._rows:
            row.value(0)

    def _track(self, k, down, now):
        """Debounce key k; keeps its bits in _down, _busy and _settling up to date."""
        if down == (self._state[k] != _UP):  # at its settled level
            if self._pending[k] and time.ticks_diff(now, self._seen_at[k]) >= DEBOUNCE_MS:
                # Seen at the other level once, DEBOUNCE_MS or more ago, and not sampled
                # since: the scans were held up (the chip was busy) and only the edges'
                # samples saw the key change and change back. Both changes count.
                at = self._seen_at[k]
                self._settle(k, not down, at)
                self._pending[k] = 1  # the change back, seen once now
                self._since[k] = at
                self._seen_at[k] = now
            else:
                self._pending[k] = 0
                self._since[k] = now  # the last sample at the settled level
        else:
            seen = self._pending[k] + 1
            if seen == 1:  # the scan before this one saw the settled level last
                self._since[k] = self._last_scan
                self._seen_at[k] = now
            self._pending[k] = seen if seen < 255 else 255
            # Two samples in a row, and DEBOUNCE_MS since the old level was last seen: a
            # scan delayed by a busy loop still counts the time the key really was stable.
            if seen >= 2 and time.ticks_diff(now, self._since[k]) >= DEBOUNCE_MS:
                self._pending[k] = 0
                self._since[k] = now
                self._settle(k, down, now)
        state = self._state[k]
        if state == _DOWN and time.ticks_diff(now, self._pressed_at[k]) >= HOLD_MS:
            self._state[k] = state = _HELD
            self._press(k, True)
        bit = 1 << k
        if self._pending[k]:
            self._settling |= bit
        else:
            self._settling &= ~bit
        if self._pending[k] or state == _DOWN:
            self._busy |= bit
        else:
            self._busy &= ~bit

    def _settle(self, k, down, at):
        """Key k's debounced level changes at time at; a short press is reported on release."""
        bit = 1 << k
        if down:
            self._state[k] = _DOWN
            self._pressed_at[k] = at
            self._down |= bit
        else:
            if self._state[k] == _DOWN:
                self._press(k, False)
            self._state[k] = _UP
            self._down &= ~bit

    def _edge(self, pin):
        """A column's interrupt: sample the matrix now, unless the task is scanning (its scan
        reads again if a contact changed meanwhile), then wake the scan task. Not when the
        column reads as the last sample left it at rest: a sample drives the rows, and with a
        key down each row it drives moves that key's column. Those edges' interrupts come
        while it runs, or, when this handler ran it, right after (one handler at a time):
        sampling for each of them would never end while a key is down."""
        if not self._in_use:
            sampled_low = self._sampled & self._column_keys[self._cols.index(pin)]
            if (pin.value() == 0) == bool(sampled_low):
                return  # a sample's own edge (or a contact that changed and changed back)
            self._sample_beside()
        else:
            self._edge_in_scan = True  # the pass looks again before it ends
            self._pressed.set()

    def _sample_beside(self):
        """Sample the matrix with the link's input moved aside before and after (beside_edges),
        then wake the scan task; unless the link cannot move it now (the handler cut into a
        console read): the sample then waits for sample_owed()."""
        beside = self.beside_edges
        if beside is not None and not beside():
            self._owes_sample = True
            return
        self._in_edge = True
        self.scan()
        self._in_edge = False
        if beside is not None:
            beside()
        self._pressed.set()

    def sample_owed(self):
        """Take the sample an edge's handler left (it cut into a console read, whose bytes are
        held now: the link calls this after each read)."""
        if self._owes_sample:
            self._owes_sample = False
            self._sample_beside()

    def _idle(self):
        return not (self._down | self._busy)

    async def run(self):
        """Scan while a key is down or settling, else sleep until one goes down. The rows go
        back high and the interrupts off however this ends, a cancel included."""
        rows, cols = self._rows, self._cols
        self._rest()
        for col in cols:
            col.irq(self._on_edge, col.IRQ_FALLING | col.IRQ_RISING)
        try:
            while True:
                if self._idle():
                    await self._until_pressed()
                if self.between_scans is not None:
                    self.between_scans()
                if (time.ticks_diff(time.ticks_ms(), self._last_scan) >= FRESH_MS
                        and not (self.hold is not None and self.hold())):
                    self.scan()
                if self._owed:
                    self._owed = False
                    self._ready.set()
                if self.between_scans is not None:
                    self.between_scans()
                await asyncio.sleep_ms(SETTLE_MS if self._settling else STEADY_MS)
        finally:
            for col in cols:
                col.irq(None)
            for row in rows:
                row.value(1)

    async def _until_pressed(self):
        """Sleep until a column's interrupt: at rest the rows are low, so a key going down
        pulls its column low."""
        self._pressed.clear()  # then look: an edge from now on sets it again
        if self._owed or not self._idle():  # a handler sampled a key meanwhile
            return
        for col in self._cols:
            if not col.value():  # down already: its edge may have come before the clear
                return
        await self._pressed.wait()
