# The journal's work at boot, which a running box does not need again: reading the head,
# replaying the active segment onto its snapshot (cutting off a tail a power cut left),
# rebuilding a missing or damaged head from every segment kept, and taking the time from the
# real-time clock. Journal() loads this module and drops it however the start ends (its
# code is heap). Each function takes the Journal being started.
import binascii
import errno
import os
import time

from croupier.journal import _CLOSED, _TMP, Game, unseal, write_sealed

_EPOCH = "epoch"


def start(journal):
    """Open the journal: its folders, its head (rebuilt when missing or damaged), the
    records of its active segment, and the time from its clock."""
    _ensure_dirs(journal)
    head = journal._read_head()
    rebuilt = head is None
    if rebuilt:
        head = rebuilt_head(journal)
    journal.epoch = head["epoch"]
    journal.boots = head["boots"] + 1  # on the flash once count_boot() has run
    journal._counted = False
    journal.acked = head.get("acked", 0)  # the highest seq a host acknowledged (`ack`)
    journal._segment = head["segment"]  # first seq of the active segment
    game = head["game"]
    journal._game = Game(*game) if game else None
    journal._next_seq = journal._segment
    journal._in_segment = 0
    journal._closed = None  # first seqs of the closed segments, read once after each change
    if rebuilt:  # what the next boot reads: written now, before the scan changes game
        try:
            journal._write_head(journal._segment, game)
        except OSError:
            pass  # a full flash: rebuilt again at the next boot
    for name in os.listdir(journal.path):  # a segment closed just before a power cut
        if name.endswith(".log") and int(name[:-4]) != journal._segment:
            journal._archive(int(name[:-4]))
    scan_active(journal)
    clock = journal._clock
    if clock is not None:
        try:
            epoch = clock.now()
        except OSError:
            epoch = None  # the module went quiet since the probe: no time, as without one
        if epoch is not None:
            journal._clock_offset = epoch - int(time.time())


def _ensure_dirs(journal):
    # mkdir, not stat: littlefs finishes a move that a power cut interrupted only at its
    # first write (mkdir is one, whether or not the folder exists); until then a lookup
    # can miss what is there: the closed folder, or the head (and a journal without a
    # head starts afresh).
    for folder in (journal.path, journal._file(_CLOSED)):
        try:
            os.mkdir(folder)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise


def rebuilt_head(journal):
    """The head is missing (a new journal) or unreadable (a damaged flash). Replay every
    record kept, so none is lost: the unfinished game comes back if all its records are
    still here (acked segments are gone). The log epoch comes from its own file, written
    once; a new journal, or one whose epoch is unreadable too, gets a new epoch (a host
    then stores what it had already synced a second time). The head then points at a
    new segment after the last record."""
    logs = []
    for folder in (journal.path, journal._file(_CLOSED)):
        logs += [(int(name[:-4]), folder + "/" + name) for name in os.listdir(folder)
                 if name.endswith(".log")]
    logs.sort()
    epoch = journal._read_sealed(_EPOCH) if logs else None
    if not isinstance(epoch, str):
        epoch = binascii.hexlify(os.urandom(4)).decode()
        with open(journal._file(_EPOCH), "wb") as f:
            write_sealed(epoch, f.write)
    journal._game = None
    journal._next_seq = 1
    journal._in_segment = 0  # counted by _note; the caller starts a new segment anyway
    for first, name in logs:
        journal._next_seq = first  # after a damaged segment, the next one goes on
        _replay(journal, name)
    return {"epoch": epoch, "boots": 0, "segment": journal._next_seq, "acked": 0,
            "game": journal._game.snapshot() if journal._game else None}


def scan_active(journal):
    """Replay the active segment onto the head's snapshot; cut a bad tail off."""
    name = journal._segment_file(journal._segment)
    good, bad_tail = _replay(journal, name)
    if bad_tail:
        _keep_prefix(name, good)


def _replay(journal, name):
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
            if not _valid_next(journal, record):
                return good, True
            journal._note(record)
            good += len(line)
    return good, False


def _valid_next(journal, record):
    return (isinstance(record, list) and 5 <= len(record) <= 6
            and record[0] == journal._next_seq and isinstance(record[3], str))


def _keep_prefix(name, size):
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
