# The machinery every game shares: setup checks, the list of accepted inputs, play / peek /
# undo / redo, and the promise that a rejected input leaves the state exactly as it was.
#
# A game subclasses Engine and supplies:
#   GAME             its registry name (a key of GAMES)
#   OPTIONS          tuple of Flag / Number / Choice option specs
#   FIELDS           Engine.FIELDS + the names of its own state attributes; every value is
#                    a scalar or a flat list (copied with list() for round checkpoints)
#   _start()         set every field for a new game
#   _parse(card)     validate one input against the current state WITHOUT changing anything;
#                    return a move, or raise Illegal(reason)
#   _apply(move)     change the state; return the effects list; must not raise
#   _player(seat)    the game's own fields of one player in state()
#
# The state is a pure function of (players, options, inputs): undo rebuilds it by replaying
# the inputs from the last round-start checkpoint, so no step ever copies the whole state.


def const(value):
    """CPython's stand-in for MicroPython's const(): a game module's `_NAME = const(n)` is
    folded into its code by MicroPython's compiler, which needs no import for it, so the
    board holds neither a global nor its name; CPython runs this and gets the same value."""
    return value


# Game name -> (min_players, max_players). The engine modules are imported on demand by
# croupier.rules.new_game, so this table is the one place that lists the games.
GAMES = {
    "lobo77": (2, 8),
    "basta": (2, 6),
    "maumau": (2, 5),
    "factors": (2, 6),
    "duo": (2, 2),
    "maumau_match": (2, 5),  # Mau-Mau with hidden hands, against the computer (host only)
}
# The games only the laptop plays: their modules stay off the box's flash (croupier.build),
# so a box neither lists nor starts them.
HOST_GAMES = ("maumau_match",)

MAX_NAME = 24  # characters; the OLED and the 1 KB protocol frame both want short names
# Round-start checkpoints kept besides the initial state: undo within the last two rounds
# replays one round at most; further back replays from the start. Bounded for the heap:
# each holds a copy of every list of the state (a basta game of 144 cards held 8.2 KB
# with four, 5.7 KB with two).
_MAX_MARKS = const(2)


class Illegal(ValueError):
    """An input the rules do not allow now. The game state is unchanged."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class SetupError(ValueError):
    """A game that cannot be set up: unknown game, bad players or bad options."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Flag:
    """A true/false option."""

    def __init__(self, name, default):
        self.name = name
        self.default = default

    def check(self, value):
        if value is not True and value is not False:
            raise SetupError("option %s must be true or false" % self.name)
        return value


class Number:
    """A whole-number option within [low, high]."""

    def __init__(self, name, default, low, high):
        self.name = name
        self.default = default
        self.low = low
        self.high = high

    def check(self, value):
        if value is True or value is False or not isinstance(value, int) \
                or not self.low <= value <= self.high:
            raise SetupError("option %s must be a whole number from %d to %d"
                             % (self.name, self.low, self.high))
        return value


class Choice:
    """An option taking one of a few listed values."""

    def __init__(self, name, default, values):
        self.name = name
        self.default = default
        self.values = values

    def check(self, value):
        if value not in self.values or value is True or value is False:
            raise SetupError("option %s must be one of %s"
                             % (self.name, ", ".join(str(v) for v in self.values)))
        return value


def check_players(game, players):
    """The list of player names (seat order), or SetupError saying what is wrong."""
    low, high = GAMES[game]
    if not isinstance(players, (list, tuple)):
        raise SetupError("players must be a list of names")
    if not low <= len(players) <= high:
        raise SetupError("%s takes %d to %d players, not %d" % (game, low, high, len(players)))
    seen = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise SetupError("every player needs a name")
        if len(name) > MAX_NAME:
            raise SetupError("player names have at most %d characters" % MAX_NAME)
        key = name.strip().lower()
        if key in seen:
            raise SetupError("two players are called %s" % name.strip())
        seen.append(key)
    return list(players)


