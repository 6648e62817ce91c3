"""The speaker on the board's I2S lines (VirtualBoard.audio): each port's DMA memory, drained
at the sample rate in wall time, and a recording of what left it. The board's side is
mpy/_sim_i2s.py; the messages are in croupier.sim.channel.
"""
import time

GAP_KEPT = 0.5  # seconds of silence recorded at most where the line idled between two sounds
STREAM_TICK = 0.05  # while a DMA plays, what left it is taken this often (for live listeners)


class Dma:
    """One port's DMA memory (ibuf bytes) and, behind it, the writes not wholly in it yet:
    two at most (the board drops a third, as the port's queue of one does)."""

    def __init__(self, capacity, frame, byte_rate):
        self.capacity, self.frame, self.byte_rate = capacity, frame, byte_rate
        self.queue = bytearray()  # what is in DMA memory, then the waiting writes' bytes
        self.ends = []  # where each write not yet wholly in DMA memory ends in queue
        self.since = time.monotonic()  # when queue[0] began to play, or the line went quiet

    def take(self, now):
        """-> (the bytes played since the last call, how many writes went wholly into DMA memory)."""
        if not self.queue:  # a quiet line (a port stays on between sounds): no write waits either
            return b"", 0
        n = min(len(self.queue), int((now - self.since) * self.byte_rate) // self.frame * self.frame)
        played = bytes(memoryview(self.queue)[:n])  # one copy (a bytearray slice is one more)
        del self.queue[:n]
        self.since += n / self.byte_rate
        waiting = len(self.ends)
        self.ends = [end - n for end in self.ends if end - n > self.capacity]  # ascending
        return played, waiting - len(self.ends)

    def wait(self, now):
        """Seconds until the oldest waiting write is wholly in DMA memory, or until what
        played is due to listeners; None when nothing plays."""
        if not self.ends:
            return STREAM_TICK if self.queue else None
        frames = -(-(self.ends[0] - self.capacity) // self.frame)
        return min(STREAM_TICK, max(0.0, self.since + frames * self.frame / self.byte_rate - now))


class Audio:
    """What the board's speaker played, for the board's life (16 KB a second at 8 kHz mono).
    pcm() and speaking() are for any thread; the rest run on the board's I/O thread, under its lock."""

    def __init__(self, lock, emit, send_done):
        self._lock, self._emit, self._send_done = lock, emit, send_done
        self._ports = {}  # I2S id -> Dma, while the port is on (TX only)
        self._pcm = bytearray()
        self._ended = 0.0  # when the last sound ended: played out, or cut by its port's turning off
        self.rate, self.bits, self.channels = None, 16, 1  # the last port turned on

    def pcm(self) -> bytes:
        """The samples played so far (little-endian, `bits` each, `channels` interleaved)."""
        with self._lock:
            self.advance()
            return bytes(self._pcm)

    def speaking(self) -> bool:
        """Whether a port's DMA memory holds sound not played yet."""
        with self._lock:
            self.advance()
            return any(dma.queue for dma in self._ports.values())

    def turn_on(self, port, rate, bits, channels, capacity):
        self.turn_off(port)
        self._ports[port] = Dma(capacity, bits // 8 * channels, rate * bits // 8 * channels)
        self.rate, self.bits, self.channels = rate, bits, channels

    def turn_off(self, port=None, keep_dma=False):
        """deinit() (or a reset: every port) drops what the DMA memory holds, never played;
        irq(None) only the writes not yet in it (keep_dma)."""
        self.advance()
        for each in list(self._ports) if port is None else [port]:
            dma = self._ports.get(each)
            if dma and keep_dma:
                del dma.queue[dma.capacity:]
                dma.ends.clear()
            elif dma:
                del self._ports[each]
                if dma.queue:
                    self._ended = time.monotonic()

    def write(self, port, samples, last):
        """A write's bytes (in parts of up to 32 KB: `last` marks its end)."""
        dma = self._ports.get(port)
        if dma is None:
            return  # the board writes to ports it turned on: only a write racing a reset comes here
        self.advance()
        if not dma.queue:  # the line was quiet: the sound starts now
            dma.since = time.monotonic()
            if self._pcm and not any(each.queue for each in self._ports.values()):  # after a pause
                gap = min(GAP_KEPT, dma.since - self._ended)
                self._pcm += bytes(int(gap * dma.byte_rate) // dma.frame * dma.frame)
        dma.queue += samples
        if last:  # its 'A' goes when the I/O loop next advances, as the messages are handled
            dma.ends.append(len(dma.queue))

    def advance(self):
        """Play up to now: record what left each DMA, tell the board of writes now in DMA."""
        now = time.monotonic()
        for port, dma in self._ports.items():
            played, done = dma.take(now)
            if played:
                self._pcm += played
                self._emit("audio", played)
                if not dma.queue:  # the latest end counts: two ports may end in one advance
                    self._ended = max(self._ended, dma.since)
            for _ in range(done):
                self._send_done(port)

    def wait(self):
        """Seconds until advance() has something to do (None: nothing plays)."""
        now = time.monotonic()
        return min((w for w in (dma.wait(now) for dma in self._ports.values()) if w is not None), default=None)
