"""Announcement screens: one per effect (doublet, bust, swimming, eliminated, round end,
game over), each with its own buzzer tune named after the effect kind.
Sticky ones (round end, game over) stay until a key; the others go by themselves.
"""
from croupier.ui import draw


ROWS = 4  # text rows under the banner


class Announcement:
    def __init__(self, title, lines, tune, sticky):
        self.title, self.tune, self.sticky = title, tune, sticky
        rows = []  # wrapped once here, so a redraw allocates nothing
        for line in lines:
            rows.extend(draw.wrap(line, 16))
        self.rows = rows[:ROWS]

    def draw(self, fb):
        draw.banner(fb, self.title)
        for i in range(len(self.rows)):
            draw.text_center(fb, self.rows[i], 24 + 10 * i)


def build(texts, state, effects, tunes=None):
    """The announcements for one accepted input, in the order the effects happened.
    tunes: a game's own effect kinds -> the buzzer tune each plays (default: the kind)."""
    names = [p["name"] for p in state["players"]]
    kinds = [e["kind"] for e in effects]
    found = []
    payer = None
    for e in effects:
        kind = e["kind"]
        if kind == "round_end":
            if "game_end" not in kinds:
                found.append(_round_end(texts, names, state, payer))
        elif kind == "game_end":
            winners = [names[s] for s in state["winners"]]
            found.append(Announcement("WINNER" if len(winners) == 1 else "WINNERS",
                                      winners[:3], kind, True))
        else:
            if kind == "bust":
                payer = e["seat"]
            title, line = effect_text(texts, kind)
            tune = tunes.get(kind, kind) if tunes else kind
            found.append(Announcement(title, [line.format(names[e["seat"]])], tune, False))
    return found


def effect_text(texts, kind):
    return texts.get(kind) or (kind.upper(), "{}")


def _round_end(texts, names, state, payer):
    lines = []
    if payer is not None:
        lines.append(effect_text(texts, "bust")[1].format(names[payer]))
    lines.append("%s starts" % names[state["turn"]])
    lines.append("Shuffle & deal")
    return Announcement("ROUND %d" % state["round"], lines, "round_end", True)
