# Reading card notation (docs/cards.md) that several games share: whole numbers and
# seat arguments like the S of "dbl:S".
from .engine import Illegal

MAX_DIGITS = 3  # card values -999..999: every real and house deck, and short journal lines


def shown(card):
    """The card as quoted in a reason (cut short so a reason stays one line)."""
    return '"%s"' % (card if len(card) <= 12 else card[:12] + "...")


def _is_decimal(text):
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return bool(text)


def number(card):
    """The value of a whole-number card written canonically ("9", "-10", "0")."""
    digits = card[1:] if card[:1] == "-" else card
    if not _is_decimal(digits):
        if _is_decimal(digits.replace(".", "", 1).replace(",", "", 1)):
            raise Illegal("card values are whole numbers, not %s" % shown(card))
        raise Illegal("unknown card %s" % shown(card))
    if len(digits) > MAX_DIGITS:
        raise Illegal("card values go from -999 to 999")
    if digits[0] == "0" and card != "0":
        raise Illegal("write %s without leading zeros or sign" % shown(card))
    return int(card)


def seat_argument(card, prefix, count):
    """The seat S of a card written prefix + "S" (e.g. "dbl:2"), checked against count seats."""
    text = card[len(prefix):]
    if _is_decimal(text) and (text == "0" or text[0] != "0") and int(text) < count:
        return int(text)
    raise Illegal("%s needs a seat from 0 to %d, like %s1" % (shown(card), count - 1, prefix))
