"""Pull a board's journal into the database, rebuilding and verifying every game on the way.

The database always holds a prefix of each journal (device, log_epoch): the next sync starts
after the highest stored seq, and records that do not replay are not stored (nor anything
after them), so they are pulled, and refused, again until the board's journal is mended.
"""
import time

from croupier.link import DeviceError, LinkError, LinkTimeout
from croupier.rules import Illegal, SetupError, new_game
from croupier.rules.canon import dumps as canon

PAGE_MAX = 32            # records asked for per `log` request
PAGE_GROWTH = 4          # records added to the page size after each intact page
PAGE_TIMEOUT = 1.5       # seconds to wait for one page
STALL_TIMEOUT = 20       # seconds without an intact page before giving up (a reboot fits)
# The per-player count a game charts; for the games whose count is tokens paid, its fall is
# each player's "tokens lost".
METERS = {"lobo77": "tokens", "basta": "penalties", "maumau": "score", "maumau_match": "score", "factors": "score", "duo": "score"}
TOKEN_METERS = ("tokens", "penalties")
COUNTED_EFFECTS = ("doublet", "bust", "eliminated")


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
    seq0, started, game_id, kind, setup = records[0]
    if kind != "new":
        raise ReplayError(game_id, seq0, "the game's first record is %r, not 'new' "
                          "(earlier records are no longer on the device)" % kind)
    try:
        engine = new_game(setup["game"], setup["players"], setup.get("options") or {})
    except (SetupError, KeyError, TypeError) as exc:
        raise ReplayError(game_id, seq0, "cannot set the game up: %s" % exc)
    status, ended = "playing", None
    for seq, when, _, kind, data in records[1:]:
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
    game["timeline"], results = _score(setup, engine.inputs, final)
    return game, results


def _meter(state, meter):
    return [p.get(meter) for p in state["players"]] if meter else []


def _score(setup, inputs, final):
    """Replay the accepted inputs on a fresh engine: the timeline to chart and per-seat counts."""
    engine = new_game(setup["game"], setup["players"], setup.get("options") or {})
    meter = METERS.get(setup["game"])
    start = engine.state()
    points = [[start.get("total"), _meter(start, meter)]]
    # Sized by the final seats: Mau-Mau players may join between rounds.
    counts = [dict.fromkeys(COUNTED_EFFECTS, 0) for _ in final["players"]]
    for card in inputs:
        for effect in engine.play(card):
            if effect.get("kind") in COUNTED_EFFECTS and effect.get("seat") is not None:
                counts[effect["seat"]][effect["kind"]] += 1
        state = engine.state()
        points.append([state.get("total"), _meter(state, meter)])
    first, last = points[0][1], points[-1][1]
    winners = set(final.get("winners") or []) if final.get("over") else set()
    results = []
    for seat, player in enumerate(final["players"]):
        lost = abs((last[seat] or 0) - (first[seat] or 0)) if meter in TOKEN_METERS else 0
        results.append({"seat": seat, "name": player["name"], "won": int(seat in winners), "tokens_lost": lost,
                        "doublets": counts[seat]["doublet"], "busts": counts[seat]["bust"],
                        "eliminated": int(counts[seat]["eliminated"] > 0)})
    return {"meter": meter, "points": points}, results


# -- pulling --------------------------------------------------------------------------------
def _check_record(rec, after):
    ok = (isinstance(rec, list) and len(rec) == 5 and isinstance(rec[0], int) and rec[0] > after
          and (rec[1] is None or isinstance(rec[1], int)) and isinstance(rec[2], int) and isinstance(rec[3], str))
    if not ok:
        raise LinkError("the device sent a malformed journal record after seq %s: %r" % (after, rec))


