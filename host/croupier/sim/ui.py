"""The virtual board in the terminal (Textual): OLED, keypad, serial log, reset.

The OLED uses half-block characters: one cell shows two pixels stacked, and a terminal cell
is about twice as tall as wide, so the 128x64 panel keeps its true 2:1 aspect in 128x32
cells. The board's I/O thread only posts messages; everything else runs on the UI thread.
"""
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Footer, Log, Static

from croupier.sim.oled import HEIGHT, WIDTH
from croupier.sim.render import pixels

LIT, DARK = "#e8f0ff", "#101014"
PRESS_MS = 120  # a click holds the key this long: longer than the firmware's debounce
SHORTCUTS = {"enter": "#", "backspace": "*", "a": "A", "b": "B", "c": "C", "d": "D"}


class Oled(Widget):
    """The panel, from the board's glass."""

    DEFAULT_CSS = "Oled { width: %d; height: %d; }" % (WIDTH, HEIGHT // 2)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows = pixels(bytes(WIDTH * HEIGHT // 8))

    def show(self, glass: bytes):
        self.rows = pixels(glass)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if y >= HEIGHT // 2:
            return Strip.blank(self.size.width)
        top, bottom = self.rows[2 * y], self.rows[2 * y + 1]
        return Strip([Segment("▀", Style(color=LIT if t else DARK, bgcolor=LIT if b else DARK))
                      for t, b in zip(top, bottom)])

    def text(self) -> str:
        """The panel as characters (tests, screen readers): ▀ ▄ █ or space per cell."""
        chars = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
        return "\n".join("".join(chars[t, b] for t, b in zip(self.rows[2 * y], self.rows[2 * y + 1]))
                         for y in range(HEIGHT // 2))


class SimApp(App):
    TITLE = "Croupier virtual board"
    CSS = """
    #top { height: auto; }
    #oled { border: round $primary; width: auto; height: auto; }
    #side { width: auto; height: auto; padding: 0 1; }
    #keypad { grid-size: 4 4; grid-gutter: 0 1; width: 35; height: 12; }
    #keypad Button { min-width: 7; width: 7; height: 3; }
    #reset { width: 35; margin-top: 1; }
    #port { height: 1; padding: 0 1; }
    #status { height: 1; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; }
    """
    BINDINGS = [("r", "reset", "Reset"), ("q", "quit", "Quit")]

    class BoardOutput(Message):
        def __init__(self, data: bytes):
            super().__init__()
            self.data = data

    def __init__(self, board):
        super().__init__()
        self.board = board
        self._shown = None
        self._status = None
        self._glass_stale = True  # set from the board's I/O thread, cleared by _refresh_oled

    def compose(self) -> ComposeResult:
        where = "serial port %s" % self.board.port + (" (link %s)" % self.board.link if self.board.link else "")
        yield Static(where, id="port")
        yield Static(self.status(), id="status")
        with Horizontal(id="top"):
            with Vertical(id="oled"):
                yield Oled(id="panel")
            with Vertical(id="side"):
                with Grid(id="keypad"):
                    for i, label in enumerate(self.board.labels):
                        key = Button(label, id="key-%d" % i)
                        key.can_focus = False  # Enter and digits belong to the keypad shortcuts
                        yield key
                reset = Button("Reset", id="reset", variant="warning")
                reset.can_focus = False
                yield reset
        yield Log(id="log", max_lines=2000)
        yield Footer()

    def on_mount(self):
        self.board.subscribe(self._on_board)
        self.set_interval(1 / 20, self._refresh_oled)
        self._refresh_oled()
        self.query_one("#log", Log).write(self.board.output().decode("utf-8", "replace").replace("\r", ""))

    def _on_board(self, event, data):
        if event == "output":  # the board's I/O thread: only post
            self.post_message(self.BoardOutput(data))
        else:  # a display write, power, a boot: the glass may have changed
            self._glass_stale = True

    def on_sim_app_board_output(self, message: BoardOutput):
        self.query_one("#log", Log).write(message.data.decode("utf-8", "replace").replace("\r", ""))

    def status(self) -> str:
        """The pace and the serial bytes lost to a full receive buffer."""
        pace = self.board.pace
        where = ("pace %s (%d baud, %d-byte receive buffer)" % (pace.name, pace.baud, pace.rx_buffer)
                 if pace else "full speed")
        return "%s · serial bytes lost: %d" % (where, self.board.rx_overflow)

    def _refresh_oled(self):
        status = self.status()
        if status != self._status:
            self._status = status
            self.query_one("#status", Static).update(status)
        if not self._glass_stale:  # reading the glass holds the board's lock: only when needed
            return
        self._glass_stale = False
        glass = self.board.glass()
        if glass != self._shown:
            self._shown = glass
            self.query_one("#panel", Oled).show(glass)

    def press(self, label):
        self.board.key_down(label)
        self.set_timer(PRESS_MS / 1000, lambda: self.board.key_up(label))

    def on_button_pressed(self, event: Button.Pressed):
        if event.button.id == "reset":
            self.action_reset()
        elif event.button.id and event.button.id.startswith("key-"):
            self.press(self.board.labels[int(event.button.id[4:])])

    def on_key(self, event):
        label = SHORTCUTS.get(event.key, event.key if event.key.isdigit() and len(event.key) == 1 else None)
        if label:
            event.stop()
            self.press(label)

    def action_reset(self):
        self.board.hard_reset()
