"""The UI as a whole: which screen is up, announcements over it, error messages, tunes.

Knows nothing of asyncio: the app feeds it keys (`key`) and the time in ticks_ms (`tick`,
when `next_timeout` says something is due; with a `clock`, the Ui also reads the time itself
when a key or an input arrives), and draws it (`draw`) whenever `on_change` was called. Inputs from the serial link reach it
through the controller's subscription, so they are announced exactly like keypad inputs.

Keys over an announcement: any key closes it; on the play screen every key but `ok` and
`menu` then goes on to the game as well, so typing the next card loses nothing, while `ok`
(also within _LATE_OK_MS of an announcement going by itself) only closes it.
"""
from micropython import const
import gc
import sys
from time import ticks_diff

from croupier import drop_module
from croupier.rules import GAMES
from croupier.ui import draw, games

SPLASH_MS = 1200
_ERROR_MS = const(2000)
_MESSAGE_LINES = const(5)  # an error's reason, wrapped: its box still fits the screen
_SHORT_MS = const(1500)  # doublet, bust, swimming, eliminated; round end and game over stay
# `ok` closes an announcement. One pressed just after the announcement went by itself was
# meant to close it too: it must not reach the game (Lobo's empty `ok` ends a 2x turn).
_LATE_OK_MS = const(1000)
# Modules load when needed and are dropped when the player moves on (heap): the play screen
# and the setup screens are never loaded together, and while a game is played only its own
# screen module, the helpers that module uses and its own rules engine stay.
PLAY = ("play", "table", "announce")
# menus, games' sub-screens, the splash
OFF_PLAY = ("setup", "history", "menu", "handcount", "referee", "splash", "voice")
HELPERS = ("pad",)  # shared by some games' screen modules


def _drop_modules(package_name, names):
    for name in names:
        drop_module(package_name + "." + name)


def _drop_game_modules(keep=None):
    """Every game's screen module but keep's, and the helpers keep does not use."""
    _drop_modules("croupier.ui.games", [g for g, _ in games.MENU if g != keep])
    used = keep and sys.modules.get("croupier.ui.games." + keep)
    _drop_modules("croupier.ui", [h for h in HELPERS if not hasattr(used, h)])


