# Computer players for maumau_match, strengths 1 to 5. A bot decides from a view (what its
# seat sees at the table: maumau_match.Game.view) and its own random generator, nothing else.
#   1  random legal play: any card that may be laid, or draw, all alike
#   2  lays a random card that fits (a jack like any other, wishing at random); draws only
#      when nothing fits
#   3  keeps its jacks for when nothing else fits (wishing at random)
#   4  keeps its jacks, and wishes the suit it holds most
#   5  reasons about the cards it cannot see. It reads the table (a player who drew while
#      nothing was owed lacks the suit on top, until the cards it draws may bring it back)
#      and tries each candidate move in games sampled from its view: the unseen cards dealt
#      at random to the other hands (as many as each holds, keeping out the suits they seem
#      to lack) and the stock, played out to the round's end by rules of thumb (determinized
#      Monte-Carlo). Where the playouts find no clear difference, its rules of thumb decide:
#      lay first the card the fewest others could follow, keep jacks, aim 7s and 8s at a
#      player about to go out, leave on top a suit the next player lacks.
# The budget is a number of playouts, not a time, so a bot decides the same way everywhere.
from .engine import Illegal
from .maumau_match import SUITS, PLAY, full_deck, rank, suit, fits, imagine, deal_input
from .maumau import POINTS, card_points
from .prng import Rng

STRENGTHS = (1, 2, 3, 4, 5)
PLAYOUTS = 400  # strength 5's playouts per decision, shared among the candidate moves
PRIOR = 0.03  # how much better (in rounds won) the playouts must find a move than the
# one the rules of thumb like best
MAX_PLAYOUT = 150  # moves a playout may last before it is judged on the hands' sizes
STILL_LACKS = (1.0, 0.75, 0.56, 0.42, 0.32, 0.24)  # chance a lacked suit is still lacked
# after 0, 1, 2 ... cards drawn (each drawn card has that suit about once in four)
NO_LACKS = (0.0, 0.0, 0.0, 0.0)


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
        if view["said"] and self.planned in legal:  # the card it announced Mau for
            card, self.planned = self.planned, None
            return card
        self.planned = None
        pick = POLICIES[self.strength](view, self.rng)
        if pick != "draw" and len(view["hand"]) == 2 and not view["said"]:
            self.planned = pick
            return "mau"
        return pick


# --- strengths 1-4, and 5's rules of thumb ---------------------------------------------------
def plays(view):
    """The card inputs of view["legal"] (no "draw", no "mau")."""
    return [text for text in view["legal"] if text != "draw" and text != "mau"]


def random_legal(view, rng):
    options = plays(view) + ["draw"]
    return options[rng.below(len(options))]


def random_fitting(view, rng):
    options = plays(view)
    return options[rng.below(len(options))] if options else "draw"


def non_jacks(view):
    return [text for text in plays(view) if text[0] != "J"]


def jack_keeper(view, rng):
    cards = non_jacks(view)
    if cards:
        return cards[rng.below(len(cards))]
    return random_fitting(view, rng)  # only jacks fit, or nothing: any wish


def keeper(view, rng):
    cards = non_jacks(view)
    if cards:
        return cards[rng.below(len(cards))]
    jacks = plays(view)
    if jacks:  # only jacks fit: the first, wishing the longest suit
        jack = jacks[0][:-2]
        return jack + ":" + wish_for_view(view, jack, None)
    return "draw"


def next_seat(view):
    seat, count = view["seat"], len(view["names"])
    while True:
        seat = (seat + view["dir"]) % count
        if not view["out"][seat]:
            return seat


def suit_count(hand, wanted, laid=None):
    """Cards of suit wanted in hand, jacks and the card laid aside."""
    count = 0
    for card in hand:
        if card[0] != "J" and suit(card) == wanted:
            count += 1
    if laid is not None and laid[0] != "J" and suit(laid) == wanted:
        count -= 1
    return count


