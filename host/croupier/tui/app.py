"""The box in a terminal (Textual), whatever board is behind it: OLED, keypad, a status line.

Subclasses feed the panel (show_screen) and take the keys (press, key_down, key_up):
croupier.tui.sim for a virtual board in this process, croupier.tui.mirror for any board over
the serial protocol. The layout follows the terminal: the full one (panel in half-blocks,
big keys) where it fits, a compact one (panel in braille, one-line keys) down to 80x24.
"""
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from croupier.tui.widgets import Key, Keypad, Oled, keypad_label

HOLD_S = 0.6  # the firmware's long press (firmware/croupier/keys.py HOLD_MS)
FULL_SIZE = (167, 40)  # columns, rows the full layout needs; below it the compact one is used
COMPACT_SIZE = (80, 24)  # what the compact one needs
HOLD_HINT = {False: "h: hold key", True: "HOLD armed"}  # fits the compact side (12)


class BoardApp(App):
    CSS = """
    #where { height: 1; padding: 0 1; }
    #small { dock: top; height: auto; padding: 0 1; background: $error; color: $text; display: none; }
    #small.-shown { display: block; }
    #top { height: auto; }
    #oled { border: round $primary; width: auto; height: auto; }
    #side { width: auto; height: auto; padding: 0 1; }
    #hold { width: 35; height: 1; margin-top: 1; }
    #hold.-armed { background: $warning; color: $text; }
    .-compact #hold { width: 12; margin-top: 0; }
    """
    BINDINGS = [("h", "hold", "Hold next key"), ("q", "quit", "Quit")]

    def __init__(self, labels, where):
        super().__init__()
        self.labels = list(labels)
        self.where = where
        self.hold_armed = False
        self.compact = None  # set from the terminal's size once mounted
        self._shown = None

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="small")  # docked: in view however the screen below it scrolls
        yield Static(self.where, id="where")
        with Horizontal(id="top"):
            with Vertical(id="oled"):
                yield Oled(id="panel")
            with Vertical(id="side"):
                yield Keypad(self.labels, id="keypad")
                yield Static(HOLD_HINT[False], id="hold")
                yield from self.compose_side()
        yield from self.compose_bottom()
        yield Footer()

    def compose_side(self):
        """Widgets under the keypad (subclasses)."""
        return ()

    def compose_bottom(self):
        """Widgets under the panel and keypad (subclasses)."""
        return ()

    def on_mount(self):
        self._fit(self.size)

    def on_resize(self, event):
        self._fit(event.size)

    def _fit(self, size):
        small = size.width < COMPACT_SIZE[0] or size.height < COMPACT_SIZE[1]
        notice = self.query_one("#small", Static)
        notice.update("Terminal %dx%d is too small: the box needs %dx%d. Enlarge it."
                      % (size.width, size.height, *COMPACT_SIZE) if small else "")
        notice.set_class(small, "-shown")
        compact = size.width < FULL_SIZE[0] or size.height < FULL_SIZE[1]
        if compact == self.compact:
            return
        self.compact = compact
        self.screen.set_class(compact, "-compact")
        self.query_one("#keypad", Keypad).set_class(compact, "-compact")
        self.query_one("#panel", Oled).mode = "braille" if compact else "half"

    def show_screen(self, fb: bytes):
        """Draw a frame buffer (1,024 bytes, SSD1306 page order) when it changed."""
        if fb != self._shown:
            self._shown = fb
            for panel in self.query("#panel").results(Oled):  # none once the app is closing
                panel.show(fb)

    # -- keys -----------------------------------------------------------------------------------
    def on_key(self, event):
        label = keypad_label(event, self.labels)
        if label:
            event.stop()
            hold, self.hold_armed = self.hold_armed, False
            self._show_hold()
            self.press(label, hold)

    def action_hold(self):
        """The next key typed is a long press (a terminal cannot tell how long a key is held)."""
        self.hold_armed = not self.hold_armed
        self._show_hold()

    def _show_hold(self):
        hint = self.query_one("#hold", Static)
        hint.update(HOLD_HINT[self.hold_armed])
        hint.set_class(self.hold_armed, "-armed")

    def on_key_down(self, message: Key.Down):
        self.key_down(message.label)

    def on_key_up(self, message: Key.Up):
        self.key_up(message.label)

    def press(self, label, hold):
        """A whole press of the key with this label; hold: a long press."""
        raise NotImplementedError

    def key_down(self, label):
        """The mouse went down on a key: it stays down until key_up."""
        raise NotImplementedError

    def key_up(self, label):
        raise NotImplementedError
