"""The factor race on screen: the score pad (penalty cards during a round; at STOP, the
cards each player still holds, typed for the player lit on the table) and the referee.

Digits + `ok` enter the hand of the lit player; `pen` then a seat lays a penalty card in
front of that player; `ref` opens the referee (previous card, played card -> legal or why).
"""
from croupier.ui import pad

NAME = "factors"
FIRST = "starts"
LABELS = {}
EMPTY_OK = None
TEXTS = {"round_end": ("END", "round scored")}  # previewing a round's last hand


def _referee(play):
    from croupier.ui.referee import Referee

    return Referee(play.ui)


PAGES = ((("pen", "pen:"), ("", ""), ("ref", _referee)),)


def next_hand(state):
    """The seat whose hand is entered next: from the round's first player, clockwise."""
    players = state["players"]
    seat = state["turn"]
    for _ in players:
        if players[seat]["held"] is None:
            return seat
        seat = (seat + 1) % len(players)
    return state["turn"]


def typed(state, entry):
    return "hand:%d:%s" % (next_hand(state), entry)


def result(state, entry, after):
    if after["over"]:
        return "the end"
    return "%s next" % after["players"][next_hand(after)]["name"]


def body(fb, state):
    players = state["players"]
    lit = -1 if state["over"] else next_hand(state)
    if state["over"]:
        pad.title(fb, "GAME OVER", "")
    else:
        pad.title(fb, "Round %d of %d" % (state["round"], len(players)), "")
    row_h = 9 if len(players) <= 5 else 8  # six players fit between title and soft keys
    for seat, p in enumerate(players):
        held = "" if state["over"] else "?" if p["held"] is None else str(p["held"])
        pens = "p%d" % p["penalties"] if p["penalties"] else ""
        pad.row(fb, 8 + seat * row_h, 128, seat == lit, p["name"], 6,
                ((pens, 80), (held, 104), (str(p["score"]), 128)))
