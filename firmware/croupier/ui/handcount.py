"""Counting a Mau-Mau hand card by card, inside the play screen: each key adds one card, the
points of the game's preset add up on screen, `ok` enters the hand as "hand:S:K,7,A".

Keys: 1 ace, 2-9, 0 ten, a/b/c jack, queen, king; undo takes the last card back (with no
card left it goes back to the game), menu goes back without entering anything.
"""
from croupier.rules.maumau import POINTS, card_points
from croupier.ui import draw, pad

RANKS = {"1": "A", "0": "10", "a": "J", "b": "Q", "c": "K"}
MAX_CARDS = 40  # far beyond any hand, well within a journal line


class HandCount:
    def __init__(self, play):
        state = play.controller.state()
        self.ui = play.ui
        self.seat = state["turn"]  # while counting, the seat whose hand is missing
        self.name = state["players"][self.seat]["name"]
        self.preset = POINTS[play.controller.game.options["points"]]
        self.cards = []
        self.points = 0

    def key(self, k, hold):
        rank = RANKS.get(k) or (k if "2" <= k <= "9" else None)
        if rank:
            self._add(rank)
        elif k == "ok":
            if self.cards:
                return "hand:%d:%s" % (self.seat, ",".join(self.cards))
            self.ui.error("key in the cards first")
        elif k == "undo" and self.cards:
            self.points -= card_points(self.cards.pop(), self.preset)
        elif k in ("undo", "menu"):
            return ""
        return None

    def _add(self, rank):
        if len(self.cards) >= MAX_CARDS:
            self.ui.error("%d cards max" % MAX_CARDS)
            return
        self.cards.append(rank)
        self.points += card_points(rank, self.preset)

    def draw(self, fb):
        pad.title(fb, "Hand: " + self.name, "%d cards" % len(self.cards))
        draw.big_number(fb, 0, 11, self.points)
        fb.text("points", draw.big_number_width(self.points) + 6, 29, 1)
        shown = " ".join(self.cards)
        fb.text(shown[-16:], 0, 39, 1)  # the latest cards
        fb.text("1=A 0=10  # ok", 0, 48, 1)
        draw.bar(fb, 56, ("J", "Q", "K"))
