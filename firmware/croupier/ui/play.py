"""The play screen: running total in big digits, turn, direction, cards owed, every
player's chip, soft keys; card entry with a preview of the result before `ok`.

Keys: digits type a number card, `ok` plays it (with nothing typed: the game's EMPTY_OK
card), `a`/`b`/`c` play the soft-key card (or turn the page / ask for a seat), `undo`
deletes a digit or steps back out of a seat choice, else undoes the last input; held, redoes.
"""
from croupier.rules import Illegal
from croupier.ui import draw
from croupier.ui.games import MORE

MAX_DIGITS = 3
CHIP_W = 32
CHIPS_Y = 37


class Play:
    def __init__(self, ui, game_module):
        self.ui, self.g = ui, game_module
        self.controller = ui.controller
        self._clear()

    def _clear(self):
        self.entry = ""
        self.page = 0
        self.prefix = None  # a card waiting for its seat, e.g. "dbl:"
        self.preview = None  # (line, line) shown while a number is typed

    # --- keys -----------------------------------------------------------------------------
    def key(self, k, hold):
        if "0" <= k <= "9":
            self._digit(k)
        elif k == "ok":
            if self.prefix:
                self._play(self.prefix[:-1])
            elif self.entry:
                self._play(self.entry)
            elif self.g.EMPTY_OK:
                self._play(self.g.EMPTY_OK)
            else:
                self.ui.error("type a card")
        elif k in ("a", "b", "c"):
            self._soft("abc".index(k))
        elif k == "undo":
            self._back_or_undo(hold)
        elif k == "menu":
            self._clear()
            self.ui.play_menu()

    def _digit(self, k):
        if self.prefix:
            seat = int(k) - 1
            if 0 <= seat < len(self.controller.state()["players"]):
                self._play(self.prefix + str(seat))
            else:
                self.ui.error("no seat %s" % k)
            return
        if len(self.entry) >= MAX_DIGITS:
            self.ui.error("%d digits max" % MAX_DIGITS)
            return
        self.entry = k if self.entry == "0" else self.entry + k
        self._update_preview()

    def _soft(self, i):
        label, action = self.g.PAGES[self.page][i]
        if action == MORE:
            self.page = (self.page + 1) % len(self.g.PAGES)
        elif action.endswith(":"):
            self.entry, self.preview, self.prefix = "", None, action
        else:
            self._play(action)

    def _back_or_undo(self, hold):
        if hold:
            self._clear()
            self._undo_redo(self.controller.redo)
        elif self.prefix:
            self.prefix = None
        elif self.entry:
            self.entry = self.entry[:-1]
            self._update_preview()
        elif self.page:
            self.page = 0
        else:
            self._undo_redo(self.controller.undo)

    def _undo_redo(self, step):
        try:
            step()
        except Illegal as e:
            self.ui.error(e.reason)

    def _play(self, card):
        self._clear()
        try:
            self.controller.play(card)
        except Illegal as e:
            self.ui.error(e.reason)

    def _update_preview(self):
        if not self.entry:
            self.preview = None
            return
        try:
            after, effects = self.controller.game.peek(self.entry)
        except Illegal as e:
            self.preview = (self.entry + " -> ?", e.reason)
            return
        line = "%s -> %s" % (self.entry, after["total"])
        if not effects:
            self.preview = (line, "# to play")
            return
        names = after["players"]
        title, text = self.ui.effect_text(effects[0]["kind"])
        self.preview = (line + " " + title, text.format(names[effects[0]["seat"]]["name"]))

    # --- drawing --------------------------------------------------------------------------
    def draw(self, fb):
        state = self.controller.state()
        players = state["players"]
        if self.prefix:
            fb.text("%s on seat 1-%d?" % (self.prefix[:-1], len(players)), 0, 0, 1)
        else:
            fb.text("GAME OVER" if state["over"] else
                    draw.clip(players[state["turn"]]["name"], 11), 0, 0, 1)
            draw.text_right(fb, "R%d" % state["round"], 0)
        if state["total"] is not None:
            draw.big_number(fb, 0, 9, state["total"])
        if not state["over"]:
            draw.arrow(fb, 88, 12, 38, state["dir"])
            if state["owed"] > 1:
                draw.text_right(fb, "x%d" % state["owed"], 24)
        if self.preview:
            fb.text(draw.clip(self.preview[0], 16), 0, CHIPS_Y, 1)
            fb.text(draw.clip(self.preview[1], 16), 0, CHIPS_Y + 9, 1)
        else:
            self._chips(fb, state)
        if self.prefix:
            draw.bar(fb, 56, ("", "", "back"))
        else:
            page = self.g.PAGES[self.page]
            draw.bar(fb, 56, (page[0][0], page[1][0], page[2][0]))

    def _chips(self, fb, state):
        turn = -1 if state["over"] else state["turn"]
        for seat, p in enumerate(state["players"]):
            x = (seat % 4) * CHIP_W
            y = CHIPS_Y + (seat // 4) * 9
            label = p["name"][:3]
            if self.prefix:
                label = str(seat + 1) + p["name"][:2]
            # name, then the badge in reverse video: it also separates the chips
            c = 0 if seat == turn else 1
            fb.fill_rect(x, y - 1, CHIP_W, 9, 1 - c)
            fb.fill_rect(x + 24, y - 1, 8, 9, c)
            fb.text(label, x, y, c)
            fb.text(self.g.badge(p), x + 24, y, 1 - c)
            if p["out"]:
                fb.hline(x, y + 3, 23, c)
            if self.g.marked(p):
                fb.hline(x, y + 7, 23, c)
