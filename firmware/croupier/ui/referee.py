"""The factor race's referee, inside the play screen: key in the card on the table and the
card played (value, `ok`, then the colour 1-6) and read LEGAL or why not. The next question
starts from the card now on the table: the played card when legal, else the same one (a
wrong card goes face up in front of its player). Rulings change nothing in the game.

Keys: digits, `ok`; undo deletes a digit or steps back (from the start: back to the game);
menu goes back to the game.
"""
from croupier.rules.factors import VALUES, judge
from croupier.ui import draw, pad

ON_TABLE, PLAYED = 0, 1
PROMPTS = ("on table", "played")


class Referee:
    def __init__(self, ui):
        self.ui = ui
        self.cards = [None, None]  # "V:C" of the card on the table and the card played
        self.card = ON_TABLE  # the card being keyed in
        self.value = ""  # its value's digits; its colour follows once `ok` took the value
        self.valued = False
        self.ruling = None  # None: no ruling yet; "": legal; else the reason

    def key(self, k, hold):
        if self.ruling is not None and k != "undo" and k != "menu":
            self._next_question()
            if k == "ok":
                return None
        if "0" <= k <= "9":
            self._digit(k)
        elif k == "ok" and not self.valued:
            if self.value and int(self.value) in VALUES:
                self.valued = True
            else:
                self.ui.error("values: 2 3 4 5 6 8 9 10 12 15")
        elif k == "undo":
            return self._back()
        elif k == "menu":
            return ""
        return None

    def _digit(self, k):
        if not self.valued:
            if len(self.value) < 2:
                self.value = k if self.value == "0" else self.value + k
            return
        if not "1" <= k <= "6":
            self.ui.error("colours are 1 to 6")
            return
        self.cards[self.card] = "%s:%s" % (self.value, k)
        self.value, self.valued = "", False
        if self.card == ON_TABLE:
            self.card = PLAYED
            return
        self.ruling = judge(self.cards[ON_TABLE], self.cards[PLAYED]) or ""

    def _next_question(self):
        if self.ruling == "":
            self.cards[ON_TABLE] = self.cards[PLAYED]
        self.cards[PLAYED] = None
        self.ruling = None

    def _back(self):
        if self.ruling is not None:
            self.ruling = None
            self.cards[PLAYED] = None
        elif self.valued:
            self.valued = False
        elif self.value:
            self.value = self.value[:-1]
        elif self.card == PLAYED:
            self.card = ON_TABLE
            self.value, self.valued = self.cards[ON_TABLE].split(":")[0], True
            self.cards[ON_TABLE] = None
        else:
            return ""
        return None

    def draw(self, fb):
        pad.title(fb, "Referee", "")
        for i in (ON_TABLE, PLAYED):
            y = 10 + 10 * i
            fb.text(PROMPTS[i], 0, y, 1)
            fb.text(self._shown(i), 72, y, 1)
        if self.ruling == "":
            draw.text2x(fb, "LEGAL", 33)
        elif self.ruling:
            fb.text("NOT LEGAL", 0, 30, 1)
            for i, line in enumerate(draw.wrap(self.ruling, 16)[:2]):
                fb.text(line, 0, 39 + 8 * i, 1)
        else:
            fb.text("value # colour" if not self.valued else "colour 1-6", 0, 36, 1)
        draw.bar(fb, 56, ("", "", "back"))

    def _shown(self, i):
        if self.cards[i]:
            value, colour = self.cards[i].split(":")
            return "%s c%s" % (value, colour)
        if i != self.card:
            return ""
        return "%s c?" % self.value if self.valued else self.value + "_"
