"""BASTA on screen: penalties per player; five action cards on two soft-key pages."""
from croupier.ui.games import MORE

NAME = "basta"
FIRST = "starts"
LABELS = {"limit": "limit"}
PAGES = (
    (("basta", "basta"), ("-5", "-5"), ("more", MORE)),
    (("dbl", "dbl:"), ("swap", "swap:"), ("rev", "rev")),
)
EMPTY_OK = None
TEXTS = {
    "bust": ("OVER 50", "{} takes a penalty"),
}


def badge(p):
    return str(p["penalties"])  # nobody is ever out in BASTA: the game ends at the limit


def marked(p):
    return p["double"]
