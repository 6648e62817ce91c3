# The link's requests about the box rather than the game (docs/protocol.md): hello (and the
# boot event's fields), screen, log, ack, roster, get_roster, clock. Each is a function
# (link, request) -> result fields, like Link's own handlers. The link loads this module
# for such a request and drops it once the request is answered (journal_sync too, which
# `log`, `ack` and `clock` load): between them their code takes no heap, and a game's
# inputs never need it.
from micropython import const
import binascii

import croupier
from croupier.link import LINE_MAX, MAX_NAMES, PROTO, WINDOW, RequestError, _names

LOG_PAGE = const(64)  # most records one `log` reply carries (`hello`'s log_max): a segment
_LOG_DEFAULT = const(32)  # records of a `log` request without `max` (what protocol 1 began with)
_B64_SLICE = const(96)  # bytes encoded at a time: a multiple of 3, so no padding inside


class Base64:
    """A reply value sent as a base64 JSON string straight from a buffer, encoded and
    written a slice at a time."""

    def __init__(self, data):
        self.data = data

    def stream(self, sealer):
        data = self.data
        piece = sealer.piece
        piece('"')
        view = memoryview(data)
        for start in range(0, len(data), _B64_SLICE):
            piece(binascii.b2a_base64(view[start:start + _B64_SLICE], newline=False).decode())
            sealer.flush()
        piece('"')


class Canonical:
    """A reply value that is a list of values already written as canonical JSON, streamed:
    each(take) calls take(text) for every one (journal records as stored: bytes, or a view
    of them). They go out as they are read, so a page of any length needs no room in the
    heap."""

    def __init__(self, each):
        self.each = each

    def stream(self, sealer):
        """The JSON list of the texts each(take) gives, through sealer."""
        self._write = sealer.write  # bytes written at once: no str piece waits behind them
        self.sep = b"["
        self.each(self.take)
        sealer.write(b"]" if self.sep == b"," else b"[]")

    def take(self, text):
        """One more item of the list, after the separator it needs, each written as it is
        (nothing joined: a page of records gathered would be a page long)."""
        self._write(self.sep)
        self._write(text)
        self.sep = b","


def _int(value, name, low=0):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RequestError("bad_args", "%s must be an integer >= %d" % (name, low))
    return value


def hello_fields(link, out):
    journal = link.journal
    out["device"] = link.board.unique_id()
    out["fw"] = croupier.VERSION
    out["proto"] = PROTO
    out["board"] = link.board.NAME
    out["boot"] = journal.boots
    out["uptime_ms"] = journal.uptime_ms()  # the clock of the records' [boot, ms]
    out["log_epoch"] = journal.epoch
    out["last_seq"] = journal.last_seq
    out["acked"] = journal.acked
    out["log_max"] = LOG_PAGE
    out["line_max"] = LINE_MAX
    out["window"] = WINDOW
    keypad = link.keypad
    out["keys"] = {"registered": keypad.registered, "refused": keypad.refused, "handled": keypad.handled}
    return out


def hello(link, request):
    return hello_fields(link, {})


def screen(link, request):
    display = link.display
    return {"w": display.width, "h": display.height, "fb": Base64(display.buffer)}


def log(link, request):
    from croupier import journal_sync

    start = _int(request.get("from", 0), "from")
    most = min(_int(request.get("max", _LOG_DEFAULT), "max", 1), LOG_PAGE)
    journal = link.journal

    def each(take):
        journal_sync.each_record(journal, start, most, take)

    return {"records": Canonical(each), "last_seq": journal.last_seq,
            "log_epoch": journal.epoch}


def ack(link, request):
    from croupier import journal_sync

    journal = link.journal
    upto = _int(request["upto"], "upto")
    if upto > journal.last_seq:
        raise RequestError("bad_args", "upto %d is beyond last_seq %d"
                           % (upto, journal.last_seq))
    # Deleting the segments and storing `acked` are flash erases and writes (half a
    # second on the chip): the host waits for the answer, not for them. They are done
    # before the next request is read, so every later answer knows them.
    link._after_answer = lambda: journal_sync.ack(journal, upto)


def roster(link, request):
    """`names` replaces the roster, or with `add` true is appended to it (a host splits
    a roster too long for one request)."""
    add = request.get("add", False)
    if not isinstance(add, bool):
        raise RequestError("bad_args", "add must be true or false")
    names = _names(request["names"], "names", 0)
    controller = link.controller
    kept = controller.roster if add else []
    if len(kept) + len(names) > MAX_NAMES:
        raise RequestError("bad_args", "the roster holds at most %d names; it has %d"
                           % (MAX_NAMES, len(kept)))
    controller.roster = kept + names


def get_roster(link, request):
    return {"names": link.controller.roster}


def clock(link, request):
    from croupier import journal_sync

    try:
        journal_sync.set_time(link.journal, _int(request["epoch"], "epoch"))
    except ValueError as exc:  # a date the real-time clock module cannot hold
        raise RequestError("bad_args", str(exc))
