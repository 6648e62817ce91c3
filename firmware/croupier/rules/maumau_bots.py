# Computer players for maumau_match, strengths 1 to 5. A bot decides from a view (what its
# seat sees at the table: maumau_match.Game.view) and its own random generator, nothing else.
#   1  random legal play: any card that may be laid, or draw, all alike
#   2  lays a random card that fits (draws only when none does); a jack wishes its longest suit
#   3  rules of thumb: keeps its jacks, keeps suits it can follow, sheds points, aims 7s and 8s
#      at a player close to going out
#   4  and 5 reason about the cards they cannot see: each candidate move is tried in games
#      sampled from the view (the unseen cards dealt at random to the other hands and the
#      stock, as many as each holds) and played out to the round's end (determinized
#      Monte-Carlo); 5 samples many more games. The budget is a number of playouts, not a
#      time, so a bot decides the same way on every machine.
from .engine import Illegal
from .maumau_match import SUITS, PLAY, full_deck, rank, suit, fits, imagine, deal_input
from .maumau import POINTS, card_points
from .prng import Rng

STRENGTHS = (1, 2, 3, 4, 5)
PLAYOUTS = {4: 48, 5: 400}  # playouts per decision, shared among the candidate moves
MAX_PLAYOUT = 150  # moves a playout may last before it is judged on the hands' sizes


class Bot:
    """A computer player of strength 1-5 with its own random generator (seeded)."""

    def __init__(self, strength, seed=0):
        if strength not in STRENGTHS:
            raise ValueError("strength is 1 to 5, not %r" % (strength,))
        self.strength = strength
        self.rng = Rng(seed)
        self.planned = None  # the card a "mau" was announced for

    def choose(self, view):
        """The input this bot plays in view (its seat on turn): one of view["legal"].
        Before its second-to-last card it answers "mau", then (next call) that card."""
        legal = view["legal"]
        if not legal:
            raise Illegal("it is not %s's turn" % view["names"][view["seat"]])
        if self.planned in legal:
            card, self.planned = self.planned, None
            return card
        self.planned = None
        pick = POLICIES[self.strength](view, self.rng)
        if pick != "draw" and len(view["hand"]) == 2 and not view["said"]:
            self.planned = pick
            return "mau"
        return pick


# --- strengths 1-3: from the view alone --------------------------------------------------
def plays(view):
    """The card inputs of view["legal"] (no "draw", no "mau")."""
    return [text for text in view["legal"] if text != "draw" and text != "mau"]


def random_legal(view, rng):
    options = plays(view) + ["draw"]
    return options[rng.below(len(options))]


def random_fitting(view, rng):
    cards = [text for text in plays(view) if text[0] != "J"]
    jacks = [text for text in plays(view) if text[0] == "J"]
    if cards:
        return cards[rng.below(len(cards))]
    if jacks:
        jack = jacks[0][:-2]
        return jack + ":" + longest_suit(view["hand"], jack)
    return "draw"


def longest_suit(hand, laid):
    """The suit held most often in hand once laid is gone (jacks not counted; ties: the
    suit with more points, then the first in SUITS)."""
    best, best_key = SUITS[0], None
    for wish in SUITS:
        count = points = 0
        for card in hand:
            if suit(card) == wish and card[0] != "J":
                count += 1
                points += card_points(rank(card), POINTS["default"])
        if laid[0] != "J" and suit(laid) == wish:
            count -= 1
        key = (count, points)
        if best_key is None or key > best_key:
            best, best_key = wish, key
    return best


def next_seat(view):
    seat, count = view["seat"], len(view["names"])
    while True:
        seat = (seat + view["dir"]) % count
        if not view["out"][seat]:
            return seat


def judged(view, text):
    """How much rules of thumb like laying text (higher is better)."""
    card = text.split(":")[0]
    hand = list(view["hand"])
    hand.remove(card)
    face = rank(card)
    wish = text[-1] if face == "J" else None
    following = 0  # cards left that will fit on this one next time round
    for other in hand:
        if fits(other, card, wish):
            following += 1
    value = 2.0 * following + card_points(face, POINTS["default"]) / 10.0
    if face == "J":
        value -= 6.0 if len(hand) > 1 else 0.0  # a jack is kept for when nothing else fits
    threat = view["counts"][next_seat(view)]
    if face in ("7", "8") and threat <= 2:
        value += 8.0
    return value


