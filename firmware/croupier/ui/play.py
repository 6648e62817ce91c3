"""The play screen: running total in big digits, turn, direction, cards owed, every
player's chip, soft keys; card entry with a preview of the result before `ok`.

Keys: digits type a number card, `ok` plays it (with nothing typed: the game's EMPTY_OK
card), `a`/`b`/`c` play the soft-key card (or turn the page / ask for a seat), `undo`
deletes a digit or steps back out of a seat choice, else undoes the last input; held, redoes.
Games whose screen is not a running total fill the optional hooks of ui/games/__init__.py
(typed, result, pages, choices, body, sub-screens).
"""
from micropython import const
from croupier.journal import JournalError
from croupier.rules import Illegal
from croupier.rules.cards import MAX_DIGITS
from croupier.ui import draw
from croupier.ui.games import MORE

# Regions, each on whole pages (8 pixel rows: the unit the display driver compares) and each
# in its own place, so a card sends only what really changes: the preview appears on blank
# pages and goes again; the table above it (ui/table.py) changes in place.
_ENTRY_Y = const(40)  # pages 5-6: the preview of the card being typed, the seat prompt, what is owed
_PREVIEW_LINES = const(5)  # an illegal card's reason wraps: past two lines, over all but the top row
BACK = ("", "", "back")  # the soft keys while a card waits for its seat
OVER = ("", "", "")  # a finished game has no card left to play


