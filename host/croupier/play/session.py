"""One Mau-Mau match against the computer, without a screen (the Textual app drives it, tests
drive it alone): the engine, the table's chance from one seed, the person at seat 0, the
computer players, and the journal that keeps the game in the store as it is played."""
import time

from croupier.play.journal import GameJournal
from croupier.rules import Illegal, SetupError, new_game
from croupier.rules.maumau_bots import STRENGTHS, Bot
from croupier.rules.maumau_match import GAME, PLAY, deal_input
from croupier.rules.prng import MASK, Rng
from croupier.stats import label

PERSON = 0  # the person's seat
DEFAULT_NAME = "You"
MAX_OPPONENTS = 4
DEFAULT_LIMIT = -100
# The computer players' names, in the order they take a seat (a name is never seated twice in
# one game, so later ones are numbered).
COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "Niklaus")


def check_strength(strength):
    if strength not in STRENGTHS:
        raise ValueError("a computer player's strength is 1 to 5, not %r" % (strength,))
    return strength


class Session:
    """The match: play() for the person, computer_step() for the computer players, deal() to
    start each round, add_opponent() and leave() between rounds, quit() to stop early."""

    def __init__(self, store, strengths, name=DEFAULT_NAME, seed=0, limit=DEFAULT_LIMIT, clock=time.time):
        """strengths: 1 to 4 opponents' strengths; seed: the table's chance (deals, reshuffles,
        the computer players' choices): the same seed and moves play the same game."""
        if not 1 <= len(strengths) <= MAX_OPPONENTS:
            raise ValueError("1 to %d opponents, not %d" % (MAX_OPPONENTS, len(strengths)))
        self.seed = seed
        self.table = Rng(seed)
        self.bots = {}  # seat -> Bot
        names = [name.strip() or DEFAULT_NAME]
        for seat, strength in enumerate(strengths, 1):
            names.append(self._computer_name(names))
            self.bots[seat] = Bot(check_strength(strength), self._bot_seed(seat))
        try:
            self.game = new_game(GAME, names, {"limit": limit, "starter": PERSON})
        except SetupError as exc:
            raise ValueError(exc.reason) from exc
        self.journal = GameJournal(store, self.game, self.strengths(), clock)
        self.saved = None  # the game row, once the game is over or quit

    # --- what there is to see ----------------------------------------------------------
    def view(self):
        """What the person sees (maumau_match.Game.view of seat 0)."""
        return self.game.view(PERSON)

    def strengths(self):
        """{seat: strength} of the computer players (those who left included)."""
        return dict((seat, bot.strength) for seat, bot in self.bots.items())

    def label(self, seat):
        """A seat's name as shown: a computer player's with its strength."""
        return label({"name": self.game.names[seat], "computer": self.strengths().get(seat)})

    @property
    def over(self):
        return self.game.over

    def between_rounds(self):
        """True while the next round waits for its deal (players may join and leave)."""
        return not self.game.over and self.game.phase != PLAY

    def persons_turn(self):
        return not self.game.over and self.game.phase == PLAY and self.game.turn == PERSON

    def computers_turn(self):
        return not self.game.over and self.game.phase == PLAY and self.game.turn != PERSON

    def scores(self):
        """The score list: a row per seat, players still in best first, then those out, then
        those struck off (who left): seat, name, computer (strength or None), score (the
        negative points so far), lost (points lost in the last round), out, left."""
        view = self.view()
        rows = [{"seat": seat, "name": name, "computer": self.strengths().get(seat),
                 "score": view["scores"][seat], "lost": view["lost"][seat],
                 "out": view["out"][seat] and not view["left"][seat], "left": view["left"][seat]}
                for seat, name in enumerate(view["names"])]
        return sorted(rows, key=lambda r: (r["left"], r["out"], -r["score"], r["seat"]))

    # --- moves ---------------------------------------------------------------------------
    def check(self, text):
        """Illegal(reason) when play(text) would refuse it; changes nothing."""
        if not self.persons_turn():
            raise Illegal(self._not_your_turn())
        self.game.check_card(text)

    def play(self, text):
        """The person's input (a card like "7h" or "Jc:h", "draw" or "mau"): its effects.
        Illegal(reason), nothing changed, when it is not their turn or the rules forbid it."""
        if not self.persons_turn():
            raise Illegal(self._not_your_turn())
        effects = self._play(text)
        self.journal.flush()  # the person's moves are on disk at once
        return effects

    def computer_step(self):
        """One computer player's move: (seat, input, effects)."""
        seat, text = self.computer_choice()()
        return seat, text, self.computer_move(seat, text)

    def computer_choice(self):
        """The choice of the computer player on turn, as a function returning (seat, input)
        for computer_move. It reads only a fresh view of that seat and the bot's own chance,
        nothing the session touches, so a screen may run it in another thread while a strong
        player thinks (a second at strength 5)."""
        if not self.computers_turn():
            raise Illegal("it is not a computer player's turn")
        seat = self.game.turn
        bot, view = self.bots[seat], self.game.view(seat)
        return lambda: (seat, bot.choose(view))

    def computer_move(self, seat, text):
        """Make the move computer_choice chose for seat: its effects."""
        if not self.computers_turn() or self.game.turn != seat:
            raise Illegal("it is not %s's turn" % self.game.names[seat])
        return self._play(text)

    def deal(self):
        """Deal the next round (the table's shuffle): its effects."""
        if not self.between_rounds():
            raise Illegal("the cards are dealt between rounds")
        return self._play(deal_input(self.table))

    def add_opponent(self, strength):
        """A computer player joins between rounds, at the worst score of the players still in
        (the engine's join): its seat."""
        check_strength(strength)
        self._play("join:" + self._computer_name(self.game.names))
        seat = len(self.game.names) - 1
        self.bots[seat] = Bot(strength, self._bot_seed(seat))
        self.journal.add_computer(seat, strength)
        self._save()
        return seat

    def leave(self, seat, headless=True):
        """seat leaves between rounds and is struck off the score list. When the person
        leaves, the computer players play the match out (here, unless headless is False: then
        the caller calls play_out) and it is saved."""
        effects = self._play("leave:%d" % seat)
        if not self.game.over:
            self._save()
            if seat == PERSON and headless:
                self.play_out()
        return effects

    def play_out(self, moves=None):
        """The computer players play on while the person is out or has left: to the game's
        end, or `moves` moves (deals included) at most. True once the game is over."""
        if not self.game.out[PERSON]:
            raise Illegal("%s is still in the game" % self.game.names[PERSON])
        while not self.game.over and moves != 0:
            if self.between_rounds():
                self.deal()
            else:
                self.computer_step()
            if moves is not None:
                moves -= 1
        return self.game.over

    def quit(self):
        """Stop here: an unfinished game is saved as abandoned. Returns the game row."""
        if self.saved is None:
            self.saved = self.journal.save(self.game, "end" if self.game.over else "abandon")
        return self.saved

    # --- inside ----------------------------------------------------------------------------
    def _play(self, text):
        effects = self.game.play(text)
        self.journal.add("play", text)
        kinds = [e["kind"] for e in effects]
        if "game_end" in kinds:
            self.saved = self.journal.save(self.game, "end")
        elif "round_end" in kinds:
            self._save()
        return effects

    def _save(self):
        self.journal.save(self.game)

    def _not_your_turn(self):
        if self.game.over:
            return "the game is over"
        if self.game.phase != PLAY:
            return "the round is not dealt yet"
        if self.game.out[PERSON]:
            return "%s is out of the game" % self.game.names[PERSON]
        return "it is %s's turn" % self.game.names[self.game.turn]

    def _bot_seed(self, seat):
        """Each computer player's own chance, from the table's seed and its seat."""
        return (Rng(self.seed).word() + seat) & MASK

    @staticmethod
    def _computer_name(taken):
        """The first computer name not seated yet (names compare as the engine does)."""
        seated = set(name.strip().lower() for name in taken)
        candidates = list(COMPUTER_NAMES) + ["Computer %d" % n for n in range(1, len(taken) + 2)]
        return next(name for name in candidates if name.lower() not in seated)
