# The journal: every accepted input, append-only, on the board's littlefs.
#
# Layout of the journal folder:
#   head                   one sealed line: the log epoch, the boot counter, which segment is
#                          active, and a snapshot of the unfinished game as it was when that
#                          segment began. Rewritten (temp file, then rename) at each boot and
#                          when a segment is closed.
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
import errno
import json
import os
import time

from croupier.rules import canon

SEGMENT_RECORDS = const(64)  # records per segment: bounds the scan at boot
_HEAD = "head"
_TMP = ".tmp"
_CLOSED = "closed"
_EPOCH = "epoch"
_UNDO = ("undo", None)
_CHUNK = const(128)  # bytes a Sealer gathers before it writes them
_ENOSPC = const(28)  # littlefs's, on the ESP32 too: MicroPython's errno module lacks it


def crc_hex(data):
    """CRC-32 (IEEE, as binascii.crc32) of bytes or str, as 8 lowercase hex digits."""
    if isinstance(data, str):
        data = data.encode()
    return "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


class Sealer:
    """Writes a sealed line piece by piece: `text|crc8\\n` (the wire adds a leading @), with
    the CRC-32 of text kept running, so nothing the size of the whole line is ever built (a
    head holding a long game, a `log` page). Pieces (a few bytes each) are gathered into
    writes of about _CHUNK bytes: a write per piece cost a system call (on the board a UART
    or littlefs call) and a CRC step each, hundreds for one `play` event."""

    def __init__(self, write):
        self._write = write
        self._crc = 0
        self._parts = []
        self._size = 0

    def piece(self, text):
        self._parts.append(text)
        self._size += len(text)
        if self._size >= _CHUNK:
            self._flush()

    def _flush(self):
        text = "".join(self._parts)
        del self._parts[:]
        self._size = 0
        self._write(text)
        self._crc = binascii.crc32(text, self._crc)

    def close(self):
        self._flush()
        self._write("|%08x\n" % (self._crc & 0xFFFFFFFF))


def sealed_line(value):
    """value as one sealed line of canonical JSON (str), built whole: for a small value (a
    record) one string and one CRC are far less work than write_sealed's pieces. TypeError
    for a value canon refuses, before anything is written."""
    text = canon.dumps(value)
    return "%s|%08x\n" % (text, binascii.crc32(text) & 0xFFFFFFFF)


def write_sealed(value, write):
    """Write value as one sealed line of canonical JSON through write(text). A value canon
    refuses raises TypeError with part of the line written: canon.check() it first where
    that matters."""
    sealer = Sealer(write)
    canon.dump(value, sealer.piece)
    sealer.close()


