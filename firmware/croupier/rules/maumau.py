# Mau-Mau (docs/rules.md section 3): an optional card tracker (turn, direction, skips, the draw-2
# stack, the wished suit, the ace's extra card) and the score pad (negative hand points,
# elimination at the limit, joining and leaving between rounds; the last player in wins).
from .engine import const, Engine, Illegal, Flag, Number, Choice, SetupError, check_players, effect
from .cards import number, seat_argument, shown

_HAND = const(7)  # cards dealt to each player
SUITS = ("h", "d", "s", "c")
NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
PLAIN = ("2", "3", "4", "5", "6", "10", "Q", "K")  # ranks without an action
# Points of a card left in hand, per preset (docs/rules.md 3.2); 2-10 count their face value.
POINTS = {
    "default": {"J": 20, "Q": 10, "K": 10, "A": 11},
    "skat": {"J": 2, "Q": 3, "K": 4, "A": 11},
}
PLAY = "play"    # phase: cards are (optionally) tracked until someone goes out
COUNT = "count"  # phase: the other players' hand points are entered

# Move kinds returned by _parse.
_CARD = const(0)    # a rank without action: 2-6, 10, Q, K
_SEVEN = const(1)   # "7": the next player draws 2 more
_EIGHT = const(2)   # "8": the next player is skipped
_NINE = const(3)    # "9": direction reverses
_JACK = const(4)    # "J:x": wild, wishes suit x
_EXTRA = const(5)   # "A": the same player plays one more card or draws one
_DRAW = const(6)    # "draw"
_FORGOT = const(7)  # "forgot:S": S did not announce the second-to-last card and draws 2
_OUT = const(8)     # "out:S" / "out:S:J": S went out (untracked play)
_HANDPTS = const(9)  # "hand:S:N" / "hand:S:K,7,A": points left in S's hand
_JOIN = const(10)   # "join:Name"
_LEAVE = const(11)  # "leave:S"

ACTIONS = {"7": _SEVEN, "8": _EIGHT, "9": _NINE, "A": _EXTRA}


def card_points(rank, preset):
    """Points of one card of rank ("2".."10", "J", "Q", "K", "A") left in hand."""
    if rank in preset:
        return preset[rank]
    if rank in NUMBERS:
        return int(rank)
    raise Illegal("unknown card %s in a hand; ranks are 2-10, J, Q, K, A" % shown(rank))


class Seated(Engine):
    """An engine whose players may join and leave between rounds, as in both Mau-Mau games
    (this score pad and maumau_match): a newcomer starts at the worst active score, a
    player who leaves is struck off (kept, marked left), the last player in wins. The game
    keeps names, founders, score, out, left and starter, and supplies _between_rounds(what)
    (Illegal unless players may join or leave now), _seat_added() (its own fields for the
    new last seat) and _seat_emptied(seat) (for a seat that left)."""

    def setup(self):
        """The players the game began with (founders, set by _start): joins are inputs."""
        info = Engine.setup(self)
        info["players"] = list(self.founders)
        return info

    def _active(self):
        return [s for s in range(len(self.names)) if not self.out[s]]

    def _active_seat(self, card, prefix):
        seat = seat_argument(card, prefix, len(self.names))
        if self.out[seat]:
            raise Illegal("%s is out of the game" % self.names[seat])
        return seat

    def _joining(self, card):
        """The name of a "join:Name" input allowed now, or Illegal."""
        self._between_rounds("join")
        name = card[5:]
        try:
            check_players(self.GAME, [self.names[s] for s in self._active()] + [name])
        except SetupError as exc:
            raise Illegal(exc.reason)
        key = name.strip().lower()
        for other in self.names:
            if other.strip().lower() == key:
                raise Illegal("%s already has a seat in this game" % name.strip())
        return name

    def _last_one_in(self, seat, effects):
        """End the game (seat's input ended it) if only one player is left in."""
        active = self._active()
        if len(active) != 1:
            return False
        self._finish(active)
        effects.append(effect("game_end", seat))
        return True

    def _join(self, card, name):
        worst = min(self.score[s] for s in self._active())
        self.names.append(name)
        self.score.append(worst)
        self.out.append(False)
        self.left.append(False)
        self._seat_added()
        seat = len(self.names) - 1
        self._logged(seat, card)
        return [effect("joined", seat)]

    def _leave(self, card, seat):
        self.out[seat] = True
        self.left[seat] = True
        self._seat_emptied(seat)
        self._logged(seat, card)
        effects = [effect("left", seat)]
        if len(self._active()) == 1:  # the game ends, and with it the round not yet begun
            effects.append(effect("round_end", seat))
            self._last_one_in(seat, effects)
            return effects
        if self.starter == seat:
            self.starter = self._next(seat, 1)
            self.turn = self.starter
        return effects