def thumb(view, rng):
    options = plays(view)
    if not options:
        return "draw"
    best, best_value = None, None
    for text in options:
        if text[0] == "J" and text[-1] != longest_suit(view["hand"], text):
            continue
        value = judged(view, text) + rng.below(100) / 1000.0  # ties broken at random
        if best_value is None or value > best_value:
            best, best_value = text, value
    return best


# --- strengths 4-5: sampled games ----------------------------------------------------------
def unseen(view):
    """The cards this seat cannot see: not in its hand, not in the discard pile."""
    cards = full_deck()
    for card in view["hand"] + view["pile"]:
        cards.remove(card)
    return cards


def sample(view, cards, rng):
    """A game consistent with the view: the unseen cards (a list, shuffled here) dealt to
    the other hands (as many as each holds) and the stock."""
    rng.shuffle(cards)
    hands = []
    at = 0
    for seat, count in enumerate(view["counts"]):
        if seat == view["seat"]:
            hands.append(view["hand"])
        else:
            hands.append(cards[at:at + count])
            at += count
    return imagine(view, hands, cards[at:], rng.word())


def candidates(view):
    """The moves worth comparing: every card (a jack with one wish: its longest suit), draw."""
    options = []
    for text in plays(view):
        if text[0] != "J" or text[-1] == longest_suit(view["hand"], text):
            options.append(text)
    return options + ["draw"]


def playout(game, seat, rng):
    """Play game on to the round's end with quick random-fitting moves for every seat;
    seat's value of the outcome: 1 for going out, less for each card point still held."""
    moves = 0
    while game.phase == PLAY and moves < MAX_PLAYOUT:
        options = game._moves()
        plain = [move for move in options if move[0][0] != "J"]
        if plain:
            card, wish = plain[rng.below(len(plain))]
            game.quick_lay(card, wish)
        elif options:
            card = options[0][0]
            game.quick_lay(card, wish_for(game.hands[game.turn], card))
        else:
            game.quick_draw()
        moves += 1
    if game.phase == PLAY:  # cut short: judge by the hands' sizes
        mine = len(game.hands[seat])
        fewer = 0
        for other in range(len(game.hands)):
            if other != seat and not game.out[other] and len(game.hands[other]) <= mine:
                fewer += 1
        return 0.5 / (1 + fewer) - mine / 200.0
    return (1.0 if game.gone == seat else 0.0) - game.lost[seat] / 200.0


def wish_for(hand, jack):
    """A playout's wish: the suit of the first other non-jack card, else the jack's own."""
    for card in hand:
        if card[0] != "J" and card != jack:
            return suit(card)
    return suit(jack)


def apply_input(game, text):
    if text == "draw":
        game.quick_draw()
    else:
        card, _, wish = text.partition(":")
        game.quick_lay(card, wish or None)


def monte_carlo(view, rng, playouts):
    options = candidates(view)
    if len(options) == 1:
        return options[0]
    rounds = max(1, playouts // len(options))
    totals = [0.0] * len(options)
    seat = view["seat"]
    hidden = unseen(view)
    for _ in range(rounds):
        deal, luck = rng.word(), rng.word()  # the same sampled game for every candidate
        for i, text in enumerate(options):
            game = sample(view, list(hidden), Rng(deal))
            apply_input(game, text)
            totals[i] += playout(game, seat, Rng(luck))
    best = 0
    for i in range(1, len(options)):
        if totals[i] > totals[best]:
            best = i
    return options[best]


POLICIES = {
    1: random_legal,
    2: random_fitting,
    3: thumb,
    4: lambda view, rng: monte_carlo(view, rng, PLAYOUTS[4]),
    5: lambda view, rng: monte_carlo(view, rng, PLAYOUTS[5]),
}


def play_round(game, bots, table):
    """Deal game's next round from table (a prng.Rng) and let bots[seat] play every seat
    until somebody goes out; the seat that went out."""
    game.play(deal_input(table))
    while game.phase == PLAY:
        seat = game.turn
        game.play(bots[seat].choose(game.view(seat)))
    return game.gone
