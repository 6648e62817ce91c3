# The 4x4 key matrix: rows are driven low one at a time, pressed keys pull their column low.
# Each key is debounced on its own (a change counts once two samples in a row agree, the
# old level has not been seen for _DEBOUNCE_MS and the new one was first seen _SETTLE_MS
# before), so fast typing with overlapping presses loses nothing while the ring has room.
# A short press is reported on release, a long press once when HOLD_MS has passed (its
# release is then swallowed). Presses are reported in the order the keys were first seen
# down (keys first seen in the same sample, in key-index order): a key takes its place in a
# preallocated ring when it goes down, and get() waits at a place whose press is not decided
# yet (short or long), so a key released while one pressed before it is still down waits
# for that one. The scan allocates nothing. A scan reads the pins into a bit mask (row by
# row only the columns that read low at rest: on a chip each pin read is a call, and most
# keys are up) and spends bytecode only on the keys that are changing, settling or waiting
# for their hold. It runs every _SETTLE_MS while a key is settling, every _STEADY_MS while
# keys are held steady (a press stable that long is still seen: the debounce asks for
# _DEBOUNCE_MS anyway).
# With every key up and settled the rows rest low and every column's pin interrupt (both
# edges) wakes the scan task: an idle keypad costs no CPU. The interrupt's handler is
# scheduled, so it runs between two bytecodes of whatever the chip is busy with, and it
# samples the matrix itself: a key pressed and released while bytecode runs long (a game
# step, between the calls of a frame or a journal write), which the scan task never sees,
# is sampled at both ends. Not inside one long C call (a display transfer, a flash write):
# the handlers wait for it to return, so a tap that begins and ends inside it is not seen.
from micropython import const
import asyncio
import time

_SETTLE_MS = const(10)  # between scans while a key is settling
_STEADY_MS = const(20)  # between scans while the keys down are settled
_DEBOUNCE_MS = const(20)
HOLD_MS = const(600)
RING = const(32)  # queued keys; a full ring refuses more (the link answers `busy`)
_WRAP = const(64)  # the ring's indices count modulo 2 * RING: tail - head is 0..RING

# Logical key of each printed label (docs/protocol.md "Logical keys").
LOGICAL = {"*": "undo", "#": "ok", "A": "a", "B": "b", "C": "c", "D": "menu"}

