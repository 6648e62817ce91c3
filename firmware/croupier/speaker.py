"""The box speaks: each input's announcement (croupier.words) played from the voice banks
through I2S by its own task, so nothing waits for it.

heard() and say() only record what to say; start(), which the app calls after the frame
that shows the input, writes the first chunk and wakes the task for the rest. A new
announcement cuts the one playing (the I2S made again: deinit, then init, drop the DMA's
contents); when writes of the old one are still on their way to DMA, the task cuts it and
yields once for their handler calls.

Playing, in the ESP32 port's non-blocking mode (ports/esp32/machine_i2s.c, v1.23.0): write()
hands the buffer to a FreeRTOS queue of depth one and returns; the port's task copies it into
DMA and then schedules the irq handler. So at most two writes are outstanding (a third would
be dropped by xQueueSend(..., 0)): two preallocated chunk buffers, each filled again once the
handler says it is in DMA. Volume is I2S.shift on the buffer, in C.

Bank files (/voice/fr.vox, en.vox, names.vox; docs/laptop.md "The box's voice"): b"VOX1",
u16 rate, u8 count, u8 origin, count (u32 start, u32 length) entries, then the keys, then
the PCM. A word is entry inventory.index(word) of its language's bank; a player's name is
the names bank's entry whose key is that name. One bank file is open at a time.
"""
from micropython import const
import asyncio
import struct
from machine import I2S

from croupier import words

RATE = const(8000)  # 16-bit mono: 16 KB a second
CHUNK = const(512)  # bytes per write, 32 ms of speech; two buffers: 1 KB of heap
# DMA memory (ESP-IDF's, not the MicroPython heap), in buffers of 256 frames, 512 bytes: 13
# of them hold 416 ms, the longest a key's work at the chip's speed holds the task off
# (key to frame at most 400 ms); the write queued behind them adds 32 ms more.
IBUF = const(6656)
SHIFTS = (-2, -1, 0)  # volume 1, 2, 3: -12 dB, -6 dB, as recorded
_MAGIC = b"VOX1"
_BANK = const(1)  # which bank file is open
_NAMES = const(2)