class Play:
    def __init__(self, ui, game_module):
        self.ui, self.g = ui, game_module
        self.controller = ui.controller
        self._bar_keys = None  # the soft-key page _bar last made labels for
        # the running total's table, for the games that draw no body of their own
        self.table = None if self._hook("body") else _table(self)
        self._clear()

    def _clear(self):
        self.entry = ""
        self.page = 0
        self.prefix = None  # a card waiting for its seat, e.g. "dbl:"
        self.prompt = None  # what the prefix asks for, e.g. "dbl on seat 1-3?"
        self.choices = None  # what the prefix picks from, (label, value) pairs; None: a seat
        self.preview = None  # (line,) or (line, line) shown while a number is typed
        self.sub = None  # a game's own screen, opened by a soft key, inside this one

    # --- keys -----------------------------------------------------------------------------
    def key(self, k, hold):
        if self.sub:
            self._sub_key(k, hold)
        elif "0" <= k <= "9":
            self._digit(k)
        elif k == "ok":
            if self.prefix:
                self._play(self.prefix[:-1])
            elif self.entry:
                self._play(self._typed())
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
            self._pick(int(k) - 1)
            return
        if len(self.entry) >= MAX_DIGITS:
            self.ui.error("%d digits max" % MAX_DIGITS)
            return
        self.entry = k if self.entry == "0" else self.entry + k
        self.refresh_preview()

    def _pick(self, i):
        picks = self.choices
        if picks is None and 0 <= i < len(self.controller.state()["players"]):
            self._play(self.prefix + str(i))
        elif picks is not None and 0 <= i < len(picks):
            label, value = picks[i]
            if value[-1:] == ":":  # one more question, e.g. "out:2:": on a jack?
                self._ask(self.prefix + value, label)
            else:  # "": the card as it stands, as `ok` plays it
                self._play(self.prefix + value if value else self.prefix[:-1])
        else:
            self.ui.error("no %s %d" % ("seat" if picks is None else "choice", i + 1))

    def _pages(self):
        pages = self._hook("pages")
        pages = pages(self.controller.state()) if pages else self.g.PAGES
        if self.page >= len(pages):  # the phase changed under a later page (a link input)
            self.page = 0
        return pages

    def _hook(self, name):
        """The game module's optional hook `name` (ui/games/__init__.py), or None."""
        return getattr(self.g, name, None)

    def _typed(self):
        typed = self._hook("typed")
        return typed(self.controller.state(), self.entry) if typed else self.entry

    def _soft(self, i):
        if self.controller.state()["over"]:
            self.ui.error("game over")
            return
        pages = self._pages()
        label, action = pages[self.page][i]
        if action == MORE:
            self.page = (self.page + 1) % len(pages)
        elif not action:
            self.ui.error("no key here")
        elif callable(action):  # the game's own screen, e.g. a referee
            self.sub = action(self)
        elif "{}" in action:  # the typed entry fills the card, e.g. "{}x"
            if self.entry:
                self._play(action.format(self.entry))
            else:
                self.ui.error("type a card first")
        elif action.endswith(":"):
            self._ask(action, action[:-1])
        else:
            self._play(action)

    def _ask(self, prefix, topic):
        """A card waiting for its seat or another choice; topic heads the question."""
        self.entry, self.preview, self.prefix = "", None, prefix
        choices = self._hook("choices")
        self.choices = choices(prefix, self.controller) if choices else None
        self.prompt = self._prompt(topic)

    def _prompt(self, topic):
        """What a card waiting for its seat (or another choice) asks: "dbl on seat 1-3?"."""
        count = self._pick_count(self.controller.state())
        listed = self.choices is not None or self._hook("body")  # a numbered list shows the seats
        return ("%s 1-%d?" if listed else "%s on seat 1-%d?") % (topic, count)

    def _sub_key(self, k, hold):
        """The sub-screen answers a card to play and close, "" to close, None to stay."""
        card = self.sub.key(k, hold)
        if card is not None:
            self.sub = None
            if card:
                self._play(card)

    def _back_or_undo(self, hold):
        if hold:
            self._clear()
            self._undo_redo(self.controller.redo)
        elif self.prefix:
            self.prefix = None
        elif self.entry:
            self.entry = self.entry[:-1]
            self.refresh_preview()
        elif self.page:
            self.page = 0
        else:
            self._undo_redo(self.controller.undo)

    def _undo_redo(self, step):
        try:
            step()
        except (Illegal, JournalError) as e:
            self.ui.error(e.reason)

    def _play(self, card):
        self._clear()
        try:
            self.controller.play(card)
        except (Illegal, JournalError) as e:
            self.ui.error(e.reason)

    def refresh_preview(self):
        if not self.entry:
            self.preview = None
            return
        try:
            after, effects = self.controller.game.peek(self._typed())
        except Illegal as e:
            self.preview = draw.wrap("%s -> ? %s" % (self.entry, e.reason), 16)[:_PREVIEW_LINES]
            return
        result = self._hook("result")
        line = "%s -> %s" % (self.entry, result(self.controller.state(), self.entry, after)
                             if result else self.table.reached(after, effects))
        if not effects:
            self.preview = (line,)
            return
        names = after["players"]
        title, text = self.ui.effect_text(effects[0]["kind"])
        self.preview = (line + " " + title, text.format(names[effects[0]["seat"]]["name"]))

    # --- drawing --------------------------------------------------------------------------
    # A redraw allocates nothing: the strings a state shows are made once per accepted input
    # (the table's _texts), the soft-key labels once per page (_bar).
    def draw(self, fb):
        if self.sub:
            self.sub.draw(fb)
            return
        state = self.controller.state()
        body = self._hook("body")  # the game draws everything above the soft keys
        if body and self.prefix:
            self._choice_list(fb, state)
        elif body:
            body(fb, state)
        else:
            self.table.draw(fb, state)
        lines = self.preview
        if self.prefix and not body:
            lines = (self.prompt,)
        elif not lines and not body and self.table.owing:
            lines = (self.table.owing,)
        if lines:
            top = _ENTRY_Y - draw.CHAR * max(0, len(lines) - 2)
            clear = top if len(lines) <= 2 else draw.CHAR  # no half-covered row shows
            fb.fill_rect(0, clear, draw.W, _ENTRY_Y + 2 * draw.CHAR - clear, 0)
            for i in range(len(lines)):
                fb.text(draw.clip(lines[i], 16), 0, top + i * draw.CHAR, 1)
        draw.bar(fb, 56, BACK if self.prefix else OVER if state["over"] else self._bar())

    def _bar(self):
        """The soft-key labels of the page shown."""
        keys = self._pages()[self.page]
        if keys is not self._bar_keys:
            self._bar_labels = (keys[0][0], keys[1][0], keys[2][0])
            self._bar_keys = keys
        return self._bar_labels

    def _pick_count(self, state):
        """How many things the digit keys pick from now: the choices, else the seats (9 at most)."""
        picks = self.choices
        return min(9, len(picks) if picks is not None else len(state["players"]))

    def _choice_list(self, fb, state):
        """What the prefix picks from, numbered for the digit keys, two columns of five."""
        picks = self.choices
        count = self._pick_count(state)
        fb.text(self.prompt, 0, 0, 1)
        width = 6 if count > 5 else 14  # characters a label gets in its column
        for i in range(count):
            label = picks[i][0] if picks is not None else state["players"][i]["name"]
            fb.text("%d %s" % (i + 1, draw.clip(label, width)), (i // 5) * 64, 10 + (i % 5) * 9, 1)


def _table(play):
    """The table of a game whose screen is a running total: its module loads only then."""
    from croupier.ui.table import Table

    return Table(play)
