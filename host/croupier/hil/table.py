"""A game at the table for HIL tests: set up over the link, cards entered through the keypad.

The keypad layout below is the one the firmware shows on its soft-key bar; a test that
enters a card through keys expects exactly these presses to play it.
"""

# Game -> card (or card prefix ending in ":", followed by a seat) -> logical keys.
SOFT_KEYS = {
    "lobo77": {"2x": ["a"], "-10": ["b"], "rev": ["c"], "end": ["ok"]},
    "basta": {"basta": ["a"], "-5": ["b"], "dbl:": ["c", "a"], "swap:": ["c", "b"], "swap": ["c", "b", "ok"],
              "rev": ["c", "c"]},
}
STICKY = ("round_end", "game_end")  # announcements that stay until a key closes them


def card_keys(game, card):
    """The presses that enter `card` in `game`: a number and ok, or its soft key(s)."""
    soft = SOFT_KEYS[game]
    if card in soft:
        return soft[card]
    prefix, sep, seat = card.partition(":")
    if sep and prefix + ":" in soft:
        return soft[prefix + ":"] + [str(int(seat) + 1)]  # seats are numbered from 1 on screen
    if card.isdigit():
        return list(card) + ["ok"]
    raise ValueError("no key sequence for %r in %s" % (card, game))


class Table:
    """One game at the table: set up over the link, cards entered through the keypad."""

    def __init__(self, device, keys):
        self.device, self.keys = device, keys
        self.game = None

    def new(self, game, players, **options):
        self.game = game
        return self.device.new(game, players, **options)

    def enter(self, card):
        """Key in one card; its `play` event ({seq, state, effects}). A round-end or game-over
        announcement is closed with `ok`, as a player does once it is read."""
        presses = card_keys(self.game, card)
        before = self.device.last_seq()
        self.keys.press(*presses)
        event = self.device.wait_play("the board to accept %r keyed in as %s" % (card, " ".join(presses)), before)
        if any(e["kind"] in STICKY for e in event["effects"]):
            self.keys.press("ok")
        return event

    def enter_all(self, *cards):
        return [self.enter(card) for card in cards]

    def undo(self, hold=False):
        before = self.device.last_seq()
        if hold:
            self.keys.hold("undo")
        else:
            self.keys.press("undo")
        return self.device.wait_play("a %s from the %s key" % ("redo" if hold else "undo", "held undo" if hold else "undo"), before)


def seats(state, field):
    """One field of every player, in seat order: seats(state, "tokens") -> [3, 2, 3]."""
    return [p[field] for p in state["players"]]


def kinds(effects):
    return [(e["kind"], e["seat"]) for e in effects]
