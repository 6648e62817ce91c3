"""`croupier play maumau`: Mau-Mau against the computer in the terminal (Textual).

Four screens, one after the other: a new game (the opponents and their strengths), the table
(a round), the score list between rounds, and the game's end. Every rule lives in the engine
and every move goes through play.session.Session; this module only shows and asks.
"""
import random

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Log, Static
from textual.worker import WorkerState

from croupier.commands.common import open_store, reports_errors
from croupier.play.session import DEFAULT_LIMIT, DEFAULT_NAME, MAX_OPPONENTS, PERSON, Session
from croupier.plural import count
from croupier.rules import Illegal
from croupier.rules.engine import MAX_NAME, check_options
from croupier.rules.maumau_match import SUIT_NAMES, SYMBOLS, Game, face
from croupier.rules.prng import MASK

# A few words per strength (docs/rules.md "Computer players" says what each one does).
STRENGTH_NAMES = {1: "random", 2: "lays what fits", 3: "keeps its jacks", 4: "wishes its suit",
                  5: "looks ahead"}
DEFAULT_STRENGTH = 3
CARD_KEYS = "1234567890"  # pick the first ten cards of the hand
SECOND_PERSON = {"lays": "lay", "draws": "draw", "is": "are", "wishes": "wish"}


def button(label, id, variant="default", compact=False):
    """A button the mouse presses: the keys belong to the screens' shortcuts. compact: one
    line high, without borders (so that every screen fits 80x24: the table's buttons and
    log, the new game's four opponents, five players leaving between rounds)."""
    widget = Button(label, id=id, variant=variant, compact=compact)
    widget.can_focus = False
    return widget


def button_pool(container, prefix, count, compact=False):
    """count buttons prefix-0 .. prefix-(count-1) in container (mounting the missing ones;
    extra ones are hidden): buttons are reused, never remounted under the same id."""
    buttons = list(container.query(Button))
    for i in range(len(buttons), count):
        buttons.append(button("", "%s-%d" % (prefix, i), compact=compact))
        container.mount(buttons[-1])
    for i, widget in enumerate(buttons):
        widget.display = i < count
    return buttons[:count]


def text(widget_id, content="", **options):
    """A line or block of plain text (names are shown as typed, never read as markup)."""
    return Static(content, id=widget_id, markup=False, **options)


def verb(who, word):
    """word (lays, draws, is, wishes) as who says it: the default name You takes lay, draw..."""
    return SECOND_PERSON.get(word, word) if who == DEFAULT_NAME else word


def describe(name, move, effects, names):
    """Lines telling what one input did, for the table's log."""
    lines = []
    if move == "mau":
        lines.append("%s: Mau!" % name)
    elif move == "draw":
        drew = [e["cards"] for e in effects if e["kind"] == "drew"]
        lines.append("%s %s %d" % (name, verb(name, "draws"), drew[0] if drew else 0))
    else:
        wish = " and %s %s" % (verb(name, "wishes"), SUIT_NAMES[move[-1]]) if ":" in move else ""
        lines.append("%s %s %s%s" % (name, verb(name, "lays"), face(move), wish))
    for e in effects:
        who = names[e["seat"]]
        if e["kind"] == "forgot":
            lines.append("%s forgot to say Mau: %s %d" % (who, verb(who, "draws"), e["cards"]))
        elif e["kind"] == "skipped":
            lines.append("%s %s skipped" % (who, verb(who, "is")))
        elif e["kind"] == "drew" and move != "draw":
            lines.append("%s %s %d" % (who, verb(who, "draws"), e["cards"]))
        elif e["kind"] == "reshuffled":
            lines.append("the discard pile is shuffled into the stock")
        elif e["kind"] == "maumau":
            lines.append("%s: Mau-Mau! The round is over" % who)
        elif e["kind"] == "eliminated":
            lines.append("%s reached the limit and %s out" % (who, verb(who, "is")))
    return lines