def _payload(line):
    """The text of a sealed line (bytes, before `|crc`), or None when truncated or corrupt."""
    if len(line) < 11 or line[-1:] != b"\n" or line[-10:-9] != b"|":
        return None
    payload = line[:-10]
    if crc_hex(payload).encode() != line[-9:-1]:
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
        from it at boot, and set_time() sets it too."""
        self.path = path.rstrip("/")
        self._clock = clock
        self._clock_offset = None  # Unix seconds minus time.time(), once known
        self._ticks = time.ticks_ms()  # uptime_ms(): ms since this boot, past ticks_ms wraps
        self._uptime = 0
        self._ensure_dir()
        head = self._read_head() or self._rebuilt_head()
        self.epoch = head["epoch"]
        self.boots = head["boots"] + 1
        self.acked = head.get("acked", 0)  # the highest seq a host acknowledged (`ack`)
        self._segment = head["segment"]  # first seq of the active segment
        game = head["game"]
        self._game = Game(*game) if game else None
        self._next_seq = self._segment
        self._in_segment = 0
        try:
            self._write_head(self._segment, game)  # count the boot; the head is otherwise as read
        except OSError:
            pass  # a full flash: this boot goes uncounted, the link still comes up to sync
        for name in os.listdir(self.path):  # a segment closed just before a power cut
            if name.endswith(".log") and int(name[:-4]) != self._segment:
                self._archive(int(name[:-4]))
        self._scan_active()
        if clock is not None:
            try:
                epoch = clock.now()
            except OSError:
                epoch = None  # the module went quiet since the probe: no time, as without one
            if epoch is not None:
                self._clock_offset = epoch - int(time.time())

    def _close_segment(self):
        """Start a new segment: the head points at it, with the game as it stands; then the
        old one moves to closed/ (a power cut in between is mended at the next boot)."""
        old = self._segment
        self._write_head(self._next_seq, self._game.snapshot() if self._game else None)
        self._segment = self._next_seq
        self._in_segment = 0
        self._archive(old)

    def _archive(self, first):
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

    def _ensure_dir(self):
        # mkdir, not stat: littlefs finishes a move that a power cut interrupted only at its
        # first write (mkdir is one, whether or not the folder exists); until then a lookup
        # can miss what is there: the closed folder, or the head (and a journal without a
        # head starts afresh).
        for folder in (self.path, self._file(_CLOSED)):
            try:
                os.mkdir(folder)
            except OSError as e:
                if e.errno != errno.EEXIST:
                    raise

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

    def _rebuilt_head(self):
        """The head is missing (a new journal) or unreadable (a damaged flash). Replay every
        record kept, so none is lost: the unfinished game comes back if all its records are
        still here (acked segments are gone). The log epoch comes from its own file, written
        once; a new journal, or one whose epoch is unreadable too, gets a new epoch (a host
        then stores what it had already synced a second time). The head then points at a
        new segment after the last record."""
        logs = []
        for folder in (self.path, self._file(_CLOSED)):
            logs += [(int(name[:-4]), folder + "/" + name) for name in os.listdir(folder)
                     if name.endswith(".log")]
        logs.sort()
        epoch = self._read_sealed(_EPOCH) if logs else None
        if not isinstance(epoch, str):
            epoch = binascii.hexlify(os.urandom(4)).decode()
            with open(self._file(_EPOCH), "wb") as f:
                write_sealed(epoch, f.write)
        self._game = None
        self._next_seq = 1
        self._in_segment = 0  # counted by _note; the caller starts a new segment anyway
        for first, name in logs:
            self._next_seq = first  # after a damaged segment, the next one goes on
            self._replay(name)
        return {"epoch": epoch, "boots": 0, "segment": self._next_seq, "acked": 0,
                "game": self._game.snapshot() if self._game else None}

    def _scan_active(self):
        """Replay the active segment onto the head's snapshot; cut a bad tail off."""
        name = self._segment_file(self._segment)
        good, bad_tail = self._replay(name)
        if bad_tail:
            self._keep_prefix(name, good)

    def _replay(self, name):
        """Note the valid records of a segment file, up to the first bad one.
        -> (bytes of valid records, whether a bad tail follows them)."""
        good = 0
        try:
            f = open(name, "rb")
        except OSError:
            return 0, False
        with f:
            for line in f:
                record = unseal(line)
                if not self._valid_next(record):
                    return good, True
                self._note(record)
                good += len(line)
        return good, False

    def _valid_next(self, record):
        return (isinstance(record, list) and 5 <= len(record) <= 6
                and record[0] == self._next_seq and isinstance(record[3], str))

    def _keep_prefix(self, name, size):
        """Rewrite a segment with only its first size bytes (temp file, then rename)."""
        tmp = name + _TMP
        with open(name, "rb") as src, open(tmp, "wb") as dst:
            while size > 0:
                chunk = src.read(min(size, 512))
                if not chunk:
                    break
                dst.write(chunk)
                size -= len(chunk)
        os.rename(tmp, name)

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
        """Point the head at segment (its first seq), with game: the snapshot it starts from."""
        head = {"epoch": self.epoch, "boots": self.boots, "segment": segment, "game": game,
                "acked": self.acked}
        name = self._file(_HEAD)
        with open(name + _TMP, "wb") as f:
            write_sealed(head, f.write)
        os.rename(name + _TMP, name)

    # -- the journal API --------------------------------------------------------------

    @property
    def last_seq(self):
        return self._next_seq - 1

    def set_time(self, epoch):
        """Set the clock (Unix seconds), the real-time clock module's too; records written
        before carry a null time unless the module gave it at boot. ValueError (the module
        cannot hold that date) or OSError (it did not answer): the time is as it was."""
        if self._clock is not None:
            self._clock.set(int(epoch))
        self._clock_offset = int(epoch) - int(time.time())

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

    def append(self, game_id, kind, data, abandon=None):
        """Write one record and return its seq once it is durable. game_id None: the record
        starts a game whose id is its own seq; abandon: the id of the unfinished game it
        replaces, whose `abandon` record goes into the same write, so both land or neither.
        JournalError when the flash refuses it: then nothing was written."""
        seq, now, stamp = self._next_seq, self.now(), [self.boots, self.uptime_ms()]
        records = [] if abandon is None else [[seq, now, abandon, "abandon", None, stamp]]
        seq += len(records)
        records.append([seq, now, seq if game_id is None else game_id, kind, data, stamp])
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
        for record in records:
            self._note(record)
        if self._in_segment >= SEGMENT_RECORDS:
            try:
                self._close_segment()
            except OSError:
                pass  # the record is safe; the segment is closed at a later append
        return seq

    def _active_file(self):
        """The active segment's path, made once per segment (append's, on every record)."""
        if self._active[0] != self._segment:
            self._active = (self._segment, self._segment_file(self._segment))
        return self._active[1]

    def _segments(self):
        """First seqs of the segments, closed ones and the active one, ascending."""
        firsts = [int(name[:-4]) for name in os.listdir(self._file(_CLOSED))
                  if name.endswith(".log")]
        firsts.sort()
        firsts.append(self._segment)
        return firsts

    def records(self, from_seq, max_records, max_bytes=None, text=False):
        """Up to max_records records with seq >= from_seq, oldest first, each
        [seq, time, game_id, kind, data, [boot, ms]] (or the first five, as older firmware
        wrote them); with max_bytes, no more once that much journal text is taken (always at
        least one record). text: each record as the canonical JSON the journal holds (str),
        for the link to send as it is, instead of parsed: a `log` page then costs no parsing
        and no writing out again."""
        out = []
        size = 0
        firsts = self._segments()
        for i in range(len(firsts)):
            if i + 1 < len(firsts) and firsts[i + 1] <= from_seq:
                continue  # wholly before from_seq
            try:
                f = open(self._segment_file(firsts[i]), "rb")
            except OSError:
                continue
            with f:
                for line in f:
                    payload = _payload(line)
                    if payload is None:
                        break
                    if int(payload[1:payload.find(b",")]) >= from_seq:  # `[seq,`
                        out.append(payload.decode() if text else json.loads(payload))
                        size += len(line)
                        if len(out) >= max_records or (max_bytes and size >= max_bytes):
                            return out
        return out

    def ack(self, upto):
        """The host holds every record <= upto: delete the closed segments it covers, and
        remember upto (so a host can tell which records no host holds yet)."""
        firsts = self._segments()
        for i in range(len(firsts)):
            if firsts[i] >= self._segment:
                break  # the active segment stays
            end = (firsts[i + 1] if i + 1 < len(firsts) else self._segment) - 1
            if end <= upto:
                os.remove(self._segment_file(firsts[i]))
        if upto > self.acked:
            head = self._read_head()
            self.acked = upto
            if head is not None:
                try:
                    self._write_head(head["segment"], head["game"])  # the same head, with acked
                except OSError:
                    pass  # a full flash: acked is known until the next boot, records are kept

    def resume(self):
        """(game_id, setup, actions) of the unfinished game, or None. actions: [kind, data]
        pairs ("play" card / "undo" None) that rebuild it through the rules engine."""
        game = self._game
        if game is None:
            return None
        return game.game_id, game.setup, game.actions()