def lacks(view):
    """What the round's log (its last inputs) tells about the other hands: lacks[seat][i]
    is the chance that seat holds no card of suit SUITS[i] (0 when nothing is known). A seat
    that drew although nothing was owed could not (or would not) follow the suit on top (or
    the wished one); each card it draws after that may bring the suit back, and laying one
    proves it."""
    seats = len(view["names"])
    drawn = [[-1] * len(SUITS) for _ in range(seats)]  # cards drawn since it showed the lack
    played = 0
    for seat, text in view["log"]:
        if text[0] in "23456789AJKQ1":
            played += 1
    pile = view["pile"]
    # The top card before the log's first play: the pile ends with the log's plays, unless
    # a reshuffle cut it since (then the draws before the first play tell nothing).
    top = pile[len(pile) - played - 1] if len(pile) > played else None
    wish = None
    owed = 0
    for seat, text in view["log"]:
        if text == "draw":
            count = owed or 1
            for i in range(len(SUITS)):
                if drawn[seat][i] >= 0:
                    drawn[seat][i] += count
            if not owed and top is not None:
                drawn[seat][SUITS.index(wish or suit(top))] = 1
            owed = 0
        elif text[0] in "23456789AJKQ1":
            card = text.split(":")[0]
            drawn[seat][SUITS.index(suit(card))] = -1
            top = card
            wish = text[-1] if card[0] == "J" else None
            if card[0] == "7":
                owed += 2
    chances = []
    for seat in range(seats):
        row = []
        for count in drawn[seat]:
            row.append(0.0 if count < 0 else STILL_LACKS[min(count, len(STILL_LACKS) - 1)])
        chances.append(row)
    return chances


def wish_for_view(view, jack, lacking):
    """The suit a jack wishes: the one held most once it is laid (ties: more points), plus,
    when lacking is given, a bonus for a suit the next player seems to lack."""
    best, best_value = SUITS[0], None
    nxt = next_seat(view)
    for i, wish in enumerate(SUITS):
        count = suit_count(view["hand"], wish, jack)
        value = 4.0 * count
        if count and lacking is not None:
            value += 5.0 * lacking[nxt][i]
        for card in view["hand"]:
            if card[0] != "J" and suit(card) == wish:
                value += card_points(rank(card), POINTS["default"]) / 100.0
        if best_value is None or value > best_value:
            best, best_value = wish, value
    return best


def judged(view, text, lacking):
    """How much the rules of thumb like laying text (higher is better); lacking (see lacks)
    or None."""
    card = text.split(":")[0]
    hand = view["hand"]
    face = rank(card)
    on_top = text[-1] if face == "J" else suit(card)
    wish = on_top if face == "J" else None
    value = 2.0  # the card itself fits on itself: no option lost
    for other in hand:  # lay first the card the fewest others could follow: keep options
        if fits(other, card, wish):
            value -= 2.0
    if face == "J" and len(hand) > 2:
        value -= 6.0  # a jack is kept for when nothing else fits
    nxt = next_seat(view)
    if face in ("7", "8") and view["counts"][nxt] <= 2:
        value += 8.0  # the next player is close to going out: make it draw or wait
    if lacking is not None:
        value += 6.0 * lacking[nxt][SUITS.index(on_top)]
    return value


def worth_trying(view, lacking):
    """The card inputs of the view, each jack with one wish only (see wish_for_view)."""
    options = []
    wishes = {}
    for text in plays(view):
        if text[0] == "J":
            jack = text[:-2]
            if jack not in wishes:
                wishes[jack] = wish_for_view(view, jack, lacking)
            if text[-1] != wishes[jack]:
                continue
        options.append(text)
    return options


def thumb(view, rng, lacking=None):
    best, best_value = "draw", None
    for text in worth_trying(view, lacking):
        value = judged(view, text, lacking) + rng.below(100) / 1000.0  # ties: at random
        if best_value is None or value > best_value:
            best, best_value = text, value
    return best


# --- strength 5: sampled games -------------------------------------------------------------
def unseen(view):
    """The cards this seat cannot see: not in its hand, not in the discard pile."""
    cards = full_deck()
    for card in view["hand"] + view["pile"]:
        cards.remove(card)
    return cards


