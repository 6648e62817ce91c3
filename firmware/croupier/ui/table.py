"""The play screen's table for the games whose screen is a running total (those without a
`body` hook, ui/games/__init__.py): the total in big digits, round, turn, direction, cards
owed and every player's chip. Play loads it for those games only: the games that draw their
own body never hold its code. A redraw allocates nothing: the strings a state shows are made
once per accepted input (_texts)."""
from micropython import const
from croupier.ui import draw

# Regions, each on whole pages (8 pixel rows: the unit the display driver compares) and each
# in its own place, so a card sends only what really changes: the total, the name on turn
# and the turn marker change in place.
_TOTAL_Y = const(8)  # pages 1-3, left: the running total in 24 px digits
_TOTAL_RIGHT = const(58)  # right-aligned: the units digit stays where it is
_CHIPS_X = const(61)  # pages 1-4, right half: every player's chip, two to a row, in seat order
_CHIP_W = const(32)
_CHIP_PITCH = const(34)  # a 2 px gap between the two chips of a row, none at the right edge
_STATUS_Y = const(33)  # page 4, left, a row under the digits: the play direction, cards owed
_ARROW_W = const(36)


class Table:
    def __init__(self, play):
        self.play = play
        self._shown = None  # the state _texts last made strings for
        self.owing = None  # what the player on turn still owes, in words (_texts)

    def reached(self, after, effects):
        """The running total the typed number card reaches. A card that ends the round (77!,
        over 50) shows the total it went to, not the next round's."""
        play = self.play
        for effect in effects:
            if effect["kind"] == "round_end":
                return play.controller.state()["total"] + int(play.entry)
        return after["total"]

    def _texts(self, state):
        """The strings the table shows for this state. Its own function: the comprehensions
        make `self` a closure cell, which would cost an allocation on every redraw."""
        play = self.play
        g = play.g
        players = state["players"]
        self._top = "GAME OVER" if state["over"] else draw.clip(players[state["turn"]]["name"], 11)
        self._round = "R%d" % state["round"]
        self._owed = "x%d" % state["owed"]
        owing = play._hook("owing")
        self.owing = owing(play.controller.game) if owing else None
        self._total = str(state["total"])  # for totals too wide for big digits
        self._names = [p["name"][:3] for p in players]
        self._numbered = [str(i + 1) + p["name"][:2] for i, p in enumerate(players)]
        self._badges = [g.badge(p) for p in players]
        self._shown = state

    def draw(self, fb, state):
        if state is not self._shown:
            self._texts(state)
        fb.text(self._top, 0, 0, 1)
        draw.text_right(fb, self._round, 0)
        total = state["total"]
        if total is not None:
            width = draw.big_number_width(total)
            if width <= _TOTAL_RIGHT:
                draw.big_number(fb, _TOTAL_RIGHT - width, _TOTAL_Y, total)
            else:  # a house-rule total too wide for big digits
                fb.text(self._total, 0, _TOTAL_Y + draw.CHAR, 1)
        if not state["over"]:
            draw.arrow(fb, 0, _STATUS_Y, _ARROW_W, state["dir"])
            if state["owed"] > 1:
                fb.text(self._owed, _ARROW_W + 8, _STATUS_Y, 1)
        self._chips(fb, state)

    def _chips(self, fb, state):
        turn = -1 if state["over"] else state["turn"]
        labels = self._numbered if self.play.prefix else self._names
        marked = self.play.g.marked
        players = state["players"]
        for seat in range(len(players)):  # not enumerate: its tuples would allocate
            p = players[seat]
            x = _CHIPS_X + (seat % 2) * _CHIP_PITCH
            y = _TOTAL_Y + (seat // 2) * draw.CHAR
            # name, then the badge in reverse video: it also separates the chips
            c = 0 if seat == turn else 1
            fb.fill_rect(x, y, _CHIP_W, draw.CHAR, 1 - c)
            fb.fill_rect(x + 24, y, 8, draw.CHAR, c)
            fb.text(labels[seat], x, y, c)
            fb.text(self._badges[seat], x + 24, y, 1 - c)
            if p["out"]:
                fb.hline(x, y + 3, 23, c)
            if marked(p):
                fb.hline(x, y + 7, 23, c)
