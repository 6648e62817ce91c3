"""One direction of the virtual board's serial line: faults and a baud-rate limit.

Bytes pushed in come out of take() as a real line would deliver them: some dropped or
corrupted (each with its probability, from a seeded generator, so a failing run can be
replayed) and, with a baud rate set, no faster than 10 bits per byte (8N1).
"""
import random


class Line:
    def __init__(self, never_forge=b""):
        self._never_forge = set(never_forge)  # bytes corruption must not create
        self._queue = bytearray()
        self._next = 0.0  # when the line can start the next byte
        self._idle = True
        self.late = False  # the last take() gave bytes due well before it (the taker was late)
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

    def push(self, data: bytes):
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

    def take(self, now: float, late_after: float = 0.005) -> bytes:
        """The bytes that have crossed the line by `now` (monotonic seconds). `late` tells
        whether the first of them was due more than late_after seconds before now."""
        self.late = False
        if not self._queue:
            return b""
        if self.baud is None:
            n = len(self._queue)
        else:
            self.late = not self._idle and now - self._next > late_after
            per_byte = 10.0 / self.baud
            if self._idle:  # an idle line does not bank time for a later burst
                self._next = max(self._next, now)
                self._idle = False
            started = int((now - self._next) / per_byte + 1e-9) + 1  # bytes begun by now
            n = min(len(self._queue), started) if now >= self._next else 0
            self._next += n * per_byte
        out = bytes(self._queue[:n])
        del self._queue[:n]
        return out

    def hold(self, data: bytes):
        """Put bytes back at the head of the line: they cross it again from now on, as if
        the sender had paused (the taker could not take them in time)."""
        self._queue[:0] = data
        self._idle = True

    def wait(self, now: float):
        """Seconds until take() has more to give; None when nothing is queued."""
        if not self._queue:
            return None
        return 0.0 if self.baud is None else max(0.0, self._next - now)