def pull(link, log_epoch, start, on_page=None):
    """Records with seq >= start, page by page; pages shrink while answers get lost."""
    records, page, after = [], PAGE_MAX, start - 1
    give_up_at = time.monotonic() + STALL_TIMEOUT
    while True:
        try:
            answer = link.call("log", timeout=PAGE_TIMEOUT, retries=0, max=page, **{"from": after + 1})
        except (LinkTimeout, DeviceError) as exc:
            # a lost page, or a board short of memory for it ("internal", "busy"): ask for less
            if isinstance(exc, DeviceError) and exc.error not in ("internal", "busy"):
                raise
            if time.monotonic() > give_up_at:
                raise LinkError("no intact journal page from the board for %d s; nothing was stored, "
                                "run sync again (%s)" % (STALL_TIMEOUT, exc)) from exc
            page = max(1, page // 2)
            continue
        give_up_at = time.monotonic() + STALL_TIMEOUT
        page = min(PAGE_MAX, page + PAGE_GROWTH)  # grow gently: halve on loss
        if answer.get("log_epoch") != log_epoch:
            raise LinkError("the board's journal was wiped or replaced during sync; nothing was stored, "
                            "run sync again")
        for rec in answer.get("records") or []:
            _check_record(rec, after)
            records.append(rec)
            after = rec[0]
        if on_page:
            on_page(after, answer.get("last_seq"))
        if not answer.get("records") or after >= answer.get("last_seq", after):
            return records


# -- one sync -------------------------------------------------------------------------------
class SyncReport:
    def __init__(self, device, log_epoch):
        self.device, self.log_epoch = device, log_epoch
        self.pulled = self.added = 0
        self.games = []          # game rows saved
        self.refused = []        # ReplayError
        self.orphans = []        # ids of games whose start another database acknowledged
        self.acked = None

    def lines(self):
        out = ["device %s (journal %s): %d record(s) pulled, %d new, %d game(s) updated"
               % (self.device, self.log_epoch, self.pulled, self.added, len(self.games))]
        if self.orphans:
            out.append("kept, without rebuilding, the records of game(s) %s: their beginning was synced to "
                       "another database and deleted from the board" % ", ".join(map(str, self.orphans)))
        out += ["REFUSED %s" % err for err in self.refused]
        if self.acked is not None:
            out.append("acknowledged to the board: every record up to seq %d" % self.acked)
        return out


def _rebuild(store, device, log_epoch, pulled, current):
    """(rebuilt games, refusals, orphan game ids) for the games `pulled` touches. `current` is
    (game id, state) of the board's current game when the newest pulled record is its, else None."""
    by_game = {}
    for gid in {r[2] for r in pulled}:
        by_game[gid] = store.records(device, log_epoch, gid)
    for rec in pulled:
        by_game[rec[2]].append(rec)
    rebuilt, refused, orphans = [], [], []
    for gid in sorted(by_game):
        if by_game[gid][0][0] != gid:
            # A game's id is the seq of its `new` record. When that seq never reached this
            # database, the board deleted it after another database acknowledged it: the
            # records are kept, but the game cannot be rebuilt here.
            orphans.append(gid)
            continue
        try:
            rebuilt.append(replay(by_game[gid], current[1] if current and current[0] == gid else None))
        except ReplayError as err:
            refused.append(err)
    return rebuilt, refused, orphans


def sync(link, store, on_page=None, now=None):
    """Pull, verify and store everything new on the board behind `link`, then `ack` it."""
    hello = link.hello()
    device, log_epoch = hello["device"], hello["log_epoch"]
    link.call("clock", epoch=int(now if now is not None else time.time()))
    report = SyncReport(device, log_epoch)
    stored_last = store.synced_upto(device, log_epoch)
    start = 0 if stored_last is None else stored_last + 1
    pulled = pull(link, log_epoch, start, on_page)
    state = link.call("state").get("state")
    report.pulled = len(pulled)
    newest = pulled[-1] if pulled else None
    current = (newest[2], state) if state is not None and newest and newest[0] == hello["last_seq"] else None
    while True:
        rebuilt, refused, report.orphans = _rebuild(store, device, log_epoch, pulled, current)
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
    upto = store.synced_upto(device, log_epoch)
    if upto is not None:
        link.call("ack", upto=upto)
        report.acked = upto
    return report
