# Two-player sums (docs/rules.md section 5): cards 0-5 form a sequence; each card played puts a
# marker on the 3x3 board cell = sum of the last two cards, capturing the opponent's markers
# there. Three own cells in a line or three own markers on one cell win the round.
from .engine import const, Engine, Illegal, Number, SetupError, effect
from .cards import shown

_CARDS = const(18 - 2)     # 0-5 three times each, two removed unseen
_MARKERS = const(10)       # per player, one of them the x2
_OPENER_HAND = const(4)    # the round's opener is dealt 4 cards, the other player 3
_DRAW_LIMIT = const(3)     # drawing is allowed with at most this many cards in hand
_STACK = const(3)          # own markers on one cell that win
ROWS = "123456789"  # default layout: rows 1 2 3 / 4 5 6 / 7 8 9
# Board positions (row-major) of every line: rows, columns, diagonals.
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))

# Move kinds returned by _parse.
_PLAY = const(0)     # "N" / "Nx": play card N (0-5); "x": the marker placed is the x2
_DRAW = const(1)     # "draw": the whole turn
_STUCK = const(2)    # "stuck": forced, but every card equals the last one: reveal and draw
_REVEAL = const(3)   # "reveal": before the turn, discard a captured marker; the opponent shows
_FORCE = const(4)    # "force": after playing, discard an own marker; the opponent must play
_PROTECT = const(5)  # "protect": after playing, discard an own marker; no force next turn


class Layout:
    """The board layout option: the cells 1-9 in row-major order, e.g. "276951438"."""

    name = "layout"
    default = ROWS

    def check(self, value):
        if not isinstance(value, str) or len(value) != 9 or sorted(value) != list(ROWS):
            raise SetupError("option layout lists the cells 1-9 row by row, like 123456789")
        return value


