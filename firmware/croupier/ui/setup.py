"""Setting up a game with the keypad alone: game, players, names, options, who deals.

Fastest path for a 4-player game with default options: the game's digit, then `ok` four
times (count, names, options, dealer). Names come from the roster the host pushed, else
P1..Pn; pressing a seat's digit cycles its name through the unused roster names.
"""
from micropython import const
from croupier.journal import JournalError
from croupier.rules import GAMES, SetupError, engine_class
from croupier.ui import games
from croupier.ui.menu import ListScreen, NumberPrompt

_DEFAULT_PLAYERS = const(4)


def choices(spec):
    """The values setup cycles through for one option spec."""
    if hasattr(spec, "values"):
        return spec.values
    if hasattr(spec, "low"):
        return range(spec.low, spec.high + 1)
    return (False, True)


def option_text(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


class Setup:
    def __init__(self, ui, back):
        self.ui, self.back = ui, back
        self.offered = [g for g in games.MENU if g[0] in GAMES]
        self.game = None

    def start(self):
        """The games, and last the voice's settings when the box keeps settings."""
        count = len(self.offered) + (1 if self.ui.settings else 0)
        self.ui.show(ListScreen(self.ui, "New game", count, self._menu_label,
                                self._game_picked, self.back))

    def _menu_label(self, i):
        return self.offered[i][1] if i < len(self.offered) else "Voice"

    def _game_picked(self, i):
        if i == len(self.offered):
            self.ui.voice_menu(self.start)
            return
        self.name = self.offered[i][0]
        self.game = games.load(self.name)
        self.low, self.high = GAMES[self.name]
        self.specs = engine_class(self.name).OPTIONS  # Flag / Number / Choice
        self.options = {}
        for spec in self.specs:
            self.options[spec.name] = spec.default
        self._ask_count()

    def _ask_count(self):
        default = min(max(_DEFAULT_PLAYERS, self.low), self.high)
        self.ui.show(NumberPrompt(self.ui, "Players", self.low, self.high, default,
                                  self._count_picked, self.start))

    def _count_picked(self, n):
        roster = self.ui.controller.roster
        self.players = [roster[i] if i < len(roster) else "P%d" % (i + 1) for i in range(n)]
        self._ask_names()

    def _ask_names(self):
        """The seats' names; back here from a later step, they are as the player left them."""
        self.ui.show(ListScreen(self.ui, "Names  # ok", len(self.players),
                                lambda i: self.players[i], self._next_name, self._ask_count,
                                ok=self._ask_options))

    def _next_name(self, seat):
        """Give this seat the next name of roster + its default that nobody else has."""
        pool = list(self.ui.controller.roster) + ["P%d" % (seat + 1)]
        current = self.players[seat]
        start = pool.index(current) + 1 if current in pool else 0
        for step in range(len(pool)):
            name = pool[(start + step) % len(pool)]
            if name not in self.players:
                self.players[seat] = name
                return
        self.ui.error("no other name")

    def _ask_options(self):
        specs, labels = self.specs, self.game.LABELS
        if not specs:
            self._ask_first()
            return
        self.ui.show(ListScreen(
            self.ui, "Options  # ok", len(specs),
            lambda i: "%s: %s" % (labels[specs[i].name], option_text(self.options[specs[i].name])),
            self._cycle_option, self._ask_names, ok=self._ask_first))

    def _cycle_option(self, i):
        name = self.specs[i].name
        values = getattr(self.game, "VALUES", {}).get(name) or choices(self.specs[i])
        at = list(values).index(self.options[name])
        self.options[name] = values[(at + 1) % len(values)]

    def _ask_first(self):
        self.ui.show(ListScreen(self.ui, "Who %s?" % self.game.FIRST, len(self.players),
                                lambda i: self.players[i], self._start_game,
                                self._ask_options if self.specs else self._ask_names))

    def _start_game(self, first):
        seated = self.players[first:] + self.players[:first]  # clockwise order kept
        try:
            self.ui.controller.new(self.name, seated, self.options)
        except (SetupError, JournalError) as e:
            self.ui.error(e.reason)
