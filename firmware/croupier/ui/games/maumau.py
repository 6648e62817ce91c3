"""Mau-Mau on screen: the tracker (whose turn, direction, cards owed on stacked 7s, the suit
a jack wished) and the score pad (each hand's points after a round, typed or counted card
by card; scores down to the elimination limit; joining and leaving between rounds).

Digits type a rank and `ok` plays it (1 is the ace; 7, 8, 9 do their actions); soft keys
play the jack (then the suit), draw, Q, K and the table events. While the hands are
counted, digits type the points of the player named on top, or `cards` counts them.
"""
from micropython import const
from croupier.ui import draw, pad
from croupier.ui.games import MORE

NAME = "maumau"
FIRST = "starts"
LABELS = {"limit": "limit", "points": "points", "jack_finish_doubles": "J x2"}
VALUES = {"limit": (-100, -150, -200, -300, -500, -50)}
SUITS = (("hearts", "h"), ("diamonds", "d"), ("spades", "s"), ("clubs", "c"))
EMPTY_OK = None
TEXTS = {
    "mau": ("MAU!", "{} has one card"),
    "maumau": ("MAU-MAU!", "{} is out of cards"),
    "eliminated": ("OUT", "{} is out"),
    "joined": ("JOINED", "{} joins"),
    "left": ("LEFT", "{} left"),
    "round_end": ("END", "{} went out"),  # previewing the last hand of a round
}
# the buzzer's tunes for Mau-Mau's own effects (it knows the common ones by name)
TUNES = {"mau": "doublet", "maumau": "round_end", "joined": "click", "left": "click"}
ROWS = 5  # player rows between the title and the soft keys
_TABLE_W = const(94)  # the rows' width; the turn's direction, draws and suit sit right of it


def _count_cards(play):
    from croupier.ui.handcount import HandCount

    return HandCount(play)


PAGES = (
    (("J", "J:"), ("draw", "draw"), ("more", MORE)),
    (("Q", "Q"), ("K", "K"), ("more", MORE)),
    (("out", "out:"), ("forgt", "forgot:"), ("more", MORE)),
    (("join", "join:"), ("leave", "leave:"), ("more", MORE)),
)
COUNT_PAGES = ((("cards", _count_cards), ("", ""), ("", "")),)


def counting(state):
    return state["phase"] == "count"


def pages(state):
    return COUNT_PAGES if counting(state) else PAGES


def typed(state, entry):
    if counting(state):
        return "hand:%d:%s" % (state["turn"], entry)
    return "A" if entry == "1" else entry


def result(state, entry, after):
    return "%s next" % after["players"][after["turn"]]["name"]


def choices(prefix, controller):
    if prefix == "J:":
        return SUITS
    if prefix[:4] == "out:":
        return _going_out(prefix, controller)
    if prefix != "join:":
        return None
    # new names: the roster's not yet seated, then the first free default name
    seated = [p["name"].lower() for p in controller.state()["players"]]
    found = [(n, n) for n in controller.roster if n.lower() not in seated]
    n = len(seated) + 1
    while "p%d" % n in seated:
        n += 1
    found.append(("P%d" % n, "P%d" % n))
    return found


# how an untracked round ended, asked after the seat when a jack finish doubles the points
HOW_OUT = (("not on a jack", ""), ("on a jack: x2", "J"))


def _going_out(prefix, controller):
    """The seats (then how they went out, when that matters), or None: the plain seat pick."""
    if not controller.game.options["jack_finish_doubles"]:
        return None
    if prefix == "out:":
        return [(p["name"], "%d:" % seat) for seat, p in enumerate(controller.state()["players"])]
    return HOW_OUT


def body(fb, state):
    players = state["players"]
    turn = -1 if state["over"] else state["turn"]
    if state["over"]:
        pad.title(fb, "GAME OVER", "R%d" % state["round"])
    elif counting(state):
        pad.title(fb, "Hand: " + players[turn]["name"], "pts?")
    else:
        pad.title(fb, players[turn]["name"], "R%d" % state["round"])
    going = _went_out(state) if counting(state) else -1
    # players still in, then the eliminated ones; those who left are struck from the table
    y = 10
    for still_in in (True, False):
        for seat, p in enumerate(players):
            if p["out"] == still_in or p["left"] or y > 10 + 9 * (ROWS - 1):
                continue
            pad.row(fb, y, _TABLE_W, seat == turn, p["name"], 5,
                    ((_middle(p, state, seat == going), 56), (str(p["score"]), _TABLE_W - 2)))
            if p["out"]:
                fb.hline(0, y + 3, _TABLE_W, 1)
            y += 9
    if not state["over"] and not counting(state):
        _tracker(fb, state)


def _went_out(state):
    """The seat that went out. The pad asks for the hands clockwise from it, so it is the
    first active seat without a count counter-clockwise from the one asked for."""
    players = state["players"]
    seat = state["turn"]
    for _ in players:
        seat = (seat - 1) % len(players)
        if not players[seat]["out"] and players[seat]["counted"] is None:
            return seat


def _middle(p, state, went_out):
    """Cards in hand while playing; the hand's points (? missing, - went out) while counting."""
    if p["out"]:
        return ""
    if went_out:
        return "-"
    if counting(state):
        return "?" if p["counted"] is None else str(p["counted"])
    return str(p["hand"])


def _tracker(fb, state):
    draw.arrow(fb, _TABLE_W + 3, 10, draw.W - _TABLE_W - 3, state["dir"])
    if state["draw"]:
        fb.text("+%d" % state["draw"], _TABLE_W + 3, 26, 1)
    if state["suit"]:
        fb.text("J:" + state["suit"], _TABLE_W + 3, 38, 1)