class Ui:
    def __init__(self, controller, buzzer, on_change=None, clock=None, settings=None):
        self.controller, self.buzzer = controller, buzzer
        self.on_change = on_change or (lambda: None)
        self.clock = clock  # () -> ticks_ms; None: only tick() moves the time
        self.settings = settings  # the settings file (croupier.settings); None: no voice menu
        self.on_voice = None  # (settings) -> None: the voice settings stored (the app's speaker)
        self.screen = None
        self.news = []  # queued announcements, the first one on screen
        self.news_since = 0
        self.news_gone = None  # when the last announcement went by itself
        self.message = None  # the reason of the last refusal, shown for _ERROR_MS
        self.message_since = 0
        self._message_lines = ()
        self.now = 0
        self.splash_since = None
        self.playing = False
        self._tuned = False  # a tune already answers the current key
        self._game_module = None
        controller.subscribe(self._on_input)
        controller.before_new = self._make_room

    # --- navigation -----------------------------------------------------------------------
    def show(self, screen):
        # Any other screen ends the splash: its timeout must not reopen the game over a
        # card being typed (a game started over the link during the splash).
        self.splash_since = None
        self.screen = screen
        self.on_change()

    def splash(self, now):
        """The splash, up since now (ticks_ms): the app drew it then, before the Ui loaded."""
        from croupier.ui.splash import Splash

        self.now = now
        self.playing = False
        self.show(Splash(self))
        self.splash_since = now
        self.buzzer.play("boot")
        if self.controller.unfinished():  # the game's screen loads while the splash shows
            from croupier.ui import play  # noqa: F401

            games.load(self.controller.state()["game"])

    def home(self):
        """The game in play exactly where it was (a finished one: its final screen), else
        the game menu."""
        if self.controller.game is not None:
            self.show_game()
        else:
            self.new_game()

    def show_game(self):
        name = self.controller.state()["game"]
        self.screen = self._game_module = None
        _drop_modules("croupier.ui", OFF_PLAY)
        drop_module("croupier.settings")  # the voice menu's (croupier.ui.voice)
        _drop_game_modules(keep=name)
        _drop_modules("croupier.rules", [g for g in GAMES if g != name])  # engines
        gc.collect()  # before the play screen loads into the space
        from croupier.ui.play import Play

        self._game_module = games.load(name)
        self.playing = True
        self.show(Play(self, self._game_module))

    def _leave_play(self):
        self.playing = False
        self.screen = None
        _drop_modules("croupier.ui", PLAY)
        gc.collect()

    def _leave_game(self):
        """Off the play screen, the game's own screen module and helpers dropped too, before
        the collection."""
        self._game_module = None
        _drop_game_modules()
        self._leave_play()

    def _make_room(self):
        """A new game is about to load while the play screen is up (the link started it):
        the old game's screens go first, the splash shows meanwhile. A new game refused
        leaves the splash to time out back to the game (home)."""
        if self.playing:
            self.news = []
            self._leave_game()
            from croupier.ui.splash import Splash

            self.show(Splash(self))
            self.splash_since = self.now

    def new_game(self):
        self._leave_game()  # setup loads the screen module of the game picked
        from croupier.ui.setup import Setup

        back = self.show_game if self.controller.game is not None else None
        Setup(self, back).start()

    def voice_menu(self, back):
        """The voice's settings (croupier.ui.voice), then back()."""
        from croupier.ui.voice import Voice

        Voice(self, back)

    def play_menu(self):
        """The menu over the game in play (croupier.ui.menu: not loaded while playing)."""
        self._leave_play()
        from croupier.ui.menu import play_menu

        play_menu(self)

    # --- input ----------------------------------------------------------------------------
    def key(self, k, hold):
        """One logical key. A click answers it unless a refusal or an effect tune does."""
        self._tuned = False
        self._read_clock()
        late_ok = (k == "ok" and self.news_gone is not None
                   and ticks_diff(self.now, self.news_gone) < _LATE_OK_MS)
        self.news_gone = None
        if self.news:
            if self._dismiss(k):
                self.screen.key(k, hold)
        elif not late_ok:
            self.screen.key(k, hold)
        if not self._tuned:
            self.buzzer.play("click")
        self.on_change()

    def _dismiss(self, k):
        """A key closes every announcement (the play screen shows where the game stands)
        and the splash. True when the key goes on to the game, so fast typing loses nothing:
        every key but `ok` and `menu`, which only close. Off the play screen keys only close."""
        self.news = []
        return k != "ok" and k != "menu" and self.playing

    def error(self, reason):
        self.message, self.message_since = reason, self.now
        # once, not per redraw; 15 columns keep the text off the box's frame
        self._message_lines = draw.wrap(reason, 15)[:_MESSAGE_LINES]
        self.buzzer.play("error")
        self._tuned = True

    def _read_clock(self):
        if self.clock:
            self.now = self.clock()

    def next_timeout(self, now):
        """ms from now until tick() has something to do (0: overdue); None while nothing can
        time out (the app then sleeps until the next change instead of ticking)."""
        waits = []
        if self.splash_since is not None:
            waits.append(SPLASH_MS - ticks_diff(now, self.splash_since))
        if self.news and not self.news[0].sticky:
            waits.append(_SHORT_MS - ticks_diff(now, self.news_since))
        if self.message:
            waits.append(_ERROR_MS - ticks_diff(now, self.message_since))
        return max(0, min(waits)) if waits else None

    def tick(self, now):
        """Time passes: the splash ends, short news and error messages expire."""
        self.now = now
        if self.splash_since is not None and ticks_diff(now, self.splash_since) >= SPLASH_MS:
            self.home()
        if self.news and not self.news[0].sticky and ticks_diff(now, self.news_since) >= _SHORT_MS:
            self.news.pop(0)
            if self.news:
                self._announce_first()
            else:
                self.news_gone = now
            self.on_change()
        if self.message and ticks_diff(now, self.message_since) >= _ERROR_MS:
            self.message = None
            self.on_change()

    def effect_text(self, kind):
        from croupier.ui.announce import effect_text

        return effect_text(self._game_module.TEXTS, kind)

    def _on_input(self, seq, state, effects):
        self._read_clock()  # an input from the link comes between ticks
        if seq == self.controller.game_id:
            self.show_game()  # a new game (from the keypad or the link) starts here
        elif self.playing:
            self.screen.refresh_preview()  # a card from the link changes what typing gives
        from croupier.ui.announce import build

        game = games.load(state["game"])
        # A new input makes older news stale: the queue holds this input's announcements only,
        # so cards arriving over the link with nobody at the keys never pile news up.
        self.news = build(game.TEXTS, state, effects, getattr(game, "TUNES", None))
        if self.news:
            self._announce_first()
        self.on_change()

    def _announce_first(self):
        self.news_since = self.now
        self.buzzer.play(self.news[0].tune)
        self._tuned = True

    # --- drawing --------------------------------------------------------------------------
    def draw(self, fb):
        fb.fill(0)
        (self.news[0] if self.news else self.screen).draw(fb)
        if self.message:
            lines = self._message_lines
            top = 30 - 5 * len(lines)
            fb.fill_rect(0, top - 3, draw.W, 10 * len(lines) + 5, 0)
            fb.rect(0, top - 3, draw.W, 10 * len(lines) + 5, 1)
            for i in range(len(lines)):
                draw.text_center(fb, lines[i], top + 10 * i)
