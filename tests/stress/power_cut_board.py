"""Power cuts at random block writes while the whole firmware plays on the virtual board.

The host plays Lobo 77 and BASTA games over the link (cards, undos, redos, a new game after
each game over) and the board loses power at a random one of the next flash writes, over and
over. After every power-up it checks that the game resumes at the last confirmed input (the
one in flight at the cut may be applied or not), that the journal (`log` from seq 0) has no
gap, no duplicate and nothing corrupt, holds exactly the inputs the host saw confirmed, and
replays (croupier.sync.replay) to the device's state.

    .venv/bin/python tests/stress/power_cut_board.py [--cuts 200] [--seed 0] [--within 100]
"""
import argparse
import copy
import random
import sys
import time
from pathlib import Path

from croupier.commands.demo import DECKS
from croupier.rules import Illegal, new_game
from croupier.rules.canon import dumps as canon
from croupier.sim import VirtualBoard
from croupier.sync import ReplayError, replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))
from fwlink import HEAP, frame, frames_on, wait_for_boot  # noqa: E402 (the firmware tests' protocol helpers)

GAMES = (("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"]))
INPUTS_PER_CUT = 400  # inputs sent before a cut that never strikes is a failure
REPLY_POLL = 0.2  # seconds between looks at the power while a reply is awaited
REPLY_TIMEOUT = 10.0
LOG_PAGE = 32
KINDS = ("new", "play", "undo", "redo", "end", "abandon")  # the record kinds of the journal


class Failure(AssertionError):
    pass


def apply(engine, kind, data):
    """One confirmed input on the host's rules engine; `new` returns a fresh engine."""
    if kind == "new":
        return new_game(data["game"], data["players"])
    if kind == "play":
        engine.play(data)
    else:
        getattr(engine, kind)()
    return engine


def resumed_views(engine):
    """The states the device may show after a power-up with this engine's game in its
    journal: an unfinished game as it was; a finished one is not resumed (None), even when
    the cut fell between its last input and its `end` record (the firmware writes the missing
    `end` at boot)."""
    if engine is None:
        return [None]
    state = engine.state()
    return [None] if state["over"] else [state]


class Host:
    """What the host has seen confirmed: the inputs, in order, and the engine they build."""

    def __init__(self, rng):
        self.rng = rng
        self.engine = None
        self.confirmed = []  # (kind, data) of every confirmed input, `new` included
        self.games = 0

    def next_input(self):
        """A random input the rules accept now: a new game after a game over, else mostly
        legal cards, sometimes an undo or a redo."""
        if self.engine is None or self.engine.state()["over"]:
            game, players = GAMES[self.games % len(GAMES)]
            return "new", {"game": game, "players": players}
        roll = self.rng.random()
        if roll < 0.08 and self.engine.can_undo():
            return "undo", None
        if roll < 0.12 and self.engine.can_redo():
            return "redo", None
        deck = DECKS[self.engine.setup()["game"]]
        for card in self.rng.sample(deck, len(deck)):
            try:
                self.engine.peek(card)
                return "play", card
            except Illegal:
                continue
        raise Failure("no legal card in %s" % canon(self.engine.state()))

    def after(self, kind, data):
        """The engine as it would be with this input applied (the host's own is unchanged)."""
        return apply(None if kind == "new" else copy.deepcopy(self.engine), kind, data)

    def confirm(self, kind, data, engine):
        self.engine = engine
        self.confirmed.append((kind, data))
        self.games += kind == "new"


