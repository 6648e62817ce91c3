"""A count and its noun agreeing, as every message of the app and the CLI writes them."""


def count(number, noun, nouns=None):
    """`1 card`, `2 cards`, `0 games`, `-1 point`; nouns: an irregular plural ("penalties")."""
    return "%d %s" % (number, noun if abs(number) == 1 else nouns or noun + "s")
