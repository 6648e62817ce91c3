"""The one place that changes the game.

The keypad UI and the serial link both go through a Controller, so every accepted input is
journaled the same way: validated first (nothing is written for an illegal card), appended to
the journal (durable when append returns), applied to the rules engine, then announced to the
subscribers (the link emits `play` events, the UI shows announcements and plays tunes).
"""
from croupier.journal import JournalError
from croupier.rules import new_game, Illegal


def _replay(game, kind, data):
    if kind == "play":
        game.play(data)
    elif kind == "undo":
        game.undo()
    elif kind == "redo":
        game.redo()


class Controller:
    def __init__(self, journal):
        self.journal = journal
        self.game = None
        self.game_id = None
        self.last_state = None  # state after the last accepted input, shared: read only
        self.roster = []  # names the host pushed (`roster` command), offered at setup
        self._subscribers = []
        # () -> None, run before a new game loads: the UI lets go of the old game's screens
        # first (the heap holds one game's modules, not two at once)
        self.before_new = None

    def subscribe(self, fn):
        """fn(seq, state, effects) runs after every accepted input (and after `new`)."""
        self._subscribers.append(fn)

    def resume(self):
        """Rebuild the unfinished game from the journal at boot; True when there was one."""
        found = self.journal.resume()
        if found is None:
            return False
        game_id, setup, actions = found
        game = new_game(setup["game"], setup["players"], setup.get("options"))
        for kind, data in actions:
            _replay(game, kind, data)
        state = game.state()
        if state["over"]:
            # Power went between the game's last input and its `end` record: write it now,
            # and boot as if it had made it (a finished game is not resumed).
            self._end(game_id, state)
            return False
        self.game, self.game_id, self.last_state = game, game_id, state
        return True

    def unfinished(self):
        return self.last_state is not None and not self.last_state["over"]

    def state(self):
        """The game's state (docs/protocol.md), None without a game. Shared: do not change it."""
        return self.last_state

    def new(self, game, players, options=None):
        """Start a game; an unfinished one is journaled as abandoned. SetupError: unchanged."""
        if self.before_new is not None:
            self.before_new()
        fresh = new_game(game, players, options)
        seq = self.journal.append(None, "new", fresh.setup(),
                                  abandon=self.game_id if self.unfinished() else None)
        self.game, self.game_id = fresh, seq
        self._notify(seq, [], fresh.state())
        return seq

    def play(self, card):
        game = self._open_game()
        game.check_card(card)  # raises Illegal before anything is written
        seq = self.journal.append(self.game_id, "play", card)
        return self._applied(seq, game.play(card))

    def undo(self):
        return self._undo_or_redo("undo")

    def redo(self):
        return self._undo_or_redo("redo")

    def _undo_or_redo(self, kind):
        game = self._open_game()
        if not getattr(game, "can_" + kind)():
            raise Illegal("nothing to " + kind)
        seq = self.journal.append(self.game_id, kind, None)
        return self._applied(seq, getattr(game, kind)())

    def _open_game(self):
        # A finished game is closed: its `end` record is what the host syncs as final.
        if self.game is None:
            raise Illegal("no game in progress")
        if self.last_state["over"]:
            raise Illegal("the game is over")
        return self.game

    def _applied(self, seq, effects):
        state = self.game.state()
        if state["over"]:
            self._end(self.game_id, state)
        self._notify(seq, effects, state)
        return effects

    def _end(self, game_id, state):
        try:
            self.journal.append(game_id, "end", state)
        except JournalError:
            pass  # the game's inputs are safe: resume() writes its end at the next boot

    def _notify(self, seq, effects, state):
        self.last_state = state
        for fn in self._subscribers:
            fn(seq, state, effects)
