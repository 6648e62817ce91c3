# Factor race (docs/rules.md section 4): a real-time game the device cannot follow card by card,
# so it is the referee (judge) and the score pad (penalty cards during a round, hand sizes
# at STOP; as many rounds as players, the first player moving one seat left each round).
from .engine import const, Engine, Illegal, effect
from .cards import number, seat_argument, shown

VALUES = (2, 3, 4, 5, 6, 8, 9, 10, 12, 15)
_COLOURS = const(6)    # colours are entered as 1-6
_HAND = const(10)      # cards dealt: nobody can hold more
_PENALTY = const(3)    # points per penalty card lying face up

# Move kinds returned by _parse.
_PENALTY_CARD = const(0)  # "pen:S": S played a wrong card and laid it face up
_HAND_SIZE = const(1)     # "hand:S:N": S holds N cards at STOP


def read_card(text):
    """(value, colour) of a card written "V:C", e.g. "12:3"; Illegal when it is no card."""
    cut = text.find(":")
    if cut < 0:
        raise Illegal("write a card as value:colour, like 12:3")
    value = number(text[:cut])
    colour = number(text[cut + 1:])
    if value not in VALUES:
        raise Illegal("no card has the value %s; values: 2 3 4 5 6 8 9 10 12 15"
                      % shown(text[:cut]))
    if not 1 <= colour <= _COLOURS:
        raise Illegal("colours are 1 to %d, not %s" % (_COLOURS, shown(text[cut + 1:])))
    return value, colour


def judge(previous, played):
    """Why played ("V:C") may not go on previous, or None when it may."""
    before, before_colour = read_card(previous)
    value, colour = read_card(played)
    if colour == before_colour:
        return "same colour"
    if value == before:
        return "same value"
    if before % value == 0:
        return "%d is a factor of %d" % (value, before)
    if value % before == 0:
        return "%d is a multiple of %d" % (value, before)
    return None


class Game(Engine):
    GAME = "factors"
    # turn: who lays the first card this round; penalties: cards face up this round;
    # held: cards in hand at STOP (-1 not entered yet).
    FIELDS = Engine.FIELDS + ("score", "penalties", "held")

    def _start(self):
        self._start_common(0)  # the youngest, seat 0, starts round 1
        self.total = None
        self.owed = 0
        count = len(self.names)
        self.score = [0] * count
        self.penalties = [0] * count
        self.held = [-1] * count

    def _player(self, seat, player):
        player["score"] = self.score[seat]
        player["penalties"] = self.penalties[seat]
        player["held"] = None if self.held[seat] < 0 else self.held[seat]

    def _parse(self, card):
        if card[:4] == "pen:":
            return card, _PENALTY_CARD, seat_argument(card, "pen:", len(self.names))
        if card[:5] == "hand:":
            rest = card[5:]
            cut = rest.find(":")
            if cut < 0:
                raise Illegal("write a hand as hand:S:N (N cards held at STOP)")
            seat = seat_argument(card[:5 + cut], "hand:", len(self.names))
            if self.held[seat] >= 0:
                raise Illegal("%s's hand is already entered (undo to change it)"
                              % self.names[seat])
            held = number(rest[cut + 1:])
            if not 0 <= held <= _HAND:
                raise Illegal("a hand holds 0 to %d cards" % _HAND)
            return card, _HAND_SIZE, (seat, held)
        raise Illegal("unknown entry %s; the score pad takes pen:S and hand:S:N" % shown(card))

    def _apply(self, move):
        card, kind, value = move
        if kind == _PENALTY_CARD:
            self.penalties[value] += 1
            self._logged(value, card)
            return []
        seat, held = value
        self.held[seat] = held
        self._logged(seat, card)
        if min(self.held) < 0:
            return []
        return self._score_round(seat)

    def _score_round(self, seat):
        count = len(self.names)
        for s in range(count):
            self.score[s] += self.held[s] + _PENALTY * self.penalties[s]
        effects = [effect("round_end", seat)]
        if self.round == count:  # as many rounds as players
            best = min(self.score)
            self._finish([s for s in range(count) if self.score[s] == best])
            effects.append(effect("game_end", seat))
            return effects
        self.round += 1
        self.turn = self._next(self.turn, 1)  # the first player moves one seat left
        self.penalties = [0] * count
        self.held = [-1] * count
        return effects
