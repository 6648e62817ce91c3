"""Pull a board's journal into the database, rebuilding and verifying every game on the way.

Each sync of a journal (device, log_epoch) starts after the highest seq the database holds,
or after the board's `acked` when a host acknowledged more: those records went to another
database, or were the HIL suite's own, and are skipped. Records
that do not replay are not stored (nor anything after them), so they are pulled, and
refused, again until the board's journal is mended.
"""
import time
from collections import deque

from croupier.link import DeviceError, LinkError, LinkTimeout
from croupier.plural import count
from croupier.rules import Illegal, SetupError, new_game
from croupier.rules.canon import dumps as canon
from croupier.scoring import score

PAGE_MAX = 32            # records asked for per `log` request from a board without `log_max`
PAGE_GROWTH = 4          # records added to the page size after each intact page
PAGE_TIMEOUT = 1.5       # seconds to wait for one page, and for each record asked:
RECORD_SECONDS = 0.01    # 115 bytes at 115200 baud (most records are 30 to 60)
STALL_TIMEOUT = 20       # seconds without an intact page before giving up (a reboot fits)


class ReplayError(ValueError):
    """Records that the rules engine does not accept, or that end in another state."""

    def __init__(self, game_id, seq, reason):
        super().__init__("game %s, record %s: %s" % (game_id, seq, reason))
        self.game_id, self.seq, self.reason = game_id, seq, reason


# -- replay ---------------------------------------------------------------------------------
def _differences(mine, theirs):
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return "replay gives %s, the device has %s" % (canon(mine), canon(theirs))
    keys = sorted(k for k in set(mine) | set(theirs) if canon(mine.get(k)) != canon(theirs.get(k)))
    return "; ".join("%s: replay gives %s, the device has %s" % (k, canon(mine.get(k)), canon(theirs.get(k)))
                     for k in keys)


def _apply(engine, kind, data):
    if kind == "play":
        engine.play(data)
    elif kind in ("undo", "redo"):
        getattr(engine, kind)()
    else:
        raise Illegal("unknown record kind %r" % kind)


def replay(records, expected_state=None):
    """Rebuild one game from its records (seq order). Returns (game row, seat results).

    The game row has the columns of store.GAME_COLUMNS except device/log_epoch.
    Raises ReplayError naming the first record that does not replay.
    """
    seq0, started, game_id, kind, setup = records[0][:5]
    if kind != "new":
        raise ReplayError(game_id, seq0, "the game's first record is %r, not 'new' "
                          "(earlier records are no longer on the device)" % kind)
    try:
        engine = new_game(setup["game"], setup["players"], setup.get("options") or {})
    except (SetupError, KeyError, TypeError) as exc:
        raise ReplayError(game_id, seq0, "cannot set the game up: %s" % exc)
    status, ended = "playing", None
    for seq, when, _, kind, data in (r[:5] for r in records[1:]):
        if status != "playing":
            raise ReplayError(game_id, seq, "record %r after the game ended" % kind)
        if kind == "end":
            if canon(engine.state()) != canon(data):
                raise ReplayError(game_id, seq, "final state differs: " + _differences(engine.state(), data))
            status, ended = "over", when
        elif kind == "abandon":
            status, ended = "abandoned", when
        else:
            try:
                _apply(engine, kind, data)
            except Illegal as exc:
                raise ReplayError(game_id, seq, "%s %s does not replay: %s" % (kind, canon(data), getattr(exc, "reason", exc)))
    final = engine.state()
    if expected_state is not None and canon(final) != canon(expected_state):
        raise ReplayError(game_id, records[-1][0], "the device's current state differs: " + _differences(final, expected_state))
    if status == "playing" and final.get("over"):
        status = "over"
    game = {"game_id": game_id, "game": setup["game"], "status": status, "started": started, "ended": ended,
            "options": engine.setup().get("options", {}), "final_state": final}
    game["timeline"], results = score(setup, engine.inputs, final)
    return game, results


# -- pulling --------------------------------------------------------------------------------
def _is_boot_ms(value):
    """A record's [boot, ms]: the journal's power-up count and the ms since that power-up."""
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value))


def _check_record(rec, after):
    """[seq, time, game_id, kind, data] or, from firmware that counts its power-ups, with
    [boot, ms] as a sixth element."""
    ok = (isinstance(rec, list) and len(rec) in (5, 6) and isinstance(rec[0], int) and rec[0] > after
          and (rec[1] is None or isinstance(rec[1], int)) and isinstance(rec[2], int) and isinstance(rec[3], str)
          and (len(rec) == 5 or _is_boot_ms(rec[5])))
    if not ok:
        raise LinkError("the device sent a malformed journal record after seq %s: %r" % (after, rec))


