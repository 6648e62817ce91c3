# BASTA, "50" (docs/rules.md section 2): whoever pushes the total over 50 takes a penalty token.
from .engine import const, Engine, Illegal, Number, effect
from .cards import number, seat_argument

_SAFE = const(50)

# Move kinds returned by _parse.
_NUMBER = const(0)   # any whole number but -5, "0" included
_REVERSE = const(1)  # "rev"
_SWAP = const(2)     # "swap" / "swap:S": hands change, the score does not
_DOUBLE = const(3)   # "dbl:S": seat S plays two cards on its next turn
_BASTA = const(4)    # "basta": total := 50
_MINUS5 = const(5)   # "-5": total -= 5 and the same player plays the top draw card


class Game(Engine):
    GAME = "basta"
    OPTIONS = (Number("limit", 4, 1, 20),)
    # doubles[s]: a double card lies in front of seat s, to be resolved on its next turn.
    FIELDS = Engine.FIELDS + ("penalties", "doubles")

    def _start(self):
        self._start_common(0)  # the youngest, seat 0, opens
        self.penalties = [0] * len(self.names)
        self.doubles = [False] * len(self.names)

    def _player(self, seat, player):
        player["penalties"] = self.penalties[seat]
        player["double"] = self.doubles[seat]

    def _parse(self, card):
        if card == "rev":
            return card, _REVERSE, None
        if card == "basta":
            return card, _BASTA, None
        if card == "-5":
            return card, _MINUS5, None
        if card == "swap":
            return card, _SWAP, None
        if card[:5] == "swap:":
            return card, _SWAP, self._other_seat(card, "swap:", "swap hands with yourself")
        if card[:4] == "dbl:":
            target = self._other_seat(card, "dbl:", "play a double on yourself")
            if self.doubles[target]:
                raise Illegal("%s already has a double" % self.names[target])
            return card, _DOUBLE, target
        if card == "dbl":
            raise Illegal("a double needs its target: dbl:S")
        return card, _NUMBER, number(card)

    def _other_seat(self, card, prefix, itself):
        seat = seat_argument(card, prefix, len(self.names))
        if seat == self.turn:
            raise Illegal("you cannot " + itself)
        return seat

    def _apply(self, move):
        card, kind, value = move
        seat = self.turn
        if kind == _NUMBER:
            self.total += value
        elif kind == _MINUS5:
            self.total -= 5
        elif kind == _BASTA:
            self.total = _SAFE
        elif kind == _REVERSE:
            self.dir = -self.dir
        elif kind == _DOUBLE:
            self.doubles[value] = True
        self._logged(seat, card)
        if self.total > _SAFE:
            return self._bust(seat)
        if kind != _MINUS5:  # after -5 the same player still owes the card turned up
            self.owed -= 1
            if self.owed == 0:
                self.turn = self._next(seat, self.dir)
                self.owed = 2 if self.doubles[self.turn] else 1
                self.doubles[self.turn] = False  # the double is being resolved now
        return []

    def _bust(self, seat):
        effects = [effect("bust", seat), effect("round_end", seat)]
        self.penalties[seat] += 1
        if self.penalties[seat] >= self.options["limit"]:
            fewest = min(self.penalties)
            self._finish([s for s in range(len(self.names)) if self.penalties[s] == fewest])
            effects.append(effect("game_end", seat))
            return effects
        self._next_round(seat)  # the player who took the penalty opens it
        self.doubles = [False] * len(self.names)
        return effects