class Game(Engine):
    GAME = "duo"
    OPTIONS = (Layout(), Number("target", 5, 1, 20))
    # Per seat: plain markers and the x2 in supply, captured markers held, cards in hand.
    # Per cell (index = cell - 1): owner (-1 empty), markers stacked, whether the x2 is there
    # (a cell only ever holds one player's markers: placing captures the others).
    # last: last card of the sequence (-1 none); seq: cards in the sequence; pile: draw pile;
    # window: seat that just played and may force/protect (-1 none); protected: seat that
    # cannot be forced now (-1 none); forced: the player on turn must play; revealed: the
    # player on turn already asked for a reveal; opener: who opened this round.
    FIELDS = Engine.FIELDS + ("score", "plain", "x2", "captured", "hand", "owner", "stack",
                              "x2cell", "last", "seq", "pile", "window", "protected",
                              "forced", "revealed", "opener")

    def _start(self):
        self._start_common(0)  # player 1 opens
        self.score = [0, 0]
        layout = self.options["layout"]
        self.lines = [[int(layout[p]) - 1 for p in line] for line in LINES]  # cell indexes
        self.opener = 0
        self._deal()

    def _deal(self):
        self.total = None
        self.dir = 1
        self.owed = 1
        self.turn = self.opener
        self.plain = [_MARKERS - 1] * 2
        self.x2 = [True, True]
        self.captured = [0, 0]
        self.hand = [_OPENER_HAND - 1, _OPENER_HAND - 1]
        self.hand[self.opener] = _OPENER_HAND
        self.owner = [-1] * 9
        self.stack = [0] * 9
        self.x2cell = [False] * 9
        self.last = -1
        self.seq = 0
        self.pile = _CARDS - _OPENER_HAND - (_OPENER_HAND - 1)
        self.window = -1
        self.protected = -1
        self.forced = False
        self.revealed = False

    def state(self):
        state = Engine.state(self)
        state["layout"] = self.options["layout"]
        state["board"] = [None if self.owner[c] < 0 else [self.owner[c], self.stack[c],
                                                          self.x2cell[c]] for c in range(9)]
        state["last"] = None if self.last < 0 else self.last
        state["pile"] = self.pile
        state["sequence"] = self.seq
        state["forced"] = self.forced
        state["protected"] = None if self.protected < 0 else self.protected
        return state

    def _player(self, seat, player):
        player["score"] = self.score[seat]
        player["markers"] = self._supply(seat)
        player["x2"] = self.x2[seat]
        player["captured"] = self.captured[seat]
        player["hand"] = self.hand[seat]

    def _supply(self, seat):
        return self.plain[seat] + (1 if self.x2[seat] else 0)

    # --- reading inputs ---------------------------------------------------------------
    def _parse(self, card):
        seat = self.turn
        if card in ("force", "protect"):
            return self._parse_ending(card)
        if card == "reveal":
            if self.revealed:
                raise Illegal("one reveal per turn")
            if not self.captured[seat]:
                raise Illegal("a reveal costs a captured marker; %s has none" % self.names[seat])
            return card, _REVEAL, None
        if card == "stuck":
            if not self.forced:
                raise Illegal("stuck is for a forced player whose cards all equal the last")
            return card, _STUCK, None
        if card == "draw":
            if self.forced:
                raise Illegal("%s is forced to play (stuck if every card equals the last)"
                              % self.names[seat])
            if self.last < 0:
                raise Illegal("the round opens with a card")
            if self.hand[seat] > _DRAW_LIMIT:
                raise Illegal("drawing needs %d cards or fewer in hand" % _DRAW_LIMIT)
            if not self.pile and self.seq < 2:
                raise Illegal("no card left to draw")
            return card, _DRAW, None
        return self._parse_card(card)

    def _parse_card(self, card):
        x2 = card[1:] == "x"
        if len(card) != (2 if x2 else 1) or not "0" <= card[0] <= "5":
            raise Illegal("unknown input %s; cards are 0-5 (Nx places the x2 marker), draw, "
                          "reveal, force, protect, stuck" % shown(card))
        value = int(card[0])
        seat = self.turn
        if not self.hand[seat]:
            raise Illegal("%s has no card in hand: draw" % self.names[seat])
        if self.last < 0:
            if x2:
                raise Illegal("the opening card places no marker")
        elif value == self.last:
            raise Illegal("a card must differ from the last one (%d)" % self.last)
        elif x2 and not self.x2[seat]:
            raise Illegal("%s's x2 marker is already used" % self.names[seat])
        elif not x2 and not self.plain[seat]:
            raise Illegal("only the x2 marker is left: play %dx" % value)
        return card, _PLAY, (value, x2)

    def _parse_ending(self, card):
        if self.window < 0:
            raise Illegal("%s ends a turn in which a card was played" % card)
        if card == "force" and self.protected == self.turn:
            raise Illegal("%s is protected this turn" % self.names[self.turn])
        return card, _FORCE if card == "force" else _PROTECT, None

    # --- changing the state -----------------------------------------------------------
    def _apply(self, move):
        card, kind, value = move
        if kind in (_FORCE, _PROTECT):
            return self._end_turn(card, kind)
        seat = self.turn
        self.window = -1  # the opponent's chance to force or protect is over
        if self.protected == seat:
            self.protected = -1  # protection lasted through the opponent's turn
        if kind == _REVEAL:
            self.captured[seat] -= 1
            self.revealed = True
            self._logged(seat, card)
            return []
        if kind == _PLAY:
            return self._play(seat, card, value[0], value[1])
        self._draw(seat)
        self._logged(seat, card)
        self._pass(seat)
        return []

    def _draw(self, seat):
        if not self.pile:  # reshuffle the sequence except its last card
            self.pile = self.seq - 1
            self.seq = 1
        if self.pile:
            self.pile -= 1
            self.hand[seat] += 1

    def _pass(self, seat):
        self.turn = 1 - seat
        self.forced = False
        self.revealed = False

    def _play(self, seat, card, value, x2):
        self.hand[seat] -= 1
        self.seq += 1
        opening = self.last < 0
        cell = self.last + value - 1  # index of the cell = sum of the last two
        self.last = value
        if opening:
            self._logged(seat, card)
            self._pass(seat)
            return []
        self.total = cell + 1
        if self.owner[cell] == 1 - seat:  # capture
            self.captured[seat] += self.stack[cell]
            self.stack[cell] = 0
            self.x2cell[cell] = False
        self.owner[cell] = seat
        self.stack[cell] += 1
        if x2:
            self.x2[seat] = False
            self.x2cell[cell] = True
        else:
            self.plain[seat] -= 1
        self._logged(seat, card)
        points = self._winning_points(seat, cell)
        if points:
            return self._round_won(seat, points)
        if not self._supply(seat):
            return self._round_won(1 - seat, 1)
        self._pass(seat)
        self.window = seat
        return []

    def _winning_points(self, seat, cell):
        """0, or the points seat wins with what lies on and around cell: 2 with the x2."""
        points = 0
        if self.stack[cell] == _STACK:
            points = 2 if self.x2cell[cell] else 1
        for line in self.lines:
            if cell in line and self.owner[line[0]] == self.owner[line[1]] == \
                    self.owner[line[2]] == seat:
                with_x2 = self.x2cell[line[0]] or self.x2cell[line[1]] or self.x2cell[line[2]]
                points = max(points, 2 if with_x2 else 1)
        return points

    def _end_turn(self, card, kind):
        seat = self.window
        self.window = -1
        if self.plain[seat]:
            self.plain[seat] -= 1
        else:
            self.x2[seat] = False
        if kind == _FORCE:
            self.forced = True
        else:
            self.protected = seat
        self._logged(seat, card)
        if not self._supply(seat):
            return self._round_won(1 - seat, 1)
        return []

    def _round_won(self, seat, points):
        self.score[seat] += points
        ended = effect("round_end", seat)
        ended["points"] = points
        if self.score[seat] >= self.options["target"]:
            self._finish([seat])
            return [ended, effect("game_end", seat)]
        self.round += 1
        self.opener = 1 - self.opener  # the opening alternates between rounds
        self._deal()
        return [ended]