def sample(view, cards, lacking, rng):
    """Hidden hands consistent with the view: (hands, stock) with the unseen cards (a list,
    shuffled here) dealt to the other hands, as many as each holds, and the rest to the
    stock. A suit a seat lacks with chance p is kept out of its hand with chance p."""
    rng.shuffle(cards)
    hands = []
    for seat, count in enumerate(view["counts"]):
        if seat == view["seat"]:
            hands.append(view["hand"])
            continue
        hand = []
        skipped = []
        row = lacking[seat]
        while len(hand) < count:
            if not cards:  # all that is left was kept out: the seat has those suits after all
                cards, skipped, row = skipped, [], NO_LACKS
            card = cards.pop()
            chance = row[SUITS.index(suit(card))]
            if chance and rng.below(1000) < chance * 1000:
                skipped.append(card)
            else:
                hand.append(card)
        cards[:0] = skipped  # to the bottom of the stock
        hands.append(hand)
    return hands, cards


def candidates(view, lacking):
    """The moves worth comparing: the cards worth trying, draw only when it is the one
    choice or the answer to 7s."""
    options = worth_trying(view, lacking)
    if not options or view["draw"]:
        options.append("draw")
    return options


def playout(game, seat, rng):
    """Play game on to the round's end, every seat following the rules of thumb (quickly);
    seat's value of the outcome: 1 for going out, a little less for each point it holds."""
    moves = 0
    while game.phase == PLAY and moves < MAX_PLAYOUT:
        quick_move(game, rng)
        moves += 1
    if game.phase == PLAY:  # cut short: judge by the hands' sizes
        mine = len(game.hands[seat])
        fewer = 0
        for other in range(len(game.hands)):
            if other != seat and not game.out[other] and len(game.hands[other]) <= mine:
                fewer += 1
        return 0.5 / (1 + fewer) - mine / 1000.0
    return (1.0 if game.gone == seat else 0.0) - game.lost[seat] / 1000.0


def quick_move(game, rng):
    """Strength 5's rules of thumb for the seat on turn of a sandbox game, cut down to what
    a playout can afford: first the card the fewest others could follow, a jack only when
    nothing else fits (wishing the suit held most), a 7 or 8 against a next player close to
    going out."""
    options = game._moves()
    if not options:
        game.quick_draw()
        return
    hand = game.hands[game.turn]
    threat = len(game.hands[game._next(game.turn, game.dir)]) <= 2
    best = None
    best_value = -1000
    for card, wish in options:
        if card[0] == "J":
            continue
        value = rng.below(16)
        for other in hand:
            if fits(other, card, None):
                value -= 32
        if threat and (card[0] == "7" or card[0] == "8"):
            value += 256
        if value > best_value:
            best, best_value = card, value
    if best is not None:
        game.quick_lay(best, None)
        return
    jack = options[0][0]
    wish, most = suit(jack), 0
    for other in SUITS:
        count = suit_count(hand, other)
        if count > most:
            wish, most = other, count
    game.quick_lay(jack, wish)


def apply_input(game, text):
    if text == "draw":
        game.quick_draw()
    else:
        card, _, wish = text.partition(":")
        game.quick_lay(card, wish or None)


def monte_carlo(view, rng):
    lacking = lacks(view)
    options = candidates(view, lacking)
    if len(options) == 1:
        return options[0]
    rounds = max(1, PLAYOUTS // len(options))
    totals = [0.0] * len(options)
    seat = view["seat"]
    hidden = unseen(view)
    for _ in range(rounds):
        hands, stock = sample(view, list(hidden), lacking, rng)
        seed, luck = rng.word(), rng.word()  # the same game and luck for every candidate
        for i, text in enumerate(options):
            game = imagine(view, hands, stock, seed)
            apply_input(game, text)
            totals[i] += playout(game, seat, Rng(luck))
    favourite = thumb(view, rng, lacking)  # the rules of thumb win near-ties
    if favourite in options:
        totals[options.index(favourite)] += rounds * PRIOR
    best = 0
    for i in range(1, len(options)):
        if totals[i] > totals[best]:
            best = i
    return options[best]


POLICIES = {1: random_legal, 2: random_fitting, 3: jack_keeper, 4: keeper, 5: monte_carlo}


def play_round(game, bots, table):
    """Deal game's next round from table (a prng.Rng) and let bots[seat] play every seat
    until somebody goes out; the seat that went out."""
    game.play(deal_input(table))
    while game.phase == PLAY:
        seat = game.turn
        game.play(bots[seat].choose(game.view(seat)))
    return game.gone
