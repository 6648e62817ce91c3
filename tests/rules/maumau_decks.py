# Stacked decks for the Mau-Mau engine's tests (CPython and MicroPython): the "deck:" input
# that deals given hands, turns given cards up and puts given cards on top of the stock.
from croupier.rules.maumau_match import full_deck, HAND


def stacked(hands, turned, draws=(), starter=0):
    """The "deck:..." input dealing hands[seat] (7 cards each, seat order from starter,
    clockwise), then turning up turned (a list: the cards turned until one is not an action
    card), then draws (the stock's next cards, first drawn first); the rest in a fixed order."""
    seats = len(hands)
    order = [(starter + i) % seats for i in range(seats)]
    deck = []
    for r in range(HAND):
        for seat in order:
            deck.append(hands[seat][r])
    deck.extend(turned)
    deck.extend(draws)
    rest = full_deck()
    for card in deck:
        rest.remove(card)
    return "deck:" + ",".join(deck + rest)


def dealt(g, hands, turned, draws=()):
    """Deal g's round from a stacked deck (g.starter opens); the effects."""
    return g.play(stacked(hands, turned, draws, g.starter))


def accounted(state):
    """The cards of a state, wherever they are (hands, stock, pile), sorted."""
    cards = state["stock"] + state["pile"]
    for player in state["players"]:
        cards.extend(player["hand"])
    cards.sort()
    return cards


def whole_deck():
    cards = full_deck()
    cards.sort()
    return cards
