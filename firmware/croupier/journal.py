# The journal: every accepted input, append-only, on the board's littlefs.
#
# Layout of the journal folder:
#   head                   one sealed line: the log epoch, the boot counter, which segment is
#                          active, and a snapshot of the unfinished game as it was when that
#                          segment began. Rewritten (temp file, then rename) once each boot
#                          (count_boot) and when a segment is closed.
#   00000065.log           the active segment, named by the seq of its first record; one
#                          sealed record per line: canon JSON `[seq, time, game_id, kind,
#                          data, [boot, ms]]` (journals written before [boot, ms] was added
#                          hold the first five only), `|`, its CRC-32 in 8 hex digits, newline.
#   closed/00000001.log …  closed segments, moved out of the way so that the folder boot
#                          works in stays small however many games are stored.
#   epoch                  the log epoch again, written once: a head the flash damaged is
#                          rebuilt from the segments, and keeps the journal's epoch.
# littlefs makes each closed write and each rename atomic; the CRCs catch what a different
# filesystem (or a damaged flash) leaves behind. Boot reads the head and scans only the
# active segment, which is closed after SEGMENT_RECORDS records (about one flash block), so
# boot time does not grow with the games stored. Records are deleted only when the host has
# acknowledged them (`ack`), a whole closed segment at a time.
from micropython import const
import binascii
import gc
import json
import os
import time

import croupier
from croupier.rules import canon

SEGMENT_RECORDS = const(64)  # records per segment: bounds the scan at boot
_HEAD = "head"
_TMP = ".tmp"
_CLOSED = "closed"
_UNDO = ("undo", None)
# Pieces a Sealer gathers before it writes them (a few bytes each). Up to a dozen more come
# before the next check, so the list tops out under 32 and keeps a 32-slot array: at 48 it
# grew to 64 slots, 512 contiguous bytes that a reply on a full heap did not always find.
_PIECES = const(16)
_ENOSPC = const(28)  # littlefs's, on the ESP32 too: MicroPython's errno module lacks it


def crc_hex(data):
    """CRC-32 (IEEE, as binascii.crc32) of bytes or str, as 8 lowercase hex digits."""
    if isinstance(data, str):
        data = data.encode()
    return "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


class Sealer:
    """Writes a sealed line piece by piece: `text|crc8\\n` (the wire adds a leading @), with
    the CRC-32 of text kept running, so nothing the size of the whole line is ever built (a
    head holding a long game, a `log` page). piece(text) gathers pieces (a few bytes each,
    or a stored record) and gathered() writes them once there are _PIECES: a write per piece
    cost a system call (on the board a UART or littlefs call) and a CRC step each, hundreds
    for one `play` event. piece is the list's own append, in C: as a method of ours it made
    a reply's sealing half again as slow. Pieces are str, or bytes (stored journal text);
    flush() before switching from one to the other."""

    def __init__(self, write):
        self._write = write
        self._crc = 0
        self._parts = []
        self.piece = self._parts.append

    def gathered(self):
        """canon.dump's between: a write once enough pieces wait."""
        if len(self._parts) >= _PIECES:
            self.flush()

    def flush(self):
        parts = self._parts
        if not parts:
            return
        text = parts[0][:0].join(parts)  # "" or b"", as the pieces are
        del parts[:]  # keeps its room: the next pieces need no new list
        self._write(text)
        self._crc = binascii.crc32(text, self._crc)

    def write(self, data):
        """Write data (bytes, or a view of them) at once, after the pieces gathered (bytes
        too): a stored record goes out as it is, not copied into a joined piece."""
        self.flush()
        self._write(data)
        self._crc = binascii.crc32(data, self._crc)

    def close(self):
        self.flush()
        self._write("|%08x\n" % (self._crc & 0xFFFFFFFF))


def sealed_line(value):
    """value as one sealed line of canonical JSON (str), built whole before anything is
    written (TypeError for a value canon refuses). Sealed in chunks, not joined from all its
    pieces at once: a game's end has hundreds, whose list wanted a 4 KB block of a heap
    that a long session had left with none (one more `play` then failed)."""
    chunks = []
    write_sealed(value, chunks.append)
    return "".join(chunks)


def write_sealed(value, write):
    """Write value as one sealed line of canonical JSON through write(text). A value canon
    refuses raises TypeError with part of the line written: canon.check() it first where
    that matters."""
    sealer = Sealer(write)
    canon.dump(value, sealer.piece, sealer.gathered)
    sealer.close()