class Game(Seated):
    GAME = "maumau"
    OPTIONS = (
        Number("limit", -100, -999, -1),
        Choice("points", "default", ("default", "skat")),
        Flag("jack_finish_doubles", False),
    )
    # names grows when a player joins; hand: cards tracked per seat; counted: hand points
    # entered this round (-1 not yet); going: seat that went out (-1 none); draw: cards the
    # player on turn must draw (stacked 7s); started: a card was entered this round.
    FIELDS = Engine.FIELDS + ("names", "score", "left", "hand", "counted", "phase", "going",
                              "jack_out", "draw", "suit", "starter", "started")

    def _start(self):
        self.founders = list(self.names)  # setup() names the players the game began with
        self._start_common(0)
        self.total = None
        count = len(self.names)
        self.score = [0] * count
        self.left = [False] * count
        self.hand = [_HAND] * count
        self.counted = [-1] * count
        self.starter = 0
        self._deal()

    def state(self):
        state = Engine.state(self)
        state["phase"] = self.phase
        state["draw"] = self.draw
        state["suit"] = self.suit
        return state

    def _player(self, seat, player):
        player["score"] = self.score[seat]
        player["left"] = self.left[seat]
        player["hand"] = self.hand[seat]
        player["counted"] = None if self.counted[seat] < 0 else self.counted[seat]

    # --- reading inputs ---------------------------------------------------------------
    def _parse(self, card):
        if card[:5] == "join:":
            return self._parse_join(card)
        if card[:6] == "leave:":
            seat = self._active_seat(card, "leave:")
            self._between_rounds("leave")
            return card, _LEAVE, seat
        if self.phase == COUNT:
            if card[:5] != "hand:":
                raise Illegal("enter the hand points of every player first: hand:S:N")
            return self._parse_hand(card)
        if card[:5] == "hand:":
            raise Illegal("hand points are entered when somebody has gone out")
        if self.going >= 0 and card != "draw":
            raise Illegal("%s went out on a 7: %s draws %d to end the round"
                          % (self.names[self.going], self.names[self.turn], self.draw))
        if card == "draw":
            return card, _DRAW, None
        if card[:7] == "forgot:":
            return card, _FORGOT, self._active_seat(card, "forgot:")
        if card[:4] == "out:":
            return self._parse_out(card)
        if self.draw and card != "7":
            raise Illegal("%s must draw %d or answer with a 7" % (self.names[self.turn],
                                                                  self.draw))
        if card in ACTIONS:
            return card, ACTIONS[card], None
        if card in PLAIN:
            return card, _CARD, None
        if card[:2] == "J:" and card[2:] in SUITS:
            return card, _JACK, None
        if card[:1] == "J":
            raise Illegal("a jack wishes a suit: J:h, J:d, J:s or J:c")
        raise Illegal("unknown card %s; ranks are 2-10, J:x, Q, K, A, or draw" % shown(card))

    def _parse_out(self, card):
        jack = card[-2:] == ":J"  # went out with a jack (jack_finish_doubles)
        return card, _OUT, (self._active_seat(card[:-2] if jack else card, "out:"), jack)

    def _parse_hand(self, card):
        rest = card[5:]
        cut = rest.find(":")
        if cut < 0:
            raise Illegal("write hand points as hand:S:N or hand:S:K,7,A")
        seat = self._active_seat(card[:5 + cut], "hand:")
        if seat == self.going:
            raise Illegal("%s went out: nothing to count" % self.names[seat])
        if self.counted[seat] >= 0:
            raise Illegal("%s's hand is already counted (undo to change it)" % self.names[seat])
        return card, _HANDPTS, (seat, self._hand_points(rest[cut + 1:]))

    def _hand_points(self, text):
        preset = POINTS[self.options["points"]]
        if "," in text or text in preset:
            return sum(card_points(rank, preset) for rank in text.split(","))
        points = number(text)
        if points < 0:
            raise Illegal("hand points are counted without sign: hand:S:23")
        return points

    def _parse_join(self, card):
        return card, _JOIN, self._joining(card)

    def _between_rounds(self, what):
        if self.phase == COUNT or self.started:
            raise Illegal("players %s between rounds, before the first card" % what)

    # --- changing the state -----------------------------------------------------------
    def _apply(self, move):
        card, kind, value = move
        if kind == _HANDPTS:
            return self._count(card, value[0], value[1])
        if kind == _JOIN:
            return self._join(card, value)
        if kind == _LEAVE:
            return self._leave(card, value)
        if kind == _FORGOT:
            self.hand[value] += 2
            self.started = True
            self._logged(value, card)
            return []
        if kind == _OUT:
            self._logged(value[0], card)
            return self._went_out(value[0], value[1])
        return self._tracked(card, kind)

    def _tracked(self, card, kind):
        """A card or draw by the player on turn."""
        seat = self.turn
        self.started = True
        effects = []
        if kind == _DRAW:
            self.hand[seat] += self.draw or 1
            self.draw = 0
            self._logged(seat, card)
            if self.going >= 0:
                return self._went_out(self.going, self.jack_out)
            self.turn = self._next(seat, self.dir)
            return effects
        self.hand[seat] = max(0, self.hand[seat] - 1)
        self.suit = card[2] if kind == _JACK else None
        if kind == _SEVEN:
            self.draw += 2
        elif kind == _NINE:
            self.dir = -self.dir
        self._logged(seat, card)
        if kind != _EXTRA or not self.hand[seat]:
            step = self._next(seat, self.dir)
            self.turn = self._next(step, self.dir) if kind == _EIGHT else step
        if not self.hand[seat]:
            if kind == _SEVEN:  # the next player draws first, then the round ends
                self.going = seat
                self.jack_out = False
                return effects
            return self._went_out(seat, kind == _JACK)
        if self.hand[seat] == 1:
            effects.append(effect("mau", seat))  # remind: announce the last card
        return effects

    def _went_out(self, seat, jack):
        self.phase = COUNT
        self.going = seat
        self.jack_out = jack
        self.draw = 0
        self.suit = None
        self.owed = 0
        self.turn = self._uncounted(seat)
        return [effect("maumau", seat)]

    def _uncounted(self, seat):
        """The next seat after seat whose hand points are still missing, or -1."""
        for _ in range(len(self.names)):
            seat = self._next(seat, 1)
            if seat != self.going and self.counted[seat] < 0:
                return seat
        return -1

    def _count(self, card, seat, points):
        self.counted[seat] = points
        self._logged(seat, card)
        nxt = self._uncounted(self.going)
        if nxt >= 0:
            self.turn = nxt
            return []
        return self._score_round()

    def _score_round(self):
        factor = 2 if self.jack_out and self.options["jack_finish_doubles"] else 1
        effects = []
        for seat in range(len(self.names)):
            if self.counted[seat] > 0:
                self.score[seat] -= factor * self.counted[seat]
                if self.score[seat] <= self.options["limit"]:
                    self.out[seat] = True
                    effects.append(effect("eliminated", seat))
        effects.append(effect("round_end", self.going))
        if not self._last_one_in(self.going, effects):
            self.starter = self._next(self.starter, 1)
            self.round += 1
            self._deal()
        return effects

    def _deal(self):
        """A new round: fresh hands, the starter on turn, nothing pending."""
        self.phase = PLAY
        self.going = -1
        self.jack_out = False
        self.draw = 0
        self.suit = None
        self.started = False
        self.dir = 1
        self.owed = 1
        self.turn = self.starter
        for seat in range(len(self.names)):
            self.hand[seat] = 0 if self.out[seat] else _HAND
            self.counted[seat] = -1

    def _seat_added(self):
        self.hand.append(_HAND)
        self.counted.append(-1)

    def _seat_emptied(self, seat):
        self.hand[seat] = 0