class Run:
    def __init__(self, vb, frames, seed, within):
        self.vb, self.frames, self.seed, self.within = vb, frames, seed, within
        self.host = Host(random.Random(seed))
        self.records = 0
        self.inputs = 0
        self.in_flight_applied = 0
        self.next_id = 1 << 20  # request ids of its own, apart from those of Frames.call

    # -- one cut ------------------------------------------------------------------------------
    def cut(self, n):
        """Arm a cut, play until it strikes, power up and check everything."""
        at = self.vb.cut_power(within=self.within, seed=self.seed * 100003 + n)
        pending = None
        for _ in range(INPUTS_PER_CUT):
            kind, data = self.host.next_input()
            answer = self.send(kind, data)
            if answer is None:  # the power went while the input was in flight
                pending = (kind, data)
                break
            if answer.get("ok") is not True:
                raise Failure("%s %s refused: %s" % (kind, canon(data), answer))
            engine = self.host.after(kind, data)
            if canon(answer["state"]) != canon(engine.state()):
                raise Failure("%s %s answered a state that the rules do not give" % (kind, canon(data)))
            self.host.confirm(kind, data, engine)
            self.inputs += 1
        else:
            raise Failure("the cut armed at write %d never struck in %d inputs" % (at, INPUTS_PER_CUT))
        self.vb.wait_off()
        self.vb.restart()
        self.frames.events.clear()
        self.frames.noise.clear()
        boot = wait_for_boot(self.frames)
        self.check(boot, pending)

    def send(self, kind, data):
        """The answer to one input, or None when the board lost power before answering."""
        args = {"game": data["game"], "players": data["players"]} if kind == "new" else (
            {"card": data} if kind == "play" else {})
        self.next_id += 1
        rid = self.next_id
        self.frames.send_raw(frame(dict(args, id=rid, cmd=kind)))
        deadline = time.monotonic() + REPLY_TIMEOUT
        while time.monotonic() < deadline:
            try:
                return self.frames.reply(rid, timeout=REPLY_POLL)
            except AssertionError:
                if not self.vb.powered:
                    break
        else:
            raise Failure("no answer to %s %s within %.0f s, board still on" % (kind, canon(data), REPLY_TIMEOUT))
        try:  # an answer sent just before the cut may still be on its way
            return self.frames.reply(rid, timeout=REPLY_POLL)
        except AssertionError:
            return None

    # -- the checks after a power-up ------------------------------------------------------------
    def check(self, boot, pending):
        state = self.frames.ok("state")["state"]
        if pending is not None and self.matches(state, self.host.after(*pending)) and \
                not self.matches(state, self.host.engine):
            self.host.confirm(pending[0], pending[1], self.host.after(*pending))
            self.in_flight_applied += 1
            pending = None
        if not self.matches(state, self.host.engine):
            raise Failure("the device resumed at %s, the last confirmed input gives %s (in flight: %s)" % (
                canon(state), canon(self.host.engine and self.host.engine.state()), pending))
        records = self.journal(boot["last_seq"])
        self.check_inputs(records, pending)
        self.check_replay(records, state)

    def matches(self, state, engine):
        return any(canon(state) == canon(view) for view in resumed_views(engine))

    def journal(self, last_seq):
        """Every record from seq 0, checking seqs run 1..last_seq without a gap or a repeat."""
        records = []
        while len(records) < last_seq:
            page = self.frames.ok("log", **{"from": len(records) + 1, "max": LOG_PAGE})["records"]
            if not page:
                break
            records += page
        for rec in records:
            if not (isinstance(rec, list) and len(rec) == 6 and isinstance(rec[0], int) and rec[1] is None
                    and isinstance(rec[2], int) and rec[3] in KINDS):
                raise Failure("corrupt journal record %r" % (rec,))
        seqs = [r[0] for r in records]
        if seqs != list(range(1, last_seq + 1)):
            raise Failure("journal seqs are not 1..%d: %s" % (last_seq, _gaps(seqs)))
        if last_seq < self.records:
            raise Failure("the journal shrank from %d to %d records" % (self.records, last_seq))
        self.records = last_seq
        return records

    def check_inputs(self, records, pending):
        """The journal's inputs are exactly the confirmed ones: none lost, none twice, none
        made up; the in-flight one is not there (it was found not applied)."""
        logged = [(r[3], {"game": r[4]["game"], "players": r[4]["players"]} if r[3] == "new" else r[4])
                  for r in records if r[3] not in ("end", "abandon")]
        confirmed = self.host.confirmed
        if canon(logged) != canon(confirmed):
            first = next((i for i, pair in enumerate(zip(logged, confirmed)) if canon(pair[0]) != canon(pair[1])),
                         min(len(logged), len(confirmed)))
            raise Failure("journal inputs differ from the confirmed ones at input %d: journal %s, host %s "
                          "(%d vs %d inputs, in flight %s)" % (
                              first, logged[first:first + 3], confirmed[first:first + 3],
                              len(logged), len(confirmed), pending))
        if records and records[-1][3] == "play" and self.host.engine.state()["over"]:
            raise Failure("the finished game has no `end` record after the restart")

    def check_replay(self, records, state):
        """Each game's records replay through the rules; the last one to the device's state."""
        games = {}
        for rec in records:
            games.setdefault(rec[2], []).append(rec)
        last = max(games) if games else None
        for game_id, recs in games.items():
            try:
                replay(recs, state if game_id == last and state is not None else None)
            except ReplayError as exc:
                raise Failure("journal does not replay: %s" % exc)


def _gaps(seqs):
    dups = sorted({s for s in seqs if seqs.count(s) > 1})
    missing = sorted(set(range(1, max(seqs or [0]) + 1)) - set(seqs))
    return "missing %s, repeated %s" % (missing[:10], dups[:10])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--within", type=int, default=100, help="the cut strikes at a random one of the next N writes")
    args = parser.parse_args(argv)
    started = time.monotonic()
    failures = []
    with VirtualBoard(heap=HEAP) as vb, frames_on(vb.port, boot=True) as frames:
        run = Run(vb, frames, args.seed, args.within)
        for n in range(args.cuts):
            try:
                run.cut(n)
            except (AssertionError, TimeoutError) as exc:  # Failure, or fwlink's own checks
                failures.append("seed %d cut %d: %s" % (args.seed, n, exc))
                print("FAIL " + failures[-1], flush=True)
                break  # the host's picture of the game is no longer trustworthy
            if (n + 1) % 20 == 0:
                print("%d cuts, %d records" % (n + 1, run.records), flush=True)
        print("cuts %d, inputs confirmed %d, records %d, games %d, resumes verified %d, in-flight inputs "
              "found applied %d, failures %d, %.0f s" % (
                  n + 1 - bool(failures), run.inputs, run.records, run.host.games, n + 1 - bool(failures),
                  run.in_flight_applied, len(failures), time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
