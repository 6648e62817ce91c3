"""One direction of the virtual board's serial line: bytes pushed in come out of take() as
a real line delivers them, some dropped or corrupted (seeded, so a failing run replays) and,
with a baud rate, no faster than 10 bits a byte (8N1).
"""
import random

LATE_AFTER = 0.005  # s: a taker later than this finds the line paused (a busy host), no burst


class Line:
    def __init__(self, never_forge=b"", slack=LATE_AFTER):
        """slack: how far (s) a taker may be late before the line counts as paused."""
        self._never_forge = set(never_forge)  # bytes corruption must not create
        self._queue = bytearray()
        self._slack = slack
        self._next = 0.0  # when the line can start the next byte
        self.began = 0.0  # when the first byte take() gave began to cross
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

    def take(self, now: float) -> bytes:
        """The bytes that have crossed the line by `now` (s). A taker later than the slack
        finds that the line paused meanwhile: no burst its receiver could never have met."""
        if not self._queue:
            return b""
        n = len(self._queue)
        if self.baud is not None:
            per_byte = self.byte_time
            start = max(self._next, now - self._slack)
            if self._idle:  # an idle line does not bank time for a later burst
                start = max(start, now)
            self._next = self.began = start
            n = min(n, int((now - start) / per_byte + 1e-9) + 1 if now >= start else 0)
            self._idle = False
            self._next += n * per_byte
        out = bytes(self._queue[:n])
        del self._queue[:n]
        return out

    def pending(self) -> int:
        return len(self._queue)

    def wait(self, now: float):
        """Seconds until take() has more to give; None when nothing is queued."""
        if not self._queue:
            return None
        return 0.0 if self.baud is None else max(0.0, self._next - now)
