# The journal's side that only a host's sync needs: reading the records out page by page
# (`log`), deleting what a host holds (`ack`) and setting the clock (`clock`). link_box
# loads it for those requests and the link drops it with link_box: a game's inputs never
# need its code in the heap. Each function takes the Journal it works on (its closed-segment
# list is cached there, _closed).
import json
import os
import time

from croupier.journal import _CLOSED, _payload


def _segments(journal):
    """First seqs of the segments, closed ones and the active one, ascending. The closed
    folder is listed only after it changed: a sync asks for page after page, and each
    listing is a walk through littlefs's metadata."""
    if journal._closed is None:
        closed = [int(name[:-4]) for name in os.listdir(journal._file(_CLOSED))
                  if name.endswith(".log")]
        closed.sort()
        journal._closed = closed
    return journal._closed + [journal._segment]


def each_record(journal, from_seq, max_records, take):
    """take(text) for up to max_records records with seq >= from_seq, oldest first: text
    is the record's canonical JSON as the journal holds it (a view of the line read), so a
    `log` page goes out as it is stored, with no parsing, no copy, no writing out again and
    no list of it in the heap. A segment's records stop at its first damaged line. -> how
    many were taken."""
    taken = 0
    firsts = _segments(journal)
    for i in range(len(firsts)):
        if i + 1 < len(firsts) and firsts[i + 1] <= from_seq:
            continue  # wholly before from_seq
        try:
            f = open(journal._segment_file(firsts[i]), "rb")
        except OSError:
            continue
        with f:
            for line in f:
                payload = _payload(line)
                if payload is None:
                    break
                if taken or int(line[1:line.find(b",")]) >= from_seq:  # `[seq,`
                    take(payload)
                    taken += 1
                    if taken >= max_records:
                        return taken
    return taken


def records(journal, from_seq, max_records):
    """Up to max_records records with seq >= from_seq, oldest first, each
    [seq, time, game_id, kind, data, [boot, ms]] (or the first five, as older firmware
    wrote them)."""
    out = []
    each_record(journal, from_seq, max_records, lambda text: out.append(json.loads(text)))
    return out


def ack(journal, upto):
    """The host holds every record <= upto: delete the closed segments it covers, and
    remember upto (so a host can tell which records no host holds yet)."""
    firsts = _segments(journal)
    for i in range(len(firsts)):
        if firsts[i] >= journal._segment:
            break  # the active segment stays
        end = (firsts[i + 1] if i + 1 < len(firsts) else journal._segment) - 1
        if end <= upto:
            journal._closed = None
            os.remove(journal._segment_file(firsts[i]))
    if upto > journal.acked:
        journal.acked = upto
        journal._rewrite_head()


def set_time(journal, epoch):
    """Set the clock (Unix seconds), the real-time clock module's too; records written
    before carry a null time unless the module gave it at boot. ValueError (the module
    cannot hold that date) or OSError (it did not answer): the time is as it was."""
    if journal._clock is not None:
        journal._clock.set(int(epoch))
    journal._clock_offset = int(epoch) - int(time.time())
