"""Lobo 77 on screen: tokens per player, 2x / -10 / rev soft keys, "end" on an empty ok."""
NAME = "lobo77"
FIRST = "deals"
LABELS = {"tokens": "tokens", "negative_doublets": "neg.dbl", "strict_winner": "strict"}
PAGES = ((("2x", "2x"), ("-10", "-10"), ("rev", "rev")),)
EMPTY_OK = "end"
TEXTS = {
    "doublet": ("DOUBLET!", "{} pays a token"),
    "bust": ("77!", "{} pays a token"),
    "swimming": ("SWIMMING", "{} swims"),
    "eliminated": ("OUT", "{} is out"),
}


def badge(p):
    if p["out"]:
        return "x"
    return str(p["tokens"]) if p["tokens"] else "~"


def marked(p):
    return False


def owing(game):
    """After the first card of a 2x turn `owed` is 1, as on any turn: say a card is still due."""
    return "one more card" if game.second_card_owed() else None
