"""The history of the current round: who played which card and the total after it.

`a`/`b` scroll, any other key goes back to the game. Newest card at the bottom.
"""
from croupier.ui import draw
from croupier.ui.menu import title_bar

ROWS = 6


class History:
    def __init__(self, ui, back):
        self.ui, self.back = ui, back
        game = ui.controller.game
        self.log = game.round_log()
        self.names = [p["name"] for p in ui.controller.state()["players"]]
        self.top = max(0, len(self.log) - ROWS)

    def key(self, k, hold):
        if k == "a":
            self.top = max(0, self.top - 1)
        elif k == "b":
            self.top = min(max(0, len(self.log) - ROWS), self.top + 1)
        else:
            self.back()

    def draw(self, fb):
        title_bar(fb, "Round %d" % self.ui.controller.state()["round"], "%d cards" % len(self.log))
        if not self.log:
            draw.text_center(fb, "no card yet", 30)
        for row, (seat, card, total) in enumerate(self.log[self.top:self.top + ROWS]):
            y = 10 + 9 * row
            fb.text(draw.clip(self.names[seat], 7), 0, y, 1)
            fb.text(draw.clip(card, 8), 64, y, 1)
            if total is not None:  # games without a running total log None
                draw.text_right(fb, str(total), y)