def _payload(line):
    """The text of a sealed line (bytes, before `|crc`) as a view into line, or None when
    truncated or corrupt. Every record a `log` page sends passes here: bytes are compared
    as integers, the CRC as a number, and the text is not copied (a game's `end` record
    runs to hundreds of bytes, which a full heap may not have in one piece twice over)."""
    n = len(line)
    if n < 11 or line[n - 1] != 10 or line[n - 10] != 124:  # `\n`, `|`
        return None
    payload = memoryview(line)[:n - 10]
    try:
        if binascii.crc32(payload) != int(line[n - 9:n - 1], 16):
            return None
    except ValueError:  # not hex
        return None
    return payload


def unseal(line):
    """The JSON value of a sealed line (bytes), or None when it is truncated or corrupt."""
    payload = _payload(line)
    if payload is None:
        return None
    try:
        return json.loads(payload)
    except ValueError:
        return None


class JournalError(Exception):
    """The flash refused a record (full, or failing): nothing of it was journaled, so nothing
    may change. reason: what to tell the person at the table."""

    def __init__(self, error):
        full = error.errno == _ENOSPC
        self.reason = "flash full: sync to free space" if full else "flash error %s" % error.errno
        super().__init__(self.reason)


def _segment_name(first_seq):
    return "%08d.log" % first_seq


class Game:
    """What the journal knows of the unfinished game: enough to replay it."""

    def __init__(self, game_id, setup, inputs=None, undone=None):
        self.game_id = game_id
        self.setup = setup
        self.inputs = inputs or []  # accepted cards, in order
        self.undone = undone or []  # cards taken back, the next redo last

    def apply(self, kind, data):
        if kind == "play":
            self.inputs.append(data)
            self.undone = []
        elif kind == "undo" and self.inputs:
            self.undone.append(self.inputs.pop())
        elif kind == "redo" and self.undone:
            self.inputs.append(self.undone.pop())

    def actions(self):
        """Inputs that rebuild the game, undo/redo history included: every card ever still
        on the redo stack is played, then taken back."""
        plays = [("play", card) for card in self.inputs]  # pairs as tuples: half the heap
        plays += [("play", card) for card in reversed(self.undone)]
        return plays + [_UNDO] * len(self.undone)

    def snapshot(self):
        return [self.game_id, self.setup, self.inputs, self.undone]