def score_lines(session):
    """The score list as text: negative points, the last round's loss, out / struck off."""
    rows = ["%-28s %6s %7s" % ("player", "score", "round")]
    for r in session.scores():
        status = "struck off (left)" if r["left"] else "out" if r["out"] else ""
        rows.append("%-28s %6d %7s  %s" % (session.label(r["seat"]), r["score"],
                                           -r["lost"] if r["lost"] else "0", status))
    return "\n".join(rows)


# --- new game -------------------------------------------------------------------------------
class NewGameScreen(Screen):
    AUTO_FOCUS = ""  # the keys set the opponents; a click on the name edits it
    BINDINGS = [
        Binding("plus", "opponents(1)", "+ opponent"),
        Binding("minus", "opponents(-1)", "- opponent"),
        Binding("up", "cursor(-1)", "previous", show=False),
        Binding("down", "cursor(1)", "next", show=False),
        Binding("right", "strength(1)", "stronger"),
        Binding("left", "strength(-1)", "weaker"),
        Binding("enter", "start", "Start"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, name):
        super().__init__()
        self.player = name
        self.count = 3
        self.strengths = [DEFAULT_STRENGTH] * MAX_OPPONENTS
        self.cursor = 0

    def compose(self) -> ComposeResult:
        yield Static("Mau-Mau against the computer: new game", classes="title")
        with Horizontal(classes="row"):
            yield Static("Your name ", classes="label")
            yield Input(self.player, id="name", max_length=24)
        with Horizontal(classes="line", id="opponents-row"):
            yield Static("Opponents ", classes="label")
            yield button("-", "opponents-less", compact=True)
            yield text("opponents", classes="value")
            yield button("+", "opponents-more", compact=True)
        for i in range(MAX_OPPONENTS):
            with Horizontal(classes="line", id="row-%d" % i):
                yield text("pointer-%d" % i, classes="label")
                yield button("-", "weaker-%d" % i, compact=True)
                yield text("strength-%d" % i, classes="value")
                yield button("+", "stronger-%d" % i, compact=True)
        yield text("error")
        yield button("Start", "start", "primary")
        yield Footer()

    def on_mount(self):
        self.show()

    def show(self):
        self.query_one("#opponents", Static).update(str(self.count))
        for i in range(MAX_OPPONENTS):
            self.query_one("#row-%d" % i).display = i < self.count
            mark = ">" if i == self.cursor else " "
            self.query_one("#pointer-%d" % i, Static).update("%s Opponent %d " % (mark, i + 1))
            strength = self.strengths[i]
            self.query_one("#strength-%d" % i, Static).update("%d  %s" % (strength, STRENGTH_NAMES[strength]))

    def action_opponents(self, step):
        self.count = min(MAX_OPPONENTS, max(1, self.count + step))
        self.cursor = min(self.cursor, self.count - 1)
        self.show()

    def action_cursor(self, step):
        self.cursor = (self.cursor + step) % self.count
        self.show()

    def action_strength(self, step, seat=None):
        i = self.cursor if seat is None else seat
        self.strengths[i] = min(5, max(1, self.strengths[i] + step))
        self.show()

    def on_button_pressed(self, event):
        kind, _, index = event.button.id.partition("-")
        if kind == "opponents":
            self.action_opponents(1 if index == "more" else -1)
        elif kind in ("weaker", "stronger"):
            self.cursor = int(index)
            self.action_strength(1 if kind == "stronger" else -1)
        elif kind == "start":
            self.action_start()

    def on_input_submitted(self, event):
        self.action_start()

    def action_start(self):
        name = self.query_one("#name", Input).value
        try:
            self.app.start(name, self.strengths[:self.count])
        except ValueError as exc:
            self.query_one("#error", Static).update(str(exc))


# --- the table --------------------------------------------------------------------------------
class MoveLog(Log):
    """The table's log, always on its newest line: also when it shrinks because the lines
    above it grow (a wished suit, a pending draw), which leaves a Log where it was."""

    def on_resize(self):
        self.scroll_end(animate=False, immediate=True, x_axis=False)


class TableScreen(Screen):
    AUTO_FOCUS = ""  # arrows, digits and Enter pick and play cards
    BINDINGS = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("enter", "play_selected", "Play"),
        Binding("d", "d", "Draw (♦ after a jack)"),
        Binding("m", "mau", "Mau!"),
        Binding("h", "wish('h')", "♥", show=False),
        Binding("s", "wish('s')", "♠", show=False),
        Binding("c", "wish('c')", "♣", show=False),
        Binding("escape", "cancel", "Other card", show=False),
        Binding("q", "app.quit", "Quit"),
    ] + [Binding(key, "pick(%d)" % i, show=False) for i, key in enumerate(CARD_KEYS)]

    def __init__(self):
        super().__init__()
        self.selected = 0
        self.jack = None  # the jack waiting for its wish
        self.cards = []  # the person's hand, as the buttons show it

    def compose(self) -> ComposeResult:
        yield text("players")
        yield text("table")
        moves = MoveLog(id="moves", max_lines=500)
        moves.can_focus = False
        yield moves
        yield text("message")
        yield Grid(id="hand")
        with Horizontal(id="actions"):
            yield button("Draw (d)", "draw", compact=True)
            yield button("Mau! (m)", "mau", "warning", compact=True)
            for s in SYMBOLS:
                yield button("%s %s" % (SYMBOLS[s], s), "wish-%s" % s, compact=True)
        yield Footer()

    def on_mount(self):
        self.query_one("#moves", Log).write_lines(self.app.moves[-200:])
        self.show()
        self.call_later(self.app.advance)  # the computer players' moves, once this screen shows

    @property
    def session(self):
        return self.app.session

    # --- showing --------------------------------------------------------------------------
    def show(self):
        view = self.session.view()
        self.cards = view["hand"]
        self.selected = min(self.selected, max(0, len(self.cards) - 1))
        players = []
        for seat in range(len(view["names"])):
            if view["out"][seat]:
                continue
            turn = "▶ " if seat == view["turn"] else "  "
            cards = count(view["counts"][seat], "card")
            said = "  Mau!" if seat == view["turn"] and view["said"] else ""
            players.append("%s%-30s %-9s score %4d%s" % (turn, self.session.label(seat), cards,
                                                         view["scores"][seat], said))
        self.query_one("#players", Static).update("\n".join(players))
        order = " → " if view["dir"] == 1 else " ← "
        seats = order.join(view["names"][s] for s in range(len(view["names"])) if not view["out"][s])
        top = face(view["pile"][-1]) if view["pile"] else "-"
        lines = ["Round %d   pile: %s   stock: %d" % (view["round"], top, view["stock"]),
                 "Turn: %s   direction: %s  (%s)" % (view["names"][view["turn"]],
                                                    "clockwise" if view["dir"] == 1 else "counter-clockwise", seats)]
        if view["wish"]:
            lines.append("Wished suit: %s %s" % (SYMBOLS[view["wish"]], SUIT_NAMES[view["wish"]]))
        if view["draw"]:
            lines.append("Pending draw: %d (answer with a 7 or draw them)" % view["draw"])
        if view["ace"]:
            lines.append("%s follows an ace: one more card, or draw" % view["names"][view["turn"]])
        self.query_one("#table", Static).update("\n".join(lines))
        self._show_hand(view)
        for s in SYMBOLS:
            self.query_one("#wish-%s" % s).display = self.jack is not None

    def _show_hand(self, view):
        legal = set(move.split(":")[0] for move in view["legal"])
        for i, widget in enumerate(button_pool(self.query_one("#hand", Grid), "card", len(self.cards), compact=True)):
            card = self.cards[i]
            key = CARD_KEYS[i] if i < len(CARD_KEYS) else " "
            widget.label = "%s %s" % (key, face(card))
            widget.variant = "primary" if i == self.selected else "success" if card in legal else "default"

    def say(self, message):
        self.query_one("#message", Static).update(message)

    def log(self, lines):
        self.app.moves.extend(lines)
        self.query_one("#moves", Log).write_lines(lines)

    # --- the person's moves ------------------------------------------------------------------
    def action_move(self, step):
        if self.cards:
            self.selected = (self.selected + step) % len(self.cards)
            self.show()

    def action_pick(self, index):
        if index < len(self.cards):
            self.selected = index
            self.jack = None
            self.show()

    def action_play_selected(self):
        if not self.cards:
            return self.say("you hold no cards")
        card = self.cards[self.selected]
        if card[0] == "J":
            try:
                self.session.check(card + ":h")
            except Illegal as exc:
                return self.say(exc.reason)
            self.jack = card
            self.say("Wish a suit for %s: h ♥, d ♦, s ♠ or c ♣ (Esc: another card)" % face(card))
            return self.show()
        self.play(card)

    def action_wish(self, wish):
        if self.jack is None:
            return self.say("a suit is wished when a jack is laid: pick a jack first")
        jack, self.jack = self.jack, None
        self.play(jack + ":" + wish)

    def action_d(self):
        if self.jack is not None:
            self.action_wish("d")
        else:
            self.play("draw")

    def action_mau(self):
        self.play("mau")

    def action_cancel(self):
        self.jack = None
        self.say("")
        self.show()

    def on_button_pressed(self, event):
        kind, _, rest = event.button.id.partition("-")
        if kind == "card":
            self.action_pick(int(rest))
            self.action_play_selected()
        elif kind == "wish":
            self.action_wish(rest)
        elif kind == "draw":
            self.play("draw")  # even with a jack picked: the button says Draw
        elif kind == "mau":
            self.action_mau()

    def play(self, move):
        """The person's move: refused with the engine's reason, or done and the game goes on."""
        try:
            effects = self.session.play(move)
        except Illegal as exc:
            self.say(exc.reason)
            return
        self.jack = None
        self.say("")
        self.log(describe(self.session.label(PERSON), move, effects, self.names()))
        self.show()
        self.call_later(self.app.advance)  # the computer players' moves, once the move shows

    def names(self):
        return [self.session.label(seat) for seat in range(len(self.session.game.names))]


