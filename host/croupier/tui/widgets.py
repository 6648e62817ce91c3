"""The box's face in a terminal: the OLED panel and the keypad, whatever feeds them.

The panel has two ways to draw its 128x64 pixels, both keeping the panel's 2:1 shape (a
terminal cell is about twice as tall as wide):
- `half`: half-block characters, two pixels stacked per cell: 128x32 cells;
- `braille`: braille characters, 2x4 pixels per cell: 64x16 cells, for an 80x24 terminal.
"""
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.containers import Grid
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from croupier.oled_render import FB_SIZE, HEIGHT, WIDTH, pixels

LIT, DARK = "#e8f0ff", "#101014"
HALF_CHARS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
# Braille dot bits by (column, row) inside the 2x4 cell (Unicode's dot numbering 1-8).
BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (0, 3, 0x40),
                (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (1, 3, 0x80))
CELL = {"half": (1, 2), "braille": (2, 4)}  # pixels per cell (wide, high)


def _half_cell(rows, x, y):
    return HALF_CHARS[rows[2 * y][x], rows[2 * y + 1][x]]


def _braille_cell(rows, x, y):
    bits = 0
    for dx, dy, bit in BRAILLE_BITS:
        if rows[4 * y + dy][2 * x + dx]:
            bits |= bit
    return chr(0x2800 + bits)


class Oled(Widget):
    """The panel, from a 1,024-byte SSD1306 frame buffer (page order, as `screen` sends it)."""

    mode = reactive("half", layout=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows = pixels(bytes(FB_SIZE))
        self._lines = None  # the text of each cell row in the current mode, built on demand

    def show(self, fb: bytes):
        self.rows = pixels(fb)
        self._lines = None
        self.refresh()

    def watch_mode(self, mode):
        wide, high = CELL[mode]
        self.styles.width, self.styles.height = WIDTH // wide, HEIGHT // high
        self._lines = None

    def text(self) -> str:
        """The panel as characters, one line per cell row (tests, screen readers)."""
        return "\n".join(self._text_lines())

    def _text_lines(self):
        if self._lines is None:
            wide, high = CELL[self.mode]
            cell = _half_cell if self.mode == "half" else _braille_cell
            self._lines = ["".join(cell(self.rows, x, y) for x in range(WIDTH // wide)) for y in range(HEIGHT // high)]
        return self._lines

    def render_line(self, y: int) -> Strip:
        lines = self._text_lines()
        if y >= len(lines):
            return Strip.blank(self.size.width)
        if self.mode == "braille":
            return Strip([Segment(lines[y], Style(color=LIT, bgcolor=DARK))])
        return Strip(self._half_segments(y))

    def _half_segments(self, y):
        """Upper half-blocks coloured per pixel, runs of one colour pair merged."""
        top, bottom = self.rows[2 * y], self.rows[2 * y + 1]
        segments, run, start = [], None, 0
        for x, pair in enumerate(zip(top, bottom)):
            if pair != run:
                if run is not None:
                    segments.append(_half_run(run, x - start))
                run, start = pair, x
        segments.append(_half_run(run, WIDTH - start))
        return segments


def _half_run(pair, length):
    t, b = pair
    return Segment("▀" * length, Style(color=LIT if t else DARK, bgcolor=LIT if b else DARK))


class Key(Static):
    """One key of the keypad: tells its press and release apart, so a long press can be held."""

    class Down(Message):
        def __init__(self, label):
            super().__init__()
            self.label = label

    class Up(Message):
        def __init__(self, label):
            super().__init__()
            self.label = label

    def __init__(self, label, **kwargs):
        super().__init__(label, **kwargs)
        self.label = label
        self._down = False

    def on_mouse_down(self, event: events.MouseDown):
        event.stop()
        self._down = True
        self.capture_mouse()  # the release counts wherever the pointer is by then
        self.add_class("-down")
        self.post_message(self.Down(self.label))

    def on_mouse_up(self, event: events.MouseUp):
        event.stop()
        if self._down:
            self._down = False
            self.release_mouse()
            self.remove_class("-down")
            self.post_message(self.Up(self.label))


class Keypad(Grid):
    """The 4x4 keys, labels row by row as printed on the box (pins.json)."""

    DEFAULT_CSS = """
    Keypad { grid-size: 4 4; grid-gutter: 0 1; width: 35; height: 12; }
    Keypad Key { width: 7; height: 3; content-align: center middle; background: $panel;
                 text-style: bold; border: tall $panel-lighten-2; }
    Keypad Key:hover { background: $panel-lighten-1; }
    Keypad Key.-down { background: $accent; }
    Keypad.-compact { grid-gutter: 0 0; width: 12; height: 4; }
    Keypad.-compact Key { width: 3; height: 1; border: none; }
    """

    def __init__(self, labels, **kwargs):
        super().__init__(**kwargs)
        self.labels = list(labels)

    def compose(self):
        for i, label in enumerate(self.labels):
            yield Key(label, id="key-%d" % i)


def keypad_label(event: events.Key, labels):
    """The keypad label a keyboard key stands for, or None: the printed labels themselves
    (letters in either case), Enter for `#` and Backspace for `*`."""
    if event.key == "enter":
        return "#"
    if event.key == "backspace":
        return "*"
    char = (event.character or "").upper()
    return char if len(char) == 1 and char in labels else None
