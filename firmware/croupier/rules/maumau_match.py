# Mau-Mau played with real (hidden) hands: the game against the computer. The engine deals
# the 104 cards, knows every hand, refuses what the rules forbid, scores the rounds and lets
# players join and leave between them. Each round starts with a chance input (the shuffle),
# so setup + inputs replay a game exactly. view(seat) is what one player at the table sees:
# the computer opponents (maumau_bots) read nothing else.
# The rules as settled are in docs/rules.md "Mau-Mau against the computer".
from .engine import Engine, Illegal, Number, Choice, SetupError, effect
from .maumau import POINTS, Seated, card_points
from .cards import shown
from .prng import Rng, MASK

GAME = "maumau_match"
HAND = 7
SUITS = ("h", "d", "s", "c")
SUIT_NAMES = {"h": "hearts", "d": "diamonds", "s": "spades", "c": "clubs"}
SYMBOLS = {"h": "\u2665", "d": "\u2666", "s": "\u2660", "c": "\u2663"}  # as the laptop shows the cards
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ACTION = ("7", "8", "9", "J", "A")  # a turned-up action card is covered by the next card
COPIES = 2  # a double 52-card deck
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)  # the 52 distinct cards
ORDER = dict((card, i) for i, card in enumerate(CARDS))  # hands are kept in this order
MAX_PLAYERS = 5
LOG_SHOWN = 48  # a view shows the round's last public inputs, not a copy of a long round

DEAL = "deal"  # phase: waiting for the round's shuffle; players may join and leave
PLAY = "play"  # phase: cards are played

# Move kinds returned by _parse.
CARD = 0
DRAW = 1
MAU = 2
SHUFFLE = 3
JOIN = 4
LEAVE = 5


def rank(card):
    return card[:-1]


def suit(card):
    return card[-1]


def face(card):
    """The card as the laptop shows it, its suit a symbol: 7h -> 7 and a heart (a jack's
    wish, Jc:h, left out). Reasons name cards so; the notation (docs/cards.md) stays letters."""
    card = card.split(":")[0]
    return rank(card) + SYMBOLS[suit(card)]


def full_deck():
    """The 104 cards in a fixed order (each distinct card twice)."""
    return [card for card in CARDS for _ in range(COPIES)]


def shuffled(seed):
    """The deck order that the input "deal:<seed>" stands for."""
    deck = full_deck()
    Rng(seed).shuffle(deck)
    return deck


def deal_input(rng):
    """A fresh chance input "deal:N" drawn from rng (a prng.Rng of the table)."""
    return "deal:%d" % rng.word()


def sort_cards(cards):
    cards.sort(key=ORDER.get)
    return cards


def fits(card, top, wish):
    """True when card may be laid on top (the wished suit, when there is one, instead of
    top's suit and rank). A jack fits on anything."""
    if card[0] == "J":
        return True
    if wish:
        return suit(card) == wish
    return suit(card) == suit(top) or rank(card) == rank(top)


def _whole(text, high):
    """The whole number 0..high written canonically, or None."""
    if not text or len(text) > 10 or (text[0] == "0" and text != "0"):
        return None
    for ch in text:
        if not "0" <= ch <= "9":
            return None
    value = int(text)
    return value if value <= high else None


