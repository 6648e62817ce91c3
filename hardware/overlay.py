"""The printable keypad overlay (hardware/keypad-overlay.svg), true size in millimetres.

Key labels come from pins.json; what each key means comes from the protocol's logical keys
(docs/protocol.md "Logical keys"): # is ok, * is undo (held: redo), D is the menu and A/B/C are
soft keys whose meaning the screen shows for each game. Print at 100 %, check the 50 mm
bar, trim along the outline and lay it over the membrane under clear tape.
"""
from hardware.svg import Svg

# The common 4x4 membrane keypad: 69 x 76 mm, keys about 13 mm on a 16.5 x 16 mm grid.
PAD_W, PAD_H = 69.0, 76.0
KEY, PITCH_X, PITCH_Y = 13.0, 16.5, 16.0
MARGIN = 10.0
LEGEND_X = MARGIN + PAD_W + 8
WIDTH, HEIGHT = LEGEND_X + 66, PAD_H + 2 * MARGIN

MEANINGS = {
    "#": ("OK",),
    "*": ("UNDO", "held: REDO"),
    "D": ("MENU",),
    "A": ("soft",),
    "B": ("soft",),
    "C": ("soft",),
}
SOFT_KEYS = ("A", "B", "C")
LEGEND = (
    ("*", "undo, or back while typing"),
    ("", "held: redo"),
    ("#", "ok"),
    ("D", "menu"),
)


def key_centre(index):
    row, col = divmod(index, 4)
    cx = MARGIN + PAD_W / 2 + (col - 1.5) * PITCH_X
    cy = MARGIN + PAD_H / 2 + (row - 1.5) * PITCH_Y
    return cx, cy


def render(pinmap):
    svg = Svg(WIDTH, HEIGHT, unit="mm", title="Croupier keypad overlay")
    svg.rect(MARGIN, MARGIN, PAD_W, PAD_H, rx=2, fill="white", stroke="black", stroke_width=0.3,
             stroke_dasharray="1.5,1")
    for index, label in enumerate(pinmap.key_labels):
        _key(svg, index, label)
    soft = " ".join(label for label in pinmap.key_labels if label in SOFT_KEYS)
    lines = ((soft, "soft keys: the screen shows"), ("", "what they do in each game")) + LEGEND
    for row, (keys, meaning) in enumerate(lines):
        y = MARGIN + 6 + row * 5
        svg.text(LEGEND_X, y, keys, font_size=3.2, font_weight="bold")
        svg.text(LEGEND_X + 14, y, meaning, font_size=3.2)
    foot = MARGIN + PAD_H
    svg.text(LEGEND_X, foot - 18, "Print at 100 %: the bar is 50 mm.", font_size=3)
    svg.rect(LEGEND_X, foot - 15, 50, 2.5, fill="black")
    svg.text(LEGEND_X, foot - 7, "Cut along the dashed line.", font_size=3)
    svg.text(LEGEND_X, foot, "Made from hardware/pins.json.", font_size=2.5, fill="#555")
    return svg.render()


def _key(svg, index, label):
    cx, cy = key_centre(index)
    meaning = MEANINGS.get(label, ())
    soft = label in SOFT_KEYS
    svg.rect(cx - KEY / 2, cy - KEY / 2, KEY, KEY, rx=1.5, fill="#e8eef5" if soft else "white",
             stroke="black", stroke_width=0.25)
    label_y = cy + (0.5 if meaning else 2.2)
    svg.text(cx, label_y, label, font_size=6.5 if not meaning else 5.5, font_weight="bold", text_anchor="middle")
    for line, text in enumerate(meaning):
        svg.text(cx, cy + 3.6 + line * 2.2, text, font_size=2.3 if len(meaning) == 1 else 2.0, text_anchor="middle")