class Journal:
    _active = (None, None)  # (segment, its path): _active_file's cache

    def __init__(self, path, clock=None):
        """clock: the battery-backed real-time clock (ds3231.DS3231) or None. The time comes
        from it at boot, and journal_sync.set_time() sets it too."""
        self.path = path.rstrip("/")
        self._clock = clock
        self._clock_offset = None  # Unix seconds minus time.time(), once known
        self._ticks = time.ticks_ms()  # uptime_ms(): ms since this boot, past ticks_ms wraps
        self._uptime = 0
        from croupier import journal_boot
        try:  # dropped however the start ends: a failed one must not keep it loaded
            journal_boot.start(self)
        finally:
            croupier.drop_module("croupier.journal_boot")

    def _close_segment(self):
        """Start a new segment: the head points at it, with the game as it stands; then the
        old one moves to closed/ (a power cut in between is mended at the next boot)."""
        old = self._segment
        self._write_head(self._next_seq, self._game.snapshot() if self._game else None)
        self._segment = self._next_seq
        self._in_segment = 0
        self._archive(old)

    def _archive(self, first):
        self._closed = None
        try:
            os.rename(self._file(_segment_name(first)), self._segment_file(first))
        except OSError:
            pass  # never written (nothing to move), or moved at the next boot

    def _segment_file(self, first):
        """Where the segment starting at seq first lives."""
        if first == self._segment:
            return self._file(_segment_name(first))
        return self._file(_CLOSED + "/" + _segment_name(first))

    # -- boot -------------------------------------------------------------------------

    def _file(self, name):
        return self.path + "/" + name

    def _read_sealed(self, name):
        """The value of a file holding one sealed line, or None when missing or damaged."""
        try:
            with open(self._file(name), "rb") as f:
                return unseal(f.read())
        except OSError:
            return None

    def _read_head(self):
        head = self._read_sealed(_HEAD)
        return head if isinstance(head, dict) else None

    def _note(self, record):
        """Account for one record: seq, segment fill, and the unfinished game."""
        seq, game_id, kind, data = record[0], record[2], record[3], record[4]
        self._next_seq = seq + 1
        self._in_segment += 1
        if kind == "new":
            self._game = Game(seq, data)
        elif self._game is not None and game_id == self._game.game_id:
            if kind in ("end", "abandon"):
                self._game = None
            else:
                self._game.apply(kind, data)

    def _write_head(self, segment, game):
        """Point the head at segment (its first seq), with game: the snapshot it starts from.
        It counts this boot too."""
        head = {"epoch": self.epoch, "boots": self.boots, "segment": segment, "game": game,
                "acked": self.acked}
        name = self._file(_HEAD)
        with open(name + _TMP, "wb") as f:
            write_sealed(head, f.write)
        os.rename(name + _TMP, name)
        self._counted = True

    def _rewrite_head(self):
        """The head as the flash holds it, with this boot's boots and acked."""
        head = self._read_head()
        if head is not None:
            try:
                self._write_head(head["segment"], head["game"])
            except OSError:
                pass  # a full flash: known until the next boot; the records are kept

    # -- the journal API --------------------------------------------------------------

    @property
    def last_seq(self):
        return self._next_seq - 1

    def uptime_ms(self):
        """Milliseconds since this boot (the records' [boot, ms], `hello`'s uptime_ms).
        ticks_ms wraps (every 12 days on the ESP32): each call adds the ticks since the last
        one, so it must be called at least every few days (the app does it hourly)."""
        now = time.ticks_ms()
        self._uptime += time.ticks_diff(now, self._ticks)
        self._ticks = now
        return self._uptime

    def now(self):
        """Unix seconds, or None while the clock is unset."""
        if self._clock_offset is None:
            return None
        return int(time.time()) + self._clock_offset

    def count_boot(self):
        """Put this boot on the flash (`boots` in the head). Not done while the box starts:
        littlefs's first write after mounting scans every file for free blocks, which grows
        with the games stored. The app calls it once the first screen is up; an append
        calls it first, so no record carries a boot the head does not count. A full flash:
        this boot goes uncounted, the link still comes up to sync."""
        if not self._counted:
            self._rewrite_head()

    def append(self, game_id, kind, data, abandon=None):
        """Write one record and return its seq once it is durable. game_id None: the record
        starts a game whose id is its own seq; abandon: the id of the unfinished game it
        replaces, whose `abandon` record goes into the same write, so both land or neither.
        JournalError when the flash refuses it: then nothing was written."""
        self.count_boot()
        seq, now, stamp = self._next_seq, self.now(), [self.boots, self.uptime_ms()]
        records = [] if abandon is None else [[seq, now, abandon, "abandon", None, stamp]]
        seq += len(records)
        records.append([seq, now, seq if game_id is None else game_id, kind, data, stamp])
        try:
            self._store(records)
        except MemoryError:  # a long record (a game's end), or the file's cache, wants
            gc.collect()  # contiguous heap: tidy it, and once more
            self._store(records)
        for record in records:
            self._note(record)
        if self._in_segment >= SEGMENT_RECORDS:
            try:
                self._close_segment()
            except OSError:
                pass  # the record is safe; the segment is closed at a later append
        return seq

    def _store(self, records):
        # Whole lines, made before the file opens (a value canon refuses leaves nothing
        # behind), and one write: littlefs copies the file's last block at the first write
        # after each commit, so the record costs one copy, whatever its size.
        text = sealed_line(records[0])
        if len(records) > 1:
            text += sealed_line(records[1])
        try:
            with open(self._active_file(), "ab") as f:
                f.write(text)
        except OSError as e:  # littlefs commits a file at close: a refused write left nothing
            raise JournalError(e)

    def _active_file(self):
        """The active segment's path, made once per segment (append's, on every record)."""
        if self._active[0] != self._segment:
            self._active = (self._segment, self._segment_file(self._segment))
        return self._active[1]

    def resume(self):
        """(game_id, setup, actions) of the unfinished game, or None. actions: [kind, data]
        pairs ("play" card / "undo" None) that rebuild it through the rules engine."""
        game = self._game
        if game is None:
            return None
        return game.game_id, game.setup, game.actions()