# --- between rounds ---------------------------------------------------------------------------
class RoundScreen(Screen):
    BINDINGS = [
        Binding("n", "next_round", "Next round"),
        Binding("enter", "next_round", "Next round", show=False),
        Binding("a", "add", "Add opponent"),
        Binding("plus", "strength(1)", "stronger"),
        Binding("minus", "strength(-1)", "weaker"),
        Binding("l", "leave(%d)" % PERSON, "Leave"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self):
        super().__init__()
        self.strength = DEFAULT_STRENGTH

    @property
    def session(self):
        return self.app.session

    def compose(self) -> ComposeResult:
        yield Static("Between rounds: the score list", classes="title")
        yield text("scores")
        yield text("message")
        with Horizontal(classes="row"):
            yield button("Next round (n)", "next", "primary")
            yield button("Add opponent (a)", "add")
            yield button("-", "weaker")
            yield text("strength", classes="value")
            yield button("+", "stronger")
        yield Vertical(id="leaves")
        yield Footer()

    def on_mount(self):
        self.show()

    def show(self):
        self.query_one("#scores", Static).update(score_lines(self.session))
        self.query_one("#strength", Static).update("strength %d  %s" % (self.strength, STRENGTH_NAMES[self.strength]))
        view = self.session.view()
        leaves = button_pool(self.query_one("#leaves", Vertical), "leave", len(view["names"]), compact=True)
        for seat, widget in enumerate(leaves):
            widget.display = not view["out"][seat]
            widget.label = "I leave (l)" if seat == PERSON else "%s leaves" % self.session.label(seat)
            widget.variant = "error" if seat == PERSON else "default"
        if view["out"][PERSON]:
            self.say("You are out: the computer players play on (n) or you leave the table (q).")

    def say(self, message):
        self.query_one("#message", Static).update(message)

    def on_button_pressed(self, event):
        kind, _, rest = event.button.id.partition("-")
        if kind == "next":
            self.action_next_round()
        elif kind == "add":
            self.action_add()
        elif kind in ("weaker", "stronger"):
            self.action_strength(1 if kind == "stronger" else -1)
        elif kind == "leave":
            self.action_leave(int(rest))

    def playing_out(self):
        """True once the person left: the computer players play the match out, untouched."""
        return self.session.view()["left"][PERSON]

    def action_strength(self, step):
        self.strength = min(5, max(1, self.strength + step))
        self.show()

    def action_add(self):
        if self.playing_out():
            return
        try:
            seat = self.session.add_opponent(self.strength)
        except Illegal as exc:
            return self.say(exc.reason)
        self.say("%s joins with %s" % (self.session.label(seat), count(self.session.view()["scores"][seat], "point")))
        self.show()

    def action_leave(self, seat):
        if self.playing_out():
            return
        if seat == PERSON and self.session.view()["out"][PERSON]:
            return self.say("you are out already: q leaves the table")
        try:
            if seat == PERSON:
                return self.app.leave_table()
            self.session.leave(seat)
        except Illegal as exc:
            return self.say(exc.reason)
        if self.session.over:
            return self.app.game_over()
        self.say("%s leaves and is struck off" % self.session.game.names[seat])
        self.show()

    def action_next_round(self):
        if self.session.over or self.playing_out():
            return
        self.app.deal()


# --- the end ------------------------------------------------------------------------------------
class GameOverScreen(Screen):
    BINDINGS = [Binding("n", "app.new_game", "New game"), Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        session = self.app.session
        winners = ", ".join(session.label(s) for s in session.game.winners) or "nobody"
        yield Static("Game over", classes="title")
        yield text("winner", "Winner: %s" % winners)
        yield text("scores", score_lines(session))
        yield text("saved", "Saved in %s as game %s (%s): see `croupier games`"
                   % (self.app.store.path, session.journal.ref, session.saved["status"]))
        with Horizontal(classes="row"):
            yield button("New game (n)", "new", "primary")
            yield button("Quit (q)", "quit")
        yield Footer()

    def on_button_pressed(self, event):
        if event.button.id == "new":
            self.app.action_new_game()
        else:
            self.app.exit()


class MauMauApp(App):
    TITLE = "Croupier: Mau-Mau against the computer"
    CSS = """
    .title { text-style: bold; padding: 0 1; margin-bottom: 1; }
    .row { height: 3; }
    .label { width: 16; padding: 1 0 0 1; }
    .value { width: 30; padding: 1 1 0 1; }
    .row Button, .line Button { min-width: 5; }
    /* a setting on one line, its buttons compact: four opponents and Start fit 24 rows */
    .line { height: 1; }
    .line .label { padding: 0 0 0 1; }
    .line .value { padding: 0 1; }
    #opponents-row, #error { margin-top: 1; }
    #name { width: 30; }
    #players, #table { padding: 0 1; margin-bottom: 1; height: auto; }
    #moves { height: 1fr; border: round $secondary; }
    #message { color: $warning; padding: 0 1; height: 1; }
    /* a card is "1 10♥" and a space each side: 9 of them in a row fit 80 columns */
    #hand { grid-size: 9; grid-columns: 7; grid-gutter: 0 1; height: auto; grid-rows: 1; padding: 0 1; }
    #hand Button { min-width: 7; width: 7; }
    #actions { height: 1; padding: 0 1; }
    #actions Button { min-width: 8; margin-right: 1; }
    #leaves { height: auto; margin-top: 1; }
    #scores { padding: 0 1; margin-bottom: 1; height: auto; }
    """

    def __init__(self, store, name=DEFAULT_NAME, seed=None, delay=0.6, limit=DEFAULT_LIMIT):
        """store: where the games go; seed: the first game's (later games take the next
        numbers), None for a random one; delay: seconds between two computer moves; limit:
        the score that puts a player out."""
        super().__init__()
        self.store = store
        self.limit = limit
        self.player = name
        self.seed = random.getrandbits(32) if seed is None else seed
        self.delay = delay
        self.session = None
        self.moves = []  # the table's log of this game
        self._stepping = False  # a computer player's move is waiting for the delay or its choice
        self._thinking = None  # (the worker choosing a computer player's move, what follows it)

    def on_mount(self):
        self.push_screen(NewGameScreen(self.player))

    def start(self, name, strengths):
        """A new game from the new-game screen; ValueError when it cannot start."""
        self.session = Session(self.store, strengths, name, self.seed, self.limit)
        self.seed = (self.seed + 1) & MASK
        self.player = self.session.game.names[PERSON]
        self.moves = []
        self.deal()

    def deal(self):
        """The next round: dealt, and on the table."""
        self.session.deal()
        self.moves.append("Round %d: the cards are dealt" % self.session.view()["round"])
        self.switch_screen(TableScreen())

    def advance(self):
        """Let the computer players move, one at a time (delay apart), until it is the
        person's turn; then, at a round's end, the score list, at the game's end, the end."""
        if self._stepping or not isinstance(self.screen, TableScreen):
            return
        if self.session.computers_turn():
            self._stepping = True
            if self.delay:
                self.set_timer(self.delay, self._delayed_move)
            else:
                self._think(self.advance)
            return
        if self.session.over:
            self.game_over()
        elif self.session.between_rounds():
            self.switch_screen(RoundScreen())

    def _delayed_move(self):
        if isinstance(self.screen, TableScreen) and self.session.computers_turn():
            self._think(self.advance)
        else:
            self._stepping = False

    def _think(self, then):
        """The computer player on turn chooses in a worker thread, so the screen keeps
        answering while a strong one thinks; its move is made back here, on the UI thread
        (on_worker_state_changed, where the database is written), then `then` is called."""
        self._stepping = True
        self._thinking = (self.run_worker(self.session.computer_choice(), group="computer", thread=True), then)

    def on_worker_state_changed(self, event):
        if self._thinking is None or event.worker is not self._thinking[0] or event.state != WorkerState.SUCCESS:
            return  # an error ends the app with its traceback (the worker's exit_on_error)
        then, self._thinking, self._stepping = self._thinking[1], None, False
        if self.session.saved is not None:  # quit while it thought
            return
        seat, move = event.worker.result
        effects = self.session.computer_move(seat, move)
        if isinstance(self.screen, TableScreen):
            self.screen.log(describe(self.session.label(seat), move, effects, self.screen.names()))
            self.screen.show()
        then()

    def leave_table(self):
        """The person leaves: the computer players play the match out, a move at a time
        (each chosen in a worker thread, as at the table), then the end screen."""
        self.session.leave(PERSON, headless=False)
        self._play_out()

    def _play_out(self):
        if self.session.over:
            return self.game_over()
        if self.session.saved is not None:  # quit meanwhile
            return
        self.screen.say("You left: the computer players play the match out (round %d)... q stops"
                        % self.session.view()["round"])
        if self.session.between_rounds():
            self.session.deal()
            self.call_later(self._play_out)
        else:
            self._think(self._play_out)

    def game_over(self):
        self.session.quit()  # the game is over and saved already: this returns its row
        self.switch_screen(GameOverScreen())

    def action_new_game(self):
        self.switch_screen(NewGameScreen(self.player))

    async def action_quit(self):
        self.save()
        self.exit()

    def on_unmount(self):
        self.save()

    def save(self):
        """An unfinished game is saved as abandoned: nothing played is lost."""
        if self.session is not None and self.session.saved is None:
            self.session.quit()


@reports_errors
def run(args):
    """`croupier play maumau` without --tournament."""
    if args.delay < 0 or not (args.seed is None or 0 <= args.seed <= MASK):
        raise ValueError("--delay is 0 or more seconds, --seed 0 to %d" % MASK)
    if len(args.name.strip()) > MAX_NAME:
        raise ValueError("--name has at most %d characters" % MAX_NAME)
    check_options({"limit": args.limit}, Game.OPTIONS)  # SetupError: the engine's own words
    with open_store(args) as store:
        app = MauMauApp(store, args.name, args.seed, args.delay, args.limit)
        try:
            app.run()
        finally:
            app.save()  # however the app ended: an unfinished game is kept as abandoned
    return 0
