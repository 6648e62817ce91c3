# Lobo 77 (docs/rules.md section 1): count up, avoid doublets and 77, pay tokens, swim, get out.
from .engine import const, Engine, Illegal, Flag, Number, effect
from .cards import number

_BUST = const(77)
DOUBLETS = (11, 22, 33, 44, 55, 66)

# Move kinds returned by _parse.
_NUMBER = const(0)   # any whole number, "0" and "-10" included
_REVERSE = const(1)  # "rev"
_TWO = const(2)      # "2x": the next player owes two cards
_END = const(3)      # "end": end a two-card turn early


class Game(Engine):
    GAME = "lobo77"
    OPTIONS = (
        Number("tokens", 3, 1, 5),
        Flag("negative_doublets", False),
        Flag("strict_winner", False),
    )
    # starter: seat that opened this round; pair: the turn on now is a two-card turn.
    FIELDS = Engine.FIELDS + ("tokens", "starter", "pair")

    def _start(self):
        # Seat 0 deals; the seat on its left (clockwise) opens round 1.
        self._start_common(1)
        self.tokens = [self.options["tokens"]] * len(self.names)
        self.starter = 1
        self.pair = False

    def state(self):
        state = Engine.state(self)
        if self.second_card_owed():  # only then: a finished game's `end` record stays as it was
            state["second_card"] = True
        return state

    def _player(self, seat, player):
        player["tokens"] = self.tokens[seat]

    def _parse(self, card):
        if card == "2x":
            if self.pair and self.owed == 2:
                raise Illegal("the first of two cards cannot be 2x")
            return card, _TWO, 0
        if card == "rev":
            return card, _REVERSE, 0
        if card == "end":
            if not self.pair:
                raise Illegal("end only cuts a two-card turn short")
            if self.owed == 2:
                raise Illegal("a turn plays at least one card")
            return card, _END, 0
        return card, _NUMBER, number(card)

    def _apply(self, move):
        card, kind, value = move
        seat = self.turn
        effects = []
        self.total += value
        if kind == _REVERSE:
            self.dir = -self.dir
        self._logged(seat, card)
        if kind == _NUMBER and value:  # 0 repeats the total: never a doublet
            if self.total >= _BUST:
                self._pay(seat, "bust", effects)
                self._end_round(seat, effects)
                return effects
            if self._is_doublet(self.total):
                self._pay(seat, "doublet", effects)
                if self._game_won(seat, effects):
                    return effects
        self.owed -= 1
        if kind == _END or self.owed == 0 or self.out[seat]:
            self.turn = self._next(seat, self.dir)
            self.owed = 2 if kind == _TWO else 1
            self.pair = kind == _TWO
        return effects

    def second_card_owed(self):
        """True between the two cards of a two-card turn: its player owes one more card
        (the state's `owed` is 1 then, as on any turn)."""
        return self.pair and self.owed == 1 and not self.over

    def _is_doublet(self, total):
        if total < 0 and self.options["negative_doublets"]:
            total = -total
        return total in DOUBLETS

    def _pay(self, seat, kind, effects):
        """One token back to the supply; a swimming player who must pay is out."""
        effects.append(effect(kind, seat))
        if self.tokens[seat]:
            self.tokens[seat] -= 1
            if not self.tokens[seat]:
                effects.append(effect("swimming", seat))
        else:
            self.out[seat] = True
            effects.append(effect("eliminated", seat))

    def _game_won(self, seat, effects):
        """End the game if only one player is left in (or, strict, holds tokens)."""
        left = [s for s in range(len(self.names)) if not self.out[s]]
        if self.options["strict_winner"] and len(left) > 1:
            left = [s for s in left if self.tokens[s]]
        if len(left) != 1:
            return False
        self._finish(left)
        effects.append(effect("round_end", seat))
        effects.append(effect("game_end", seat))
        return True

    def _end_round(self, seat, effects):
        if self._game_won(seat, effects):
            return
        effects.append(effect("round_end", seat))
        # The previous starter deals; the next seat still in, clockwise, opens.
        self.starter = self._next(self.starter, 1)
        self._next_round(self.starter)
        self.pair = False
