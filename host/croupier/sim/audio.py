"""The speaker on the board's I2S lines (VirtualBoard.audio): each port's DMA memory, drained
at the sample rate in wall time, and a recording of what left it. The board's side is
machine.I2S (mpy/machine.py); the messages are in croupier.sim.channel.
"""
import time
import wave

GAP_KEPT = 0.5  # seconds of silence recorded at most where the line idled between two sounds
STREAM_TICK = 0.05  # while a DMA plays, what left it is taken this often (for live listeners)


class Dma:
    """One port's DMA memory (ibuf bytes) and, behind it, the writes not wholly in it yet.
    The board keeps at most two writes waiting (the port's task and its queue of one), so
    the queue is at most ibuf plus two writes."""

    def __init__(self, capacity, frame, byte_rate, now):
        self.capacity, self.frame, self.byte_rate = capacity, frame, byte_rate
        self.queue = bytearray()  # what is in DMA memory, then the waiting writes' bytes
        self.ends = []  # where each write not yet wholly in DMA memory ends in queue
        self.since = now  # when queue[0] began to play (or the line went idle)

    def take(self, now):
        """-> (the bytes played since the last call, how many writes went wholly into DMA memory)."""
        n = min(len(self.queue), int((now - self.since) * self.byte_rate) // self.frame * self.frame)
        played = bytes(self.queue[:n])
        del self.queue[:n]
        self.since += n / self.byte_rate  # with the queue empty: when the line went quiet
        self.ends = [end - n for end in self.ends]
        done = len([end for end in self.ends if end <= self.capacity])
        del self.ends[:done]
        return played, done

    def next_write_in(self, now):
        """Seconds until the oldest waiting write is wholly in DMA memory (None: none waits)."""
        if not self.ends:
            return None
        frames = -(-(self.ends[0] - self.capacity) // self.frame)
        return max(0.0, self.since + frames * self.frame / self.byte_rate - now)


class Audio:
    """What the board's speaker played: 16 KB a second of sound at 8 kHz mono, kept for the
    board's life; a silence between two sounds is kept GAP_KEPT seconds at most."""

    def __init__(self, lock, emit, send_done):
        self._lock, self._emit, self._send_done = lock, emit, send_done
        self._ports = {}  # I2S id -> Dma, while the port is on (TX only)
        self._pcm = bytearray()
        self._idle_since = None  # when the line last went quiet (None: it never played)
        self.rate, self.bits, self.channels = None, 16, 1  # the last port turned on

    def pcm(self) -> bytes:
        """The samples played so far (little-endian, `bits` each, `channels` interleaved)."""
        with self._lock:
            self.advance()
            return bytes(self._pcm)

    def save_wav(self, path):
        """Write what the speaker played so far as a WAV file (nothing played: no file)."""
        pcm = self.pcm()
        if self.rate is None:
            return False
        with wave.open(str(path), "wb") as out:
            out.setnchannels(self.channels)
            out.setsampwidth(self.bits // 8)
            out.setframerate(self.rate)
            out.writeframes(pcm)
        return True

    # --- on the I/O thread, under the lock ---------------------------------------------------
    def turn_on(self, port, rate, bits, channels, capacity):
        self.turn_off(port, keep_dma=False)
        frame = bits // 8 * channels
        self._ports[port] = Dma(capacity, frame, rate * frame, time.monotonic())
        self.rate, self.bits, self.channels = rate, bits, channels

    def turn_off(self, port, keep_dma):
        """deinit() drops the DMA's contents (never played); irq(None) only the writes
        not yet in it (keep_dma)."""
        self.advance()
        dma = self._ports.get(port)
        if dma and keep_dma:
            del dma.queue[dma.capacity:]
            dma.ends.clear()
        elif dma:
            del self._ports[port]
            self._went_quiet(time.monotonic())

    def turn_all_off(self):
        """The interpreter stopped (reset, power cut, crash): the I2S peripheral with it."""
        for port in list(self._ports):
            self.turn_off(port, keep_dma=False)

    def write(self, port, samples, last):
        """A write's bytes (in parts of up to 64 KB: `last` marks its end)."""
        dma = self._ports.get(port)
        if dma is None:
            return  # the board checks its port is on: only a write racing a reset comes here
        self.advance()
        if not dma.queue:
            dma.since = time.monotonic()
            if self._idle_since is not None and self._pcm:  # the gap, short
                gap = min(GAP_KEPT, dma.since - self._idle_since)
                self._pcm += bytes(int(gap * dma.byte_rate) // dma.frame * dma.frame)
            self._idle_since = None
        dma.queue += samples
        if last:
            dma.ends.append(len(dma.queue))
        self.advance()

    def advance(self):
        """Play up to now: record what left each DMA, tell the board of writes now in DMA."""
        now = time.monotonic()
        for port, dma in self._ports.items():
            played, done = dma.take(now)
            if played:
                self._pcm += played
                self._emit("audio", played)
                if not dma.queue:
                    self._went_quiet(dma.since)
            for _ in range(done):
                self._send_done(port)

    def _went_quiet(self, at):
        if not any(dma.queue for dma in self._ports.values()):
            self._idle_since = at

    def wait(self):
        """Seconds until advance() has something to do (None: nothing plays)."""
        now = time.monotonic()
        waits = [dma.next_write_in(now) for dma in self._ports.values() if dma.ends]
        waits += [STREAM_TICK for dma in self._ports.values() if dma.queue]
        return min(waits) if waits else None
