"""One direction of the virtual board's serial line: faults and a baud-rate limit.

Bytes pushed in come out of take() as a real line would deliver them: some dropped or
corrupted (each with its probability, from a seeded generator, so a failing run can be
replayed) and, with a baud rate set, no faster than 10 bits per byte (8N1) by each of the
clocks the line keeps: the host's, and a paced board's own (pace.ChipClock) on the line
into it.
"""
import collections
import random


LATE_AFTER = 0.005  # s: the host's clock. A taker later than this finds the line paused


class Line:
    def __init__(self, never_forge=b"", slack=(LATE_AFTER,), lead=0.0):
        """slack: for each clock the line keeps, how far (s) its schedule may fall behind
        that clock's reading before the line counts as paused (no burst to catch up).
        lead: how long (s) before it is due by every clock take() gives a byte."""
        self._never_forge = set(never_forge)  # bytes corruption must not create
        self._queue = bytearray()
        self._slack = slack
        self._lead = lead
        self._next = [0.0] * len(slack)  # by each clock, when the line can start the next byte
        self.began = [0.0] * len(slack)  # by each clock, when the first byte take() gave is due to begin
        self._idle = True
        self.configure()

    def configure(self, drop=0.0, corrupt=0.0, baud=None, seed=None):
        for name, p in (("drop", drop), ("corrupt", corrupt)):
            if not 0.0 <= p <= 1.0:
                raise ValueError("%s probability must be within 0..1, not %r" % (name, p))
        if baud is not None and baud <= 0:
            raise ValueError("baud rate must be positive, not %r" % (baud,))
        self.drop, self.corrupt, self.baud = drop, corrupt, baud
        self._random = random.Random(seed)
        self.dropped = self.corrupted = 0

    @property
    def byte_time(self):
        """Seconds one byte takes on the line (10 bits, 8N1); None without a baud rate."""
        return None if self.baud is None else 10.0 / self.baud

    def push(self, data: bytes):
        if not data:
            return
        if not self._queue:
            self._idle = True
        if not (self.drop or self.corrupt):
            self._queue += data
            return
        rnd = self._random
        for byte in data:
            if self.drop and rnd.random() < self.drop:
                self.dropped += 1
                continue
            if self.corrupt and rnd.random() < self.corrupt:
                byte = self._garble(byte)
                self.corrupted += 1
            self._queue.append(byte)

    def _garble(self, byte):
        while True:
            garbled = byte ^ self._random.randrange(1, 256)
            if garbled not in self._never_forge:
                return garbled

    def take(self, *now: float) -> bytes:
        """The bytes that have crossed the line by `now`, one reading (s) for each clock the
        line keeps. A taker later than a clock's slack (a busy host) finds that the line
        paused meanwhile: it gets the slack's worth, not a burst its receiver could never
        have met."""
        if not self._queue:
            return b""
        n = len(self._queue)
        if self.baud is not None:
            per_byte = self.byte_time
            for i, (reading, slack) in enumerate(zip(now, self._slack)):
                start = max(self._next[i], reading - slack)
                if self._idle:  # an idle line does not bank time for a later burst
                    start = max(start, reading)
                self._next[i] = self.began[i] = start
                ahead = reading + self._lead
                begun = int((ahead - start) / per_byte + 1e-9) + 1 if ahead >= start else 0
                n = min(n, begun)
            self._idle = False
            for i in range(len(self._next)):
                self._next[i] += n * per_byte
        out = bytes(self._queue[:n])
        del self._queue[:n]
        return out

    def pending(self) -> int:
        """Bytes on the line, yet to cross it."""
        return len(self._queue)

    def wait(self, *now: float):
        """Seconds until take() has more to give (by the slowest clock); None when nothing
        is queued."""
        if not self._queue:
            return None
        if self.baud is None:
            return 0.0
        return max(0.0, max(start - reading - self._lead for start, reading in zip(self._next, now)))


class Early:
    """Bytes a line gave before they were due, and when each is due by one clock: for a
    receiver that counts only the bytes due (its buffer cannot overflow with bytes still on
    their way)."""

    def __init__(self):
        self._chunks = collections.deque()  # [when the first is due (s), bytes, s a byte]

    def add(self, first_due, count, per_byte):
        self._chunks.append((first_due, count, per_byte))

    def clear(self):
        self._chunks.clear()

    def pending(self) -> bool:
        """Whether some of the bytes given may not be due yet."""
        return bool(self._chunks)

    def not_due(self, now) -> int:
        """Bytes given that are not due by `now` (s); those all due are forgotten."""
        chunks = self._chunks
        while chunks and chunks[0][0] + (chunks[0][1] - 1) * chunks[0][2] <= now:
            chunks.popleft()
        waiting = 0
        for first, count, per_byte in chunks:
            due = 0 if now < first else int((now - first) / per_byte + 1e-9) + 1
            waiting += count - min(count, due)
        return waiting


class Outbox:
    """Output of a board whose clock may run ahead of the host's (a paced board's burst of
    work), on its way to the line out: each piece goes onto the line once the host's clock
    reaches the chip's time of writing it, in order. A host answering it sooner would reach
    the chip before the chip, by its own clock, had sent what the host answers."""

    def __init__(self):
        self._pieces = collections.deque()  # (s on the host's clock it leaves at, bytes)

    def put(self, data, leaves, now):
        """data written at chip time `leaves` (s), the host's clock at `now`. -> what leaves
        now: data, or b"" while it (or output before it) waits."""
        if not self._pieces and leaves <= now:
            return data
        self._pieces.append((leaves, data))
        return b""

    def due(self, now) -> bytes:
        """What leaves by `now`, in the order it was written."""
        out = bytearray()
        pieces = self._pieces
        while pieces and pieces[0][0] <= now:
            out += pieces.popleft()[1]
        return bytes(out)

    def wait(self, now):
        """Seconds until more leaves; None when nothing waits."""
        return max(0.0, self._pieces[0][0] - now) if self._pieces else None

    def pending(self) -> bool:
        return bool(self._pieces)