_UP = const(0)
_DOWN = const(1)
_HELD = const(2)  # down, and the long press has been reported
_UNDECIDED = const(2)  # a ring place whose key is still down: short or long, not known yet
_NO_PLACE = const(255)  # a key down that found the ring full


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
        # each column's keys (labels row-major), as bits
        self._column_keys = [sum(1 << k for k in range(c, n, len(cols))) for c in range(len(cols))]
        self._in_use = False  # a scan or an injected key is under way: an edge's handler,
        # which may run in the middle of either, leaves the sample to the scan task
        self._owed = False  # a handler queued a key: the scan task wakes get() (an
        # asyncio.Event is not set from a handler)
        self._in_edge = False  # the handler samples: a key it queues is owed to get()
        self._edge_in_scan = False  # a column's interrupt came while a pass ran
        self._pressed_at = [0] * n
        self._seen_at = [0] * n  # when a key was first seen at the level it now differs at
        self._ring = bytearray(RING)  # key index
        self._ring_hold = bytearray(RING)  # 0 short, 1 long, _UNDECIDED
        self._place = bytearray(n)  # each key down: its place in the ring, or _NO_PLACE
        # _push (the scan, maybe in a handler, or inject) alone writes _tail, get() alone
        # writes _head: a handler between any two opcodes of get() cannot undo a write
        self._head = 0  # next to read
        self._tail = 0  # next to fill
        self._ready = asyncio.Event()
        self._pressed = asyncio.ThreadSafeFlag()  # set by a column's interrupt
        self._on_edge = self._edge  # bound once: the interrupt handler allocates nothing
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
        place = self._push(index, 1 if hold else 0)
        self._in_use = False
        if place == _NO_PLACE:
            raise OverflowError("key queue full")

    def _push(self, index, hold):
        """Queue key index (hold: 0, 1 or _UNDECIDED) -> its place, or _NO_PLACE (full)."""
        tail = self._tail
        if (tail - self._head) % _WRAP >= RING:
            return _NO_PLACE
        self.registered += 1
        place = tail % RING
        self._ring[place] = index
        self._ring_hold[place] = hold
        self._tail = (tail + 1) % _WRAP  # last: get() sees the place once it is filled
        if hold != _UNDECIDED:
            self._wake()
        return place

    def _wake(self):
        if self._in_edge:
            self._owed = True
        else:
            self._ready.set()

    def _went_down(self, k):
        """Key k went down: its press takes its place in the ring now, decided later."""
        place = self._place[k] = self._push(k, _UNDECIDED)
        if place == _NO_PLACE:
            self.refused += 1

    def _decide(self, k, hold):
        """Key k's press is short (released) or long (held HOLD_MS): get() may take it."""
        place = self._place[k]
        if place != _NO_PLACE:
            self._ring_hold[place] = 1 if hold else 0
            self._place[k] = _NO_PLACE
            self._wake()

    async def get(self):
        """The next key as (logical name, hold), in the order the keys were first seen down."""
        while True:
            head = self._head
            if head != self._tail and self._ring_hold[head % RING] != _UNDECIDED:
                break
            self._ready.clear()
            await self._ready.wait()
        slot = head % RING
        key = self.names[self._ring[slot]], bool(self._ring_hold[slot])
        self._head = (head + 1) % _WRAP  # last: _push may fill the place from now on
        self.handled += 1
        return key

    def scan(self, now=None):
        """One pass over the matrix at time now (ms ticks), by default the time the pins
        were read: taken after the reading, so that a pause before it (the chip's other
        work) cannot make a key's new level look younger than it is. A key costs bytecode
        of its own only while it differs from its debounced level, is settling, or is down
        and waiting for its hold time."""
        self._in_use = True
        again = True
        while again:  # once more if a contact changed after its pins were read
            sample = self._sampled = self._sample()
            at = time.ticks_ms() if now is None else now
            work = (sample ^ self._down) | self._busy
            k = 0
            while work:
                if work & 1:
                    self._track(k, sample >> k & 1, at)
                work >>= 1
                k += 1
            self._last_scan = at
            again = self._changed_since(sample)
        self._in_use = False

    def _changed_since(self, sample):
        """Whether a contact changed after the pass read its pins: a column's interrupt came
        meanwhile (its handler left the sample to the pass) and a column at rest reads other
        than `sample` says. Unread, that change could be a whole tap nobody samples."""
        cols, keys = self._cols, self._column_keys
        while self._edge_in_scan:
            self._edge_in_scan = False
            for c in range(len(cols)):
                if (cols[c].value() == 0) != (sample & keys[c] != 0):
                    return True
        return False

    def _sample(self):
        """-> bit k set: key k reads down. The rows are low at rest, so the columns read
        first tell which of them have a key down: only those are read row by row (a key up
        costs no read; all up, no row is driven). The rows are left low."""
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
            # the edges those row drives raised have had their handlers run (each at the
            # next jump): an edge from now on is a contact's own change
            self._edge_in_scan = False
        return sample

    def _rest(self):
        """Every row low, as between scans: a key going down pulls its column low."""
        for row in self._rows:
            row.value(0)

    def _track(self, k, down, now):
        """Debounce key k; keeps its bits in _down, _busy and _settling up to date."""
        if down == (self._state[k] != _UP):  # at its settled level
            if self._pending[k] and time.ticks_diff(now, self._seen_at[k]) >= _DEBOUNCE_MS:
                # Seen at the other level once, _DEBOUNCE_MS or more ago, and not sampled
                # since: the scans were held up (the chip was busy) while the key changed
                # and changed back. Both changes count.
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
            # Two samples in a row, _DEBOUNCE_MS since the old level was last seen (a scan
            # delayed by a busy loop still counts the time the key really was stable), and
            # _SETTLE_MS since the first sighting: a handler's sample and the pass 1 ms later
            # agree on a bounce of a held key, whose old level was last seen long before.
            if (seen >= 2 and time.ticks_diff(now, self._since[k]) >= _DEBOUNCE_MS
                    and time.ticks_diff(now, self._seen_at[k]) >= _SETTLE_MS):
                self._pending[k] = 0
                self._since[k] = now
                self._settle(k, down, self._seen_at[k])  # a press counts from its first sighting
        state = self._state[k]
        # held for HOLD_MS: up to now, or, seen up, to the release's first sighting
        if state == _DOWN and time.ticks_diff(now if down else self._seen_at[k],
                                              self._pressed_at[k]) >= HOLD_MS:
            self._state[k] = state = _HELD
            self._decide(k, True)
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
            self._went_down(k)
        else:
            if self._state[k] == _DOWN:
                self._decide(k, False)
            self._state[k] = _UP
            self._down &= ~bit

    def _edge(self, pin):
        """A column's interrupt: sample the matrix now, unless a scan or an injected key is
        under way (a scan looks again before it ends), then wake the scan task. Not when the column
        reads as the last sample left it at rest: with a key down, each row a sample drives
        moves that key's column, and sampling for those edges would never end."""
        if not self._in_use:
            sampled_low = self._sampled & self._column_keys[self._cols.index(pin)]
            if (pin.value() == 0) != bool(sampled_low):
                self._in_edge = True
                self.scan()
                self._in_edge = False
        else:
            self._edge_in_scan = True  # the pass looks again before it ends
        self._pressed.set()

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
                self.scan()
                if self._owed:
                    self._owed = False
                    self._ready.set()
                await asyncio.sleep_ms(_SETTLE_MS if self._settling else _STEADY_MS)
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