def check_options(options, specs):
    """All options with defaults filled in, or SetupError naming the bad one."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise SetupError("options must be an object")
    known = [spec.name for spec in specs]
    for name in options:
        if name not in known:
            raise SetupError("unknown option %s" % (name,))
    result = {}
    for spec in specs:
        result[spec.name] = spec.check(options[spec.name]) if spec.name in options \
            else spec.default
    return result


def effect(kind, seat):
    return {"kind": kind, "seat": seat}


def _copy(value):
    """A state field's value to set or keep: lists (and a checkpoint's tuples) as new lists."""
    return list(value) if isinstance(value, (list, tuple)) else value


class Engine:
    GAME = None
    OPTIONS = ()
    # Common state: log holds the rows (seat, card, total_after) of round number log_round,
    # flat (three items a row): no object per row, and round checkpoints copy it cheaply.
    FIELDS = ("round", "total", "turn", "dir", "owed", "over", "winners", "out",
              "log", "log_round")

    def __init__(self, players, options=None):
        self.names = check_players(self.GAME, players)
        self.options = check_options(options, self.OPTIONS)
        self.inputs = []
        self._redo = []
        self._start()
        self._marks = [(0, self._checkpoint())]  # (inputs applied, state): start + recent rounds

    # --- public API -----------------------------------------------------------------
    def setup(self):
        return {"game": self.GAME, "players": list(self.names), "options": dict(self.options)}

    def play(self, card):
        """Apply one input; return its effects. Illegal(reason) leaves everything unchanged."""
        effects = self._accept(card)
        self._redo = []
        return effects

    def peek(self, card):
        """(state, effects) that play(card) would give, without changing anything."""
        return self._trial(card, lambda effects: (self.state(), effects))

    def check_card(self, card):
        """Illegal(reason) when play(card) would refuse it; changes nothing, builds no state."""
        self._trial(card, lambda effects: None)

    def _trial(self, card, result):
        """result(effects) of card played, then everything as it was."""
        saved = self._save()
        try:
            return result(self._step(card))
        finally:
            self._load(saved, keep=True)  # saved is ours alone: no second copy

    def undo(self):
        if not self.inputs:
            raise Illegal("nothing to undo")
        self._redo.append(self.inputs.pop())
        self._rebuild()
        return []

    def redo(self):
        if not self._redo:
            raise Illegal("nothing to redo")
        effects = self._accept(self._redo[-1])
        self._redo.pop()
        return effects

    def can_undo(self):
        return bool(self.inputs)

    def can_redo(self):
        return bool(self._redo)

    def state(self):
        return {
            "game": self.GAME, "round": self.round, "total": self.total, "turn": self.turn,
            "dir": self.dir, "owed": self.owed, "over": self.over,
            "winners": list(self.winners),
            "players": [self._public(seat) for seat in range(len(self.names))],
        }

    def round_log(self):
        """[seat, card, total_after] for each input of the current round. Right after a round
        ends it still shows the round just finished, until the next round's first input."""
        log = self.log
        return [[log[i], log[i + 1], log[i + 2]] for i in range(0, len(log), 3)]

    # --- helpers for the games ------------------------------------------------------
    def _next(self, seat, step):
        """The next seat from seat in direction step that is still in the game."""
        count = len(self.names)
        while True:
            seat = (seat + step) % count
            if not self.out[seat]:
                return seat

    def _logged(self, seat, card):
        if self.log_round != self.round:
            self.log = []
            self.log_round = self.round
        log = self.log
        log.append(seat)
        log.append(card)
        log.append(self.total)

    def _finish(self, winners):
        self.over = True
        self.winners = winners
        self.turn = winners[0]
        self.owed = 0

    def _start_common(self, turn):
        count = len(self.names)
        self.round = 1
        self.total = 0
        self.turn = turn
        self.dir = 1
        self.owed = 1
        self.over = False
        self.winners = []
        self.out = [False] * count
        self.log = []
        self.log_round = 1

    def _next_round(self, turn):
        """A running-total game's next round: total 0, clockwise, turn opens with one card."""
        self.round += 1
        self.total = 0
        self.dir = 1
        self.turn = turn
        self.owed = 1

    # --- machinery ------------------------------------------------------------------
    def _public(self, seat):
        player = {"name": self.names[seat], "out": self.out[seat]}
        self._player(seat, player)
        return player

    def _step(self, card):
        """Validate and apply one input to the current state; no bookkeeping."""
        if self.over:
            raise Illegal("the game is over")
        if not isinstance(card, str):
            raise Illegal("a card is written as text, like \"9\"")
        return self._apply(self._parse(card))

    def _advance(self, card, applied):
        """_step, then checkpoint if card (input number `applied`) started a new round."""
        round_before = self.round
        effects = self._step(card)
        if self.round != round_before:
            self._mark(applied)
        return effects

    def _accept(self, card):
        try:
            effects = self._advance(card, len(self.inputs) + 1)
        except Illegal:
            raise
        except Exception:
            self._rebuild()  # a bug must not leave a half-applied input behind
            raise
        self.inputs.append(card)
        return effects

    def _rebuild(self):
        """Recompute the state from the last checkpoint at or before len(inputs)."""
        count = len(self.inputs)
        while self._marks[-1][0] > count:
            self._marks.pop()
        start, saved = self._marks[-1]
        self._load(saved)
        for i in range(start, count):
            self._advance(self.inputs[i], i + 1)

    def _mark(self, applied):
        """Checkpoint the state of a round that starts after `applied` inputs."""
        if len(self._marks) > _MAX_MARKS:
            self._marks.pop(1)  # the oldest round mark; the initial state always stays
        self._marks.append((applied, self._checkpoint()))

    def _checkpoint(self):
        """_save() as it is kept until a rebuild: a tuple, its lists as tuples (one block
        each instead of a list and its items: a quarter less heap), the shared log as is."""
        log = self.log
        return tuple(tuple(value) if isinstance(value, list) and value is not log else value
                     for value in self._save())

    def _save(self):
        """The fields' values, lists copied; except the log of a finished round, which is
        shared: _logged never appends to it again (the next round starts a new list), and
        on a small heap its copy in every round checkpoint is what runs out first."""
        finished = self.log_round != self.round
        return [self.log if finished and name == "log" else _copy(getattr(self, name))
                for name in self.FIELDS]

    def _load(self, saved, keep=False):
        """Set the state from a _save(); keep: take its lists as they are (copied otherwise,
        as a checkpoint must stay intact)."""
        for name, value in zip(self.FIELDS, saved):
            setattr(self, name, value if keep else _copy(value))
