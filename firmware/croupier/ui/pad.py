"""Score-pad drawing shared by the games that show a table of players instead of a total:
a title line and one row per player (name, then right-aligned columns)."""
from croupier.ui import draw


def title(fb, left, right):
    fb.text(draw.clip(left, 15 - len(right)), 0, 0, 1)
    draw.text_right(fb, right, 0)


def row(fb, y, width, lit, name, chars, columns):
    """A player's row at y: name cut to chars, then (text, right edge) columns; lit rows
    (the player to act) in reverse video across width pixels."""
    c = 0 if lit else 1
    if lit:
        fb.fill_rect(0, y - 1, width, 9, 1)
    fb.text(draw.clip(name, chars), 0, y, c)
    for text, right in columns:
        fb.text(text, right - len(text) * draw.CHAR, y, c)
