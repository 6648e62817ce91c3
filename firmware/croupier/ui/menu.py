"""Generic keypad screens: a numbered list, a number prompt and a yes/no question.

Keys everywhere: a digit picks directly, `a`/`b` move the cursor, `ok` confirms,
`undo` or `menu` goes back.
"""
from croupier.ui import draw

ROWS = 6  # list rows under the title, 9 px apart


def title_bar(fb, title, right=""):
    """The inverted title row: title at the left, right (if any) at the right, each clear of
    the screen's edge and of the other."""
    fb.fill_rect(0, 0, draw.W, 9, 1)
    fb.text(draw.clip(title, 15 - (len(right) + 1 if right else 0)), 1, 1, 0)
    if right:
        fb.text(right, draw.W - 1 - len(right) * draw.CHAR, 1, 0)


class ListScreen:
    """title, count, label(i) -> text; pick(i) on a digit (i = digit - 1) or on ok;
    ok() instead of pick(cursor) when given (lists whose digits edit items in place)."""

    def __init__(self, ui, title, count, label, pick, back=None, ok=None, cursor=0):
        self.ui, self.title, self.count, self.label = ui, title, count, label
        self.pick, self.back, self.ok, self.cursor = pick, back, ok, cursor

    def key(self, k, hold):
        if "0" <= k <= "9":
            i = int(k) - 1
            if 0 <= i < self.count:
                self.cursor = i
                self.pick(i)
            else:
                self.ui.error("no item %s" % k)
        elif k == "a":
            self.cursor = (self.cursor - 1) % self.count
        elif k == "b":
            self.cursor = (self.cursor + 1) % self.count
        elif k == "ok":
            if self.ok:
                self.ok()
            else:
                self.pick(self.cursor)
        elif k in ("undo", "menu") and self.back:
            self.back()
        else:
            self.ui.error("not here")

    def draw(self, fb):
        title_bar(fb, self.title)
        top = min(max(0, self.cursor - ROWS + 1), max(0, self.count - ROWS))
        for row in range(min(ROWS, self.count - top)):
            i = top + row
            y = 10 + 9 * row
            if i == self.cursor and not self.ok:
                fb.fill_rect(0, y - 1, draw.W, 9, 1)
            fb.text(draw.clip("%d %s" % (i + 1, self.label(i)), 16), 0, y, 0 if i == self.cursor and not self.ok else 1)


class NumberPrompt:
    """Ask for a number in [low, high] with one digit; ok takes the shown default."""

    def __init__(self, ui, title, low, high, value, done, back):
        self.ui, self.title, self.low, self.high = ui, title, low, high
        self.value, self.done, self.back = value, done, back

    def key(self, k, hold):
        if "0" <= k <= "9":
            n = int(k)
            if self.low <= n <= self.high:
                self.value = n
                self.done(n)
            else:
                self.ui.error("%d to %d" % (self.low, self.high))
        elif k == "ok":
            self.done(self.value)
        elif k in ("undo", "menu"):
            self.back()
        else:
            self.ui.error("type a digit")

    def draw(self, fb):
        title_bar(fb, self.title)
        draw.big_number(fb, 56, 18, self.value)
        draw.text_center(fb, "%d-%d  # ok" % (self.low, self.high), 56)


class Confirm:
    """A yes/no question: ok says yes, undo or menu says no."""

    def __init__(self, ui, lines, yes, no):
        self.ui, self.lines, self.yes, self.no = ui, lines, yes, no

    def key(self, k, hold):
        if k == "ok":
            self.yes()
        elif k in ("undo", "menu"):
            self.no()
        else:
            self.ui.error("# yes  * no")

    def draw(self, fb):
        y = 8
        for line in self.lines:
            draw.text_center(fb, line, y)
            y += 12
        draw.bar(fb, 56, ("# yes", "", "* no"))


_PLAY_MENU = ("History", "New game", "Back to game", "Voice")


def play_menu(ui):
    """The menu over a game in play: its history, a new game, back to it, or the voice's
    settings (when the box keeps settings)."""
    count = len(_PLAY_MENU) if ui.settings else len(_PLAY_MENU) - 1
    ui.show(ListScreen(ui, "Menu", count, lambda i: _PLAY_MENU[i],
                       lambda i: _play_menu_pick(ui, i), ui.show_game))


def _play_menu_pick(ui, i):
    if i == 0:
        from croupier.ui.history import History

        ui.show(History(ui, ui.show_game))
    elif i == 1 and ui.controller.unfinished():
        # the game in play stays until the new one starts (backing out of setup keeps it)
        ui.show(Confirm(ui, ("New game?", "The one in play", "is abandoned", "when it starts."),
                        ui.new_game, ui.show_game))
    elif i == 1:
        ui.new_game()
    elif i == 3:
        ui.voice_menu(ui.play_menu)
    else:
        ui.show_game()
