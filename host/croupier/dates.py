"""When each journal record was made, as tightly as the journal tells, and how dates are shown.

A record carries the board's Unix time when the board knew it (a real-time clock, or a `clock`
from a sync), and `[boot, ms]`: the journal's power-up count and the milliseconds since that
power-up. The host adds sightings: at each sync, `hello` said "boot B, uptime U ms, last seq L"
while the host's clock read between t0 (asked) and t1 (answered).

Every power-up is a run of events (records and sightings, in journal order) on one clock that
started at an unknown moment S; a single event with a known time pins S, so all the run's
events. Runs follow one another: a power-up starts after the last event of the one before,
and a record made before a sighting happened before the sighting's answer. Those two facts,
propagated forwards (lower bounds) and backwards (upper bounds), give each record the tightest
[lo, hi] the journal allows. A side that nothing bounds stays None.
"""
import math
import time
from datetime import datetime, timezone

BOARD_STAMP_SLACK = 2  # s: the board's whole seconds, set from the host's whole seconds
EXACT_WITHIN = 60      # s: bounds this close are shown as one date, to the minute


class Event:
    """One thing the board did at a moment: `known` is (lo, hi) in host seconds, sides may be None."""

    def __init__(self, boot, ms, known):
        self.boot, self.ms, self.known = boot, ms, known


def record_event(time_stamp, boot_ms):
    """The event of a record: its board time (if any) and its [boot, ms] (if any)."""
    known = (time_stamp - BOARD_STAMP_SLACK, time_stamp + BOARD_STAMP_SLACK) if time_stamp is not None else (None, None)
    boot, ms = boot_ms if boot_ms else (None, None)
    return Event(boot, ms, known)


def _max(a, b):
    return b if a is None else a if b is None else max(a, b)


def _min(a, b):
    return b if a is None else a if b is None else min(a, b)


def _shift(value, seconds):
    return None if value is None else value + seconds


def _runs(events):
    """Split events into power-ups: a new one at every event without a boot count, at a change
    of boot count, and where the ms go backwards (a power-up the count missed)."""
    runs = []
    for event in events:
        last = runs[-1][-1] if runs else None
        if (last is None or event.boot is None or last.boot is None or event.boot != last.boot
                or event.ms < last.ms):
            runs.append([event])
        else:
            runs[-1].append(event)
    return runs


def _offset(event):
    """Seconds from its run's start to the event (0 when the board gave no ms)."""
    return (event.ms or 0) / 1000.0


def _gap(before, after):
    """The least time from the start of run `before` to the start of run `after`. A new
    power-up starts after the previous one's last event; an event without a boot count may
    share its power-up with the next run (a sighting by hello of older firmware), so then
    only their events keep their order."""
    if before[-1].boot is not None:
        return _offset(before[-1])
    return _offset(before[-1]) - _offset(after[0])


def bounds(events):
    """[(lo, hi)] per event, in the order given (journal order), each side a float or None.
    A run's start is its power-up (or, for an event without ms, the event itself)."""
    runs = _runs(events)
    starts = []
    for run in runs:  # what each run's own events say about its start
        lo = hi = None
        for event in run:
            lo = _max(lo, _shift(event.known[0], -_offset(event)))
            hi = _min(hi, _shift(event.known[1], -_offset(event)))
        if lo is not None and hi is not None and lo > hi:
            lo, hi = hi, lo  # clocks that disagree: keep the span between them, not one of them
        starts.append([lo, hi])
    gaps = [_gap(before, after) for before, after in zip(runs, runs[1:])]
    for i in range(1, len(runs)):  # a run starts after the previous run's last event ...
        starts[i][0] = _max(starts[i][0], _shift(starts[i - 1][0], gaps[i - 1]))
    for i in range(len(runs) - 2, -1, -1):  # ... so that run ended before the next one's start
        starts[i][1] = _min(starts[i][1], _shift(starts[i + 1][1], -gaps[i]))
    out = []
    for run, (lo, hi) in zip(runs, starts):
        out += [(_shift(lo, _offset(e)), _shift(hi, _offset(e))) for e in run]
    return [(hi, lo) if lo is not None and hi is not None and lo > hi else (lo, hi) for lo, hi in out]


# -- showing dates ---------------------------------------------------------------------------
def exact(lo, hi):
    """The moment, when the bounds are close enough to be one date; else None."""
    if lo is None or hi is None or hi - lo > EXACT_WITHIN:
        return None
    return (lo + hi) / 2


def _local(t, fmt):
    return time.strftime(fmt, time.localtime(t))


CAPTION = "dates: ~ on that day, a/b between those days, ≤ no later than, ? unknown"


def show(lo, hi):
    """A date for a table, in local time:
    `2026-11-30 14:02` known; `~2026-11-30` that day; `2026-11-28/30` between those days;
    `≤ 2026-11-30 14:02` no later; `≥ 2026-11-30 14:02` no earlier; `?` unknown."""
    moment = exact(lo, hi)
    if moment is not None:
        return _local(moment, "%Y-%m-%d %H:%M")
    if lo is not None and hi is not None:
        first, last = _local(lo, "%Y-%m-%d"), _local(hi, "%Y-%m-%d")
        if first == last:
            return "~" + first
        # an ISO 8601 interval: the end keeps only what differs from the start
        same = 8 if first[:8] == last[:8] else 5 if first[:5] == last[:5] else 0
        return "%s/%s" % (first, last[same:])
    if hi is not None:
        return "≤ " + _local(hi, "%Y-%m-%d %H:%M")
    if lo is not None:
        return "≥ " + _local(lo, "%Y-%m-%d %H:%M")
    return "?"


def iso(t, to_second=round):
    """ISO 8601 in UTC to the second (`2026-11-30T14:02:05Z`), or "" for None."""
    if t is None:
        return ""
    return datetime.fromtimestamp(to_second(t), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_fields(name, lo, hi):
    """{name: the moment when known, name_min, name_max: the bounds, widened to whole
    seconds}, ISO 8601 ("" = none)."""
    return {name: iso(exact(lo, hi)), name + "_min": iso(lo, math.floor), name + "_max": iso(hi, math.ceil)}
