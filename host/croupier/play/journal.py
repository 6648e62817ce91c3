"""The laptop's games against the computer, kept in the store like a board's journal.

A game is written as journal records [seq, time, game_id, kind, data] (`new`, a `play` per
input, then `end` with the final state or `abandon`) under the device "computer", and rebuilt
and verified from them by sync.replay exactly as a synced board's games are: `croupier games`,
`standings`, `export` and `plot` read them like any other game.
"""
import random
import time

from croupier import __version__
from croupier.sync import replay

DEVICE = "computer"


def laptop_epoch(store, clock=time.time):
    """The journal (log_epoch) of this database's laptop games: the one noted, else a new one."""
    epochs = store.log_epochs(DEVICE)
    if epochs:
        return epochs[0]
    epoch = "laptop-%08x" % random.getrandbits(32)
    with store.transaction():
        store.note_sync(DEVICE, epoch, "laptop", "croupier " + __version__, int(clock()))
    return epoch


class GameJournal:
    """One game's records, written while it is played (a quit loses nothing), and the game
    rebuilt from them into the games table whenever save() is called."""

    def __init__(self, store, engine, computers, clock=time.time):
        """engine: the game just set up; computers: {seat: strength} of its computer seats."""
        self.store, self.clock = store, clock
        self.log_epoch = laptop_epoch(store, clock)
        self.computers = dict(computers)
        self.pending = []  # (time, kind, data) not written yet
        self.game_id = None  # the seq of the `new` record, once written
        self.add("new", engine.setup())
        self.save(engine)

    @property
    def ref(self):
        """The game's name for `croupier plot game` and friends: device:log_epoch:game_id."""
        return "%s:%s:%s" % (DEVICE, self.log_epoch, self.game_id)

    def add(self, kind, data):
        self.pending.append((int(self.clock()), kind, data))

    def add_computer(self, seat, strength):
        self.computers[seat] = strength

    def flush(self):
        """Write the pending records, numbered on from the journal's last one."""
        if not self.pending:
            return
        with self.store.transaction():
            # Take the write lock before reading the last seq: two games played at once on one
            # database must not number their records alike (a repeated key would be dropped).
            self.store.db.execute("BEGIN IMMEDIATE")
            last = self.store.synced_upto(DEVICE, self.log_epoch)
            first = 1 if last is None else last + 1
            if self.game_id is None:
                self.game_id = first
            records = [[first + i, when, self.game_id, kind, data]
                       for i, (when, kind, data) in enumerate(self.pending)]
            self.store.add_records(DEVICE, self.log_epoch, records)
        self.pending = []

    def records(self):
        """The game's records as stored (what flush wrote)."""
        return self.store.records(DEVICE, self.log_epoch, self.game_id)

    def save(self, engine, ending=None):
        """Write what is pending (and the `end` or `abandon` record that ending names), then
        rebuild the game from its records, checked against engine's state, into the games
        table. Returns the game row."""
        if ending == "end":
            self.add("end", engine.state())
        elif ending == "abandon":
            self.add("abandon", None)
        self.flush()
        game, results = replay(self.records(), engine.state())
        game.update(device=DEVICE, log_epoch=self.log_epoch)
        with self.store.transaction():
            self.store.save_game(game, results)
            self.store.mark_computers(DEVICE, self.log_epoch, self.game_id, self.computers)
        return game