def _page_size(hello):
    """(records to ask per `log` page, whether pages can be asked ahead) of the board that
    answered `hello`: one that names its `log_max` fills every page to `max` while records
    remain; older firmware stops a page at 32 records or about 2 KB."""
    most = hello.get("log_max")
    if isinstance(most, int) and not isinstance(most, bool) and most >= 1:
        return most, True
    return PAGE_MAX, False


def pull(link, log_epoch, start, on_page=None, page_max=PAGE_MAX, ahead=False, last_seq=None):
    """Records with seq >= start, page by page, at most page_max a page; pages shrink while
    answers get lost. on_page(records pulled, records to pull in all) after each page.

    ahead (a board that fills every page, see _page_size): the next page is asked for while
    this one is still on the line, from the seq this one ends at, so the board never idles
    while the host reads a page and asks again. A page that did not end there after all (it
    skipped the damaged rest of a segment on the board) leaves the one asked ahead not
    following on: that one is dropped and asked again. last_seq (the board's, from `hello`):
    nothing is asked ahead beyond it. A page is asked for only when its request fits the
    link's window (Link.send waits for room), whatever the page's size: answers cost none."""
    records, page, after = [], page_max, start - 1
    asked = deque()  # (request id, from, max) of the pages asked and not yet answered
    give_up_at = time.monotonic() + STALL_TIMEOUT
    while True:
        ask_from = asked[-1][1] + asked[-1][2] if asked else after + 1
        while not asked or (ahead and len(asked) < 2 and last_seq is not None and ask_from <= last_seq):
            asked.append((link.send("log", max=page, **{"from": ask_from}), ask_from, page))
            ask_from += page
        rid, first, most = asked.popleft()
        try:
            answer = link.answer("log", rid, timeout=PAGE_TIMEOUT + most * RECORD_SECONDS)
        except (LinkTimeout, DeviceError) as exc:
            # a lost page, or a board short of memory for it ("internal", "busy"): ask for less
            if isinstance(exc, DeviceError) and exc.error not in ("internal", "busy"):
                raise
            if time.monotonic() > give_up_at:
                raise LinkError("no intact journal page from the board for %d s; nothing was stored, "
                                "run sync again (%s)" % (STALL_TIMEOUT, exc)) from exc
            page = max(1, page // 2)
            asked.clear()  # their answers, if they come, answer no request asked from now on
            continue
        if answer.get("log_epoch") != log_epoch:
            raise LinkError("the board's journal was wiped or replaced during sync; nothing was stored, "
                            "run sync again")
        if first != after + 1:  # asked ahead, but the page before did not end where expected
            asked.clear()
            continue
        give_up_at = time.monotonic() + STALL_TIMEOUT
        page = min(page_max, page + PAGE_GROWTH)  # grow gently: halve on loss
        page_records = answer.get("records") or []
        for rec in page_records:
            _check_record(rec, after)
            records.append(rec)
            after = rec[0]
        last_seq = answer.get("last_seq", after)
        done = not page_records or after >= last_seq
        if on_page:
            # seqs have no gaps after the first record the board still holds, so what is left
            # is last_seq - after
            on_page(len(records), len(records) + (0 if done else last_seq - after))
        if done:
            return records


class Sighting:
    """What a `hello` tells about the time: the board was up `uptime_ms` into power-up `boot`,
    with `last_seq` written, at some moment between asking and hearing the answer."""

    def __init__(self, hello, asked, answered):
        self.last_seq, self.asked, self.answered = hello["last_seq"], asked, answered
        boot, uptime = hello.get("boot"), hello.get("uptime_ms")
        self.boot_ms = [boot, uptime] if _is_boot_ms([boot, uptime]) else None

    def row(self):
        """(after_seq, t_min, t_max, boot, ms) for Store.add_sighting."""
        boot, ms = self.boot_ms or (None, None)
        return self.last_seq, self.asked, self.answered, boot, ms


# -- one sync -------------------------------------------------------------------------------
class SyncReport:
    def __init__(self, device, log_epoch):
        self.device, self.log_epoch = device, log_epoch
        self.pulled = self.added = 0
        self.games = []          # game rows saved
        self.refused = []        # ReplayError
        self.orphans = []        # ids of games whose start another database acknowledged
        self.cut = []            # ids of this database's games whose middle another one took
        self.missed = None       # (first, last) seqs acknowledged by another host, never here
        self.acked = None

    def lines(self):
        out = ["device %s (journal %s): %s pulled, %d new, %s updated"
               % (self.device, self.log_epoch, count(self.pulled, "record"), self.added, count(len(self.games), "game"))]
        if self.orphans:
            out.append("kept, without rebuilding, the records of game(s) %s: their beginning was synced to "
                       "another database and deleted from the board" % ", ".join(map(str, self.orphans)))
        if self.missed:
            out.append("records %d-%d were acknowledged by another database (or a `croupier hil` run), not "
                       "here: a game begun here that went on in them stays as last synced (`croupier games`: "
                       "went on elsewhere)" % self.missed)
        if self.cut:
            out.append("kept, without rebuilding, the later records of game(s) %s" % ", ".join(map(str, self.cut)))
        out += ["REFUSED %s" % err for err in self.refused]
        if self.acked is not None:
            out.append("acknowledged to the board: every record up to seq %d" % self.acked)
        return out


def _rebuild(store, device, log_epoch, pulled, current):
    """(rebuilt games, refusals, orphan game ids, cut game ids) for the games `pulled` touches.
    `current` is (game id, state) of the board's current game when the newest pulled record
    is its, else None."""
    by_game = {}
    for gid in {r[2] for r in pulled}:
        by_game[gid] = store.records(device, log_epoch, gid)
    for rec in pulled:
        by_game[rec[2]].append(rec)
    rebuilt, refused, orphans, cut = [], [], [], []
    for gid in sorted(by_game):
        if by_game[gid][0][0] != gid:
            # A game's id is the seq of its `new` record. When that seq never reached this
            # database, the board deleted it after another database acknowledged it: the
            # records are kept, but the game cannot be rebuilt here.
            orphans.append(gid)
            continue
        seqs = [r[0] for r in by_game[gid]]
        if seqs[-1] - seqs[0] != len(seqs) - 1:
            # A game's records follow each other. Some are missing here: another database
            # acknowledged them (report.missed). Kept, but no faithful replay.
            cut.append(gid)
            continue
        try:
            rebuilt.append(replay(by_game[gid], current[1] if current and current[0] == gid else None))
        except ReplayError as err:
            refused.append(err)
    return rebuilt, refused, orphans, cut


def sync(link, store, on_page=None, now=None):
    """Pull, verify and store everything new on the board behind `link`, then `ack` it."""
    asked = time.time()
    hello = link.hello()
    sighting = Sighting(hello, asked, time.time())
    device, log_epoch = hello["device"], hello["log_epoch"]
    link.call("clock", epoch=int(now if now is not None else time.time()))
    report = SyncReport(device, log_epoch)
    stored_last = store.synced_upto(device, log_epoch)
    # Records another host acknowledged are its own (a `croupier hil` run acknowledges its
    # test games so that no database takes them): never pulled here.
    start = max(0 if stored_last is None else stored_last + 1, hello.get("acked", 0) + 1)
    if stored_last is not None and start > stored_last + 1:
        report.missed = (stored_last + 1, start - 1)
    page_max, ahead = _page_size(hello)
    pulled = pull(link, log_epoch, start, on_page, page_max, ahead, hello["last_seq"])
    state = link.call("state").get("state")
    report.pulled = len(pulled)
    newest = pulled[-1] if pulled else None
    current = (newest[2], state) if state is not None and newest and newest[0] == hello["last_seq"] else None
    while True:
        rebuilt, refused, report.orphans, report.cut = _rebuild(store, device, log_epoch, pulled, current)
        if not refused:
            break
        report.refused = report.refused or refused
        # store only what precedes the first refused record: the database stays a journal prefix
        cut = min(err.seq for err in refused)
        kept = [r for r in pulled if r[0] < cut]
        if len(kept) == len(pulled):
            break  # the refusal is about records stored earlier: save the games that do replay
        pulled, current = kept, None
    with store.transaction():
        report.added = store.add_records(device, log_epoch, pulled)
        for game, results in rebuilt:
            game.update(device=device, log_epoch=log_epoch)
            store.save_game(game, results)
            report.games.append(game)
        store.note_sync(device, log_epoch, hello.get("board"), hello.get("fw"), int(time.time()))
        store.add_sighting(device, log_epoch, *sighting.row())
        store.date_journal(device, log_epoch)
    upto = store.synced_upto(device, log_epoch)
    if upto is not None:
        link.call("ack", upto=upto)
        report.acked = upto
    return report