class Speaker:
    def __init__(self, open_i2s, voice_dir, lang, volume):
        """open_i2s(rate, ibuf) -> the I2S (board.i2s); voice_dir holds the banks."""
        self._open_i2s = open_i2s
        self._dir = voice_dir
        self._names_path = voice_dir + "/names.vox"
        bufs = (bytearray(CHUNK), bytearray(CHUNK))
        self._bufs = bufs
        self._views = (memoryview(bufs[0]), memoryview(bufs[1]))
        self._entry = bytearray(8)  # one bank entry, or a bank's header
        self._go = asyncio.Event()  # start(): a task's signal
        self._flag = asyncio.ThreadSafeFlag()  # the port's handler: an interrupt's
        self._on_sent = self._sent_to_dma  # bound once: the handler allocates nothing
        self._i2s = None
        self._said = None  # (items, players) waiting for the frame
        self._ready = None  # ... the frame is out: start() or the task plays it
        self._before = None  # the game's state before the next input
        self._items = None  # the announcement playing: its items, the next one's index
        self._players = None
        self._at = 0
        self._seat = None  # a seat said in words (no recorded name): those words, next index
        self._seat_at = 0
        self._file = None
        self._open = 0  # _BANK or _NAMES: which bank _file is
        self._count = 0  # its entries
        self._left = 0  # bytes of the current word still to read
        self._written = 0  # writes since the I2S was made, and those the port took into DMA
        self._sent = 0
        self.configure(lang, volume)

    def configure(self, lang, volume):
        """Speak lang ("fr", "en") at volume (1-3) from the next announcement on; the one
        being said ends where it is (what DMA holds still plays)."""
        self._end()
        self._bank_path = "%s/%s.vox" % (self._dir, lang)
        self._lang = lang
        self._inventory = words.inventory(lang)
        self._shift = SHIFTS[volume - 1]

    # --- what to say: called by the app, never waits ------------------------------------
    def follow(self, state):
        """The game as it stands (None: no game): the next input is said against it."""
        self._before = state

    def heard(self, state, effects, new, game):
        """The controller's news: an accepted input to game (new: a game started, nothing
        said). A card that ended a round is said with the total it reached, which the
        round's log still holds (the state has the next round's; rules/engine.py Engine.log)."""
        before, self._before = self._before, state
        if new or before is None:
            return
        # the last row's total_after in the engine's flat log, read in place (round_log()
        # would copy the round): announce() says it only when the input ended a round
        log = game.log
        reached = log[-1] if log else None
        self.say(words.announce(self._lang, before, state, effects, reached), state["players"])

    def say(self, items, players):
        """Say items (word ids; seats, by their players' names) after the next frame,
        cutting whatever is being said."""
        self._said = (items, players)

    def start(self):
        """The frame is out: what say() recorded starts now, its first chunk written here
        when no handler call of the last announcement can still come (else by the task,
        after a yield)."""
        if self._said is None:
            return
        self._ready, self._said = self._said, None
        if self._written == self._sent:
            self._play_ready()
        else:  # the task, perhaps waiting for a handler call that never comes (the port's
            self._flag.set()  # mp_sched_schedule drops one when its queue is full)
        self._go.set()

    def stop(self):
        """Silence at once (the voice turned off); the task stays idle."""
        self._said = self._ready = None
        self._cut()

    # --- playing: the task ----------------------------------------------------------------
    async def run(self):
        go, flag = self._go, self._flag
        while True:
            await go.wait()
            go.clear()
            while True:
                if self._ready is not None:  # cut with writes still on their way to DMA:
                    self._cut()
                    await asyncio.sleep_ms(0)  # their handler calls, scheduled, run here
                    if self._ready is not None:
                        self._play_ready()
                    continue
                if self._items is None:
                    break
                await flag.wait()  # a write in DMA, or start(): a new announcement
                if self._items is not None and self._ready is None:  # configure() may end it
                    self._pump()

    def _play_ready(self):
        ready, self._ready = self._ready, None
        self._cut()
        self._flag.clear()
        self._begin(ready)
        self._pump()

    def _sent_to_dma(self, i2s):
        # Scheduled by the port once a write is in DMA: count it and wake the task.
        self._sent += 1
        self._flag.set()

    def _cut(self):
        if self._i2s is not None:
            self._i2s.deinit()
            self._i2s = None
        self._end()

    def _end(self):
        """Read no more of the announcement."""
        self._close()
        self._items = self._players = self._seat = None
        self._left = 0

    def _begin(self, ready):
        self._items, self._players = ready
        self._at = self._left = 0
        self._written = self._sent = 0
        i2s = self._open_i2s(RATE, IBUF)
        i2s.irq(self._on_sent)
        self._i2s = i2s

    def _pump(self):
        """Fill and write the buffers the port is done with; at the end of the words, close
        the bank (the I2S plays on what DMA holds, then silence)."""
        while self._written - self._sent < 2:
            i = self._written & 1  # writes alternate, and come back from DMA in order
            got = self._fill(self._views[i])
            if not got:
                self._end()
                return
            buf = self._bufs[i]
            if self._shift:
                I2S.shift(buf=buf, bits=16, shift=self._shift)
            self._i2s.write(buf if got == CHUNK else self._views[i][:got])
            self._written += 1

    def _fill(self, view):
        """Read the next words' PCM into view; -> bytes read (0: nothing left to say)."""
        got = 0
        while got < CHUNK:
            if not self._left and not self._next_word():
                break
            n = self._file.readinto(view[got:got + min(CHUNK - got, self._left)])
            if not n:  # a bank shorter than its entry says
                self._left = 0
                continue
            got += n
            self._left -= n
        return got

    def _next_word(self):
        """Seek to the next word's PCM (self._left = its bytes); False when none is left.
        A word the banks lack is skipped."""
        while True:
            seat = self._seat
            if seat is not None and self._seat_at < len(seat):
                self._seat_at += 1
                if self._word(seat[self._seat_at - 1]):
                    return True
                continue
            self._seat = None
            items = self._items
            if self._at >= len(items):
                return False
            item = items[self._at]
            self._at += 1
            if isinstance(item, int):
                if self._name(self._players[item]["name"]):
                    return True
                self._seat, self._seat_at = words.seat_words(self._lang, item), 0
            elif self._word(item):
                return True

    def _word(self, word):
        try:
            i = self._inventory.index(word)
        except ValueError:
            return False
        return self._use(_BANK, self._bank_path) and self._seek_entry(i)

    def _name(self, name):
        """Seek to the player's recorded name, if the names bank has it."""
        if not self._use(_NAMES, self._names_path):
            return False
        f, key = self._file, name.encode()
        f.seek(8 + 8 * self._count)
        for i in range(self._count):
            f.readinto(self._entry, 1)
            size = self._entry[0]
            if size != len(key):
                f.seek(size, 1)
            elif f.read(size) == key:
                return self._seek_entry(i)
        return False

    def _use(self, which, path):
        """Have bank `which` open; False when it is missing or not a bank (a language bank:
        one entry per word of the inventory)."""
        if self._open == which:
            return True
        self._close()
        try:
            f = open(path, "rb")
        except OSError:
            return False
        head = self._entry
        count = head[6] if f.readinto(head) == 8 and head[:4] == _MAGIC else -1
        if count < 0 or which == _BANK and count != len(self._inventory):
            f.close()
            return False
        self._file, self._open, self._count = f, which, count
        return True

    def _seek_entry(self, i):
        f = self._file
        f.seek(8 + 8 * i)
        if f.readinto(self._entry) != 8:
            return False
        start, length = struct.unpack("<II", self._entry)
        f.seek(start)
        self._left = length & ~1  # whole samples
        return True

    def _close(self):
        if self._file is not None:
            self._file.close()
            self._file = None
            self._open = 0
