"""Two-player sums on screen: the 3x3 board (each cell's owner and how many markers lie on
it, * where the x2 marker lies), and per player the points, markers left (* while the x2
is still held), cards in hand and captured markers.

Digits 0-5 + `ok` play a card (its marker goes on the cell = last card + this one);
`x2` plays the typed card with the x2 marker; `draw`, then force / protect after a card,
show (a reveal) and stuck on the next pages. Player 1's cells are solid, player 2's framed.
"""
from croupier.ui import draw, pad
from croupier.ui.games import MORE

NAME = "duo"
FIRST = "starts"
LABELS = {"layout": "lay", "target": "target"}
VALUES = {"layout": ("123456789", "276951438")}  # rows, or the magic square
EMPTY_OK = None
TEXTS = {"round_end": ("WIN", "{} wins the round")}  # previewing a winning card
PAGES = (
    (("x2", "{}x"), ("draw", "draw"), ("more", MORE)),
    (("force", "force"), ("prot", "protect"), ("more", MORE)),
    (("show", "reveal"), ("stuck", "stuck"), ("more", MORE)),
)
CELL_W = 17
CELL_H = 15
BOARD_Y = 9
PANEL_X = 3 * CELL_W + 3


def result(state, entry, after):
    if state["last"] is None:
        return "opens"
    return "cell %d" % (state["last"] + int(entry))  # also when the card ends the round


def body(fb, state):
    players = state["players"]
    if state["over"]:
        pad.title(fb, "GAME OVER", "")
    else:
        pad.title(fb, players[state["turn"]]["name"] + (" must" if state["forced"] else ""),
                  "R%d" % state["round"])
    layout, board = state["layout"], state["board"]
    for at in range(9):
        cell = int(layout[at])
        _cell(fb, (at % 3) * CELL_W, BOARD_Y + (at // 3) * CELL_H, cell, board[cell - 1])
    for seat, p in enumerate(players):
        y = 10 + 18 * seat
        _owner_style(fb, seat, PANEL_X - 1, y - 1, draw.W - PANEL_X + 1, 9)
        fb.text(draw.clip(p["name"], 6), PANEL_X + 1, y, seat)  # dark on solid, lit in frame
        draw.text_right(fb, str(p["score"]) + " ", y, seat)
        fb.text("%d%s %dc +%d" % (p["markers"], "*" if p["x2"] else "", p["hand"], p["captured"]),
                PANEL_X, y + 9, 1)
    last = "-" if state["last"] is None else str(state["last"])
    fb.text("last %s p%d" % (last, state["pile"]), PANEL_X, 46, 1)


def _owner_style(fb, seat, x, y, w, h):
    """Player 1's things solid, player 2's framed."""
    if seat == 0:
        fb.fill_rect(x, y, w, h, 1)
    else:
        fb.rect(x, y, w, h, 1)


def _cell(fb, x, y, cell, here):
    fb.rect(x, y, CELL_W + 1, CELL_H + 1, 1)
    if here is None:
        fb.text(str(cell), x + 5, y + 4, 1)
        return
    seat, markers, x2 = here
    _owner_style(fb, seat, x + 2, y + 2, CELL_W - 3, CELL_H - 3)
    fb.text("%d%s" % (markers, "*" if x2 else ""), x + (1 if x2 else 5), y + 4, seat)