class Game(Seated):
    GAME = GAME
    OPTIONS = (
        Number("limit", -100, -999, -1),
        Choice("points", "default", tuple(sorted(POINTS))),
        Number("starter", 0, 0, MAX_PLAYERS - 1),
    )
    # names grows when a player joins; hands: each seat's cards (kept sorted); stock: the
    # draw pile, next card last; pile: the discard pile, top card last; wish: the suit a
    # jack wished, until a card follows it; draw: cards the seat on turn owes for 7s; ace:
    # the seat on turn follows its ace; said: the seat on turn announced Mau for its next
    # card; rng: the reshuffle generator's state; starter: the seat that opens this round;
    # gone: the seat that went out last; lost: the points each seat lost in the last round.
    FIELDS = Engine.FIELDS + ("names", "score", "left", "hands", "stock", "pile", "wish",
                              "draw", "ace", "said", "phase", "rng", "starter", "gone", "lost")

    def _start(self):
        self.founders = list(self.names)  # setup() names the players the game began with
        count = len(self.names)
        self.starter = self.options["starter"]
        if self.starter >= count:
            raise SetupError("option starter must be a seat from 0 to %d" % (count - 1))
        self._start_common(self.starter)
        self.total = None
        self.score = [0] * count
        self.left = [False] * count
        self.hands = [[] for _ in range(count)]
        self.lost = [0] * count
        self.stock = []
        self.pile = []
        self.gone = -1
        self.rng = 1
        self._between()

    def _between(self):
        """Waiting for the next round's deal: nothing pending, clockwise, starter on turn."""
        self.phase = DEAL
        self.wish = None
        self.draw = 0
        self.ace = False
        self.said = False
        self.dir = 1
        self.owed = 0
        self.turn = self.starter

    # --- what the players see ---------------------------------------------------------
    def state(self):
        """Everything, hidden hands and the stock's order included (for the journal, the
        store and the tests; never for an opponent: see view)."""
        state = Engine.state(self)
        state["phase"] = self.phase
        state["draw"] = self.draw
        state["wish"] = self.wish
        state["ace"] = self.ace
        state["said"] = self.said
        state["stock"] = list(self.stock)
        state["pile"] = list(self.pile)
        state["starter"] = self.starter
        state["gone"] = self.gone
        return state

    def _player(self, seat, player):
        player["score"] = self.score[seat]
        player["left"] = self.left[seat]
        player["hand"] = list(self.hands[seat])
        player["lost"] = self.lost[seat]

    def view(self, seat):
        """What the player at seat sees, as a fresh dict sharing nothing with the engine:
        its own hand, the discard pile, every hand's size, the stock's size, the round's
        last LOG_SHOWN public inputs (deals hidden), scores, the wish, the pending draw and
        whose turn it is."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            raise Illegal("no seat %r at this table" % (seat,))
        log = self.log
        return {
            "seat": seat, "names": list(self.names), "hand": list(self.hands[seat]),
            "counts": [len(hand) for hand in self.hands], "pile": list(self.pile),
            "stock": len(self.stock), "turn": self.turn, "dir": self.dir,
            "wish": self.wish, "draw": self.draw, "ace": self.ace, "said": self.said,
            "phase": self.phase, "round": self.round, "over": self.over,
            "winners": list(self.winners), "scores": list(self.score),
            "out": list(self.out), "left": list(self.left), "lost": list(self.lost),
            "starter": self.starter, "gone": self.gone, "options": dict(self.options),
            "log": [[log[i], log[i + 1]] for i in range(max(0, len(log) - 3 * LOG_SHOWN),
                                                         len(log), 3)
                    if log[i + 1][:5] not in ("deal:", "deck:")],
            "legal": self.legal() if seat == self.turn else [],
        }

    def legal(self):
        """Every input the seat on turn may play now ([] between rounds and at the end),
        in a fixed order: its cards (a jack once per wished suit), then "draw", "mau"."""
        if self.over or self.phase != PLAY:
            return []
        inputs = []
        for card, wish in self._moves():
            inputs.append(card + ":" + wish if wish else card)
        inputs.append("draw")
        if len(self.hands[self.turn]) == 2 and not self.said:
            inputs.append("mau")
        return inputs

    def _moves(self):
        """(card, wish) for each card the seat on turn may lay now (no duplicates)."""
        moves = []
        top = self.pile[-1]
        last = None
        for card in self.hands[self.turn]:
            if card == last:
                continue
            last = card
            if self.draw:
                if rank(card) == "7":
                    moves.append((card, None))
            elif card[0] == "J":
                for wish in SUITS:
                    moves.append((card, wish))
            elif fits(card, top, self.wish):
                moves.append((card, None))
        return moves

    # --- reading inputs ---------------------------------------------------------------
    def _parse(self, text):
        if text[:5] == "join:":
            return self._parse_join(text)
        if text[:6] == "leave:":
            return self._parse_leave(text)
        if self.phase == DEAL:
            if text[:5] == "deal:":
                seed = _whole(text[5:], MASK)
                if seed is None:
                    raise Illegal("write the shuffle as deal:N, N from 0 to %d" % MASK)
                return SHUFFLE, shuffled(seed), seed
            if text[:5] == "deck:":
                return SHUFFLE, self._parse_deck(text[5:]), None
            raise Illegal("the cards are not dealt yet: deal:N")
        if text in ("draw", "mau"):
            return self._parse_word(text)
        if text[:5] in ("deal:", "deck:"):
            raise Illegal("the cards are dealt once a round")
        return self._parse_card(text)

    def _parse_word(self, text):
        if text == "draw":
            return DRAW, None, None
        if len(self.hands[self.turn]) != 2:
            raise Illegal("Mau is announced with 2 cards in hand, before laying one")
        if self.said:
            raise Illegal("Mau is announced already")
        return MAU, None, None

    def _parse_card(self, text):
        card, wish = text, None
        if text[:1] == "J":
            card, _, wish = text.partition(":")
            if wish not in SUITS:
                raise Illegal("a jack wishes a suit, like %s:h (h, d, s or c)" % card)
        elif ":" in text:
            raise Illegal("only a jack wishes a suit")
        if card not in ORDER:
            raise Illegal("unknown card %s; cards are written like 10h, Qs, Jc:h" % shown(text))
        if card not in self.hands[self.turn]:
            raise Illegal("%s does not hold %s" % (self.names[self.turn], face(card)))
        if self.draw:
            if rank(card) != "7":
                raise Illegal("draw %d or answer with a 7" % self.draw)
        elif not fits(card, self.pile[-1], self.wish):
            raise Illegal(self._misfit(card))
        return CARD, card, wish

    def _misfit(self, card):
        if self.wish:
            return "%s wished: play %s or a jack" % (SUIT_NAMES[self.wish], SUIT_NAMES[self.wish])
        top = self.pile[-1]
        return "%s does not go on %s: play %s, a %s or a jack, or draw" % (
            face(card), face(top), SUIT_NAMES[suit(top)], rank(top))

    def _parse_deck(self, text):
        deck = text.split(",")
        if sorted(deck) != sorted(full_deck()):
            raise Illegal("deck: lists each of the 104 cards exactly once per copy")
        return deck

    def _parse_join(self, text):
        return JOIN, text, self._joining(text)

    def _parse_leave(self, text):
        self._between_rounds("leave")
        return LEAVE, text, self._active_seat(text, "leave:")

    def _between_rounds(self, what):
        if self.phase != DEAL:
            raise Illegal("players %s between rounds, before the deal" % what)

    # --- changing the state -----------------------------------------------------------
    def _apply(self, move):
        kind, value, extra = move
        if kind == CARD:
            return self._lay(value, extra)
        if kind == DRAW:
            return self._draw_turn()
        if kind == MAU:
            self.said = True
            self._logged(self.turn, "mau")
            return [effect("mau", self.turn)]
        if kind == SHUFFLE:
            return self._deal(value, extra)
        if kind == JOIN:
            return self._join(value, extra)
        return self._leave(value, extra)

    def _lay(self, card, wish):
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self._logged(seat, card + ":" + wish if wish else card)
        said, self.said = self.said, False
        self.wish = wish
        face = rank(card)
        effects = []
        if face == "7":
            self.draw += 2
        elif face == "9":
            self.dir = -self.dir
        if not hand:
            return self._went_out(seat, effects)
        if len(hand) == 1 and not said:  # the second-to-last card, not announced
            self._take(seat, 2, "forgot", effects)
        self.ace = face == "A"
        if not self.ace:
            step = self._next(seat, self.dir)
            if face == "8":
                effects.append(effect("skipped", step))
                step = self._next(step, self.dir)
            self.turn = step
        return effects

    def _draw_turn(self):
        seat = self.turn
        count = self.draw or 1
        self._logged(seat, "draw")
        self.draw = 0
        self.ace = False
        self.said = False
        self.turn = self._next(seat, self.dir)
        return self._take(seat, count, "drew", [])

    def _take(self, seat, count, kind, effects):
        """seat takes count cards from the stock (the discard pile under its top card is
        shuffled into an empty stock; when even that is empty, the rest is not drawn)."""
        hand = self.hands[seat]
        taken = 0
        for _ in range(count):
            if not self.stock:
                self._reshuffle()
                if not self.stock:
                    break
                effects.append(effect("reshuffled", seat))
            hand.append(self.stock.pop())
            taken += 1
        sort_cards(hand)
        result = effect(kind, seat)
        result["cards"] = taken
        effects.append(result)
        return effects

    def _reshuffle(self):
        pile = self.pile
        self.stock = pile[:-1]
        self.pile = pile[-1:]
        rng = Rng(0)
        rng.x = self.rng
        rng.shuffle(self.stock)
        self.rng = rng.x

    def _deal(self, deck, seed):
        self.rng = Rng(seed if seed is not None else 0).word()
        stock = list(deck)
        stock.reverse()  # the deck's first card is dealt first: it is the stock's last
        for seat in range(len(self.names)):
            self.hands[seat] = []
            self.lost[seat] = 0
        seats = [self.starter]
        while len(seats) < len(self._active()):
            seats.append(self._next(seats[-1], 1))
        for _ in range(HAND):
            for seat in seats:
                self.hands[seat].append(stock.pop())
        for seat in seats:
            sort_cards(self.hands[seat])
        pile = [stock.pop()]
        while rank(pile[-1]) in ACTION:  # an action card turned up is covered, no effect
            pile.append(stock.pop())
        self.stock = stock
        self.pile = pile
        self.phase = PLAY
        self.gone = -1
        self.owed = 1
        self.turn = self.starter
        self._logged(self.starter, "deal:%d" % seed if seed is not None
                     else "deck:" + ",".join(deck))
        return [effect("dealt", self.starter)]

    def _went_out(self, seat, effects):
        """seat laid its last card: a 7 makes the next player draw first, then the round
        is scored."""
        self.gone = seat
        self.ace = False
        effects.append(effect("maumau", seat))
        if self.draw:
            self._take(self._next(seat, self.dir), self.draw, "drew", effects)
        preset = POINTS[self.options["points"]]
        for other in self._active():
            points = 0
            for card in self.hands[other]:
                points += card_points(rank(card), preset)
            self.lost[other] = points
            self.score[other] -= points
        for other in self._active():
            if self.score[other] <= self.options["limit"]:
                self.out[other] = True
                effects.append(effect("eliminated", other))
        effects.append(effect("round_end", seat))
        if not self._last_one_in(seat, effects):
            self.round += 1
            self.starter = self._next(self.starter, 1)
            self._between()
        return effects

    def _finish(self, winners):
        self.phase = DEAL
        self.draw = 0
        self.wish = None
        Engine._finish(self, winners)

    def _seat_added(self):
        self.hands.append([])
        self.lost.append(0)

    def _seat_emptied(self, seat):
        # the hand the round left goes under the discard pile: all 104 cards stay on the
        # table until the next deal gathers them
        self.pile[:0] = self.hands[seat]
        self.hands[seat] = []

    # --- a sandbox's moves (see imagine): unchecked, taken from _moves() ---------------
    def quick_lay(self, card, wish):
        """The seat on turn lays card (a jack wishing wish), announcing Mau when due."""
        if len(self.hands[self.turn]) == 2:
            self.said = True
        return self._lay(card, wish)

    def quick_draw(self):
        """The seat on turn draws (the pending 7s, or one card) and its turn ends."""
        return self._draw_turn()

    # --- checkpoints: the hands are lists of lists ------------------------------------
    def _save(self):
        saved = Engine._save(self)
        at = self.FIELDS.index("hands")
        saved[at] = [list(hand) for hand in self.hands]
        return saved

    def _load(self, saved, keep=False):
        Engine._load(self, saved, keep)
        if not keep:
            self.hands = [list(hand) for hand in self.hands]


class Sandbox(Game):
    """A Game made by imagine, not set up from players and options."""

    def __init__(self):
        pass


def imagine(view, hands, stock, seed):
    """A game in the position view shows, with the hidden cards filled in: hands[s] for each
    seat (view's own hand for its seat), stock in drawing order (next card last), seed for
    its reshuffles. It has no history: a sandbox where a computer player tries moves out."""
    game = Sandbox()
    game.names = list(view["names"])
    game.founders = game.names
    game.options = dict(view["options"])
    game.inputs = []
    game._redo = []
    game.round = view["round"]
    game.total = None
    game.turn = view["turn"]
    game.dir = view["dir"]
    game.owed = 1 if view["phase"] == PLAY else 0
    game.over = view["over"]
    game.winners = list(view["winners"])
    game.out = list(view["out"])
    game.log = []
    game.log_round = view["round"]
    game.score = list(view["scores"])
    game.left = list(view["left"])
    game.hands = [sort_cards(list(hand)) for hand in hands]
    game.stock = list(stock)
    game.pile = list(view["pile"])
    game.wish = view["wish"]
    game.draw = view["draw"]
    game.ace = view["ace"]
    game.said = view["said"]
    game.phase = view["phase"]
    game.rng = Rng(seed).word()
    game.starter = view["starter"]
    game.gone = view["gone"]
    game.lost = list(view["lost"])
    game._marks = [(0, game._save())]
    return game
