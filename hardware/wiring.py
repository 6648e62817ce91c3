"""The wiring diagram (hardware/wiring.svg): the DevKitC's headers, the parts, every wire.

Wires are routed on lanes: each wire gets its own vertical lane beside the board, and wires
that must reach the other side run around the board on their own horizontal channel, so
no two wires ever share a segment.
"""
from hardware import devkitc, parts
from hardware.svg import Svg

WIDTH, HEIGHT = 1120, 1180
BOARD_X, BOARD_W, BOARD_TOP = 440, 200, 100
PIN_Y0, PITCH = 170, 26
BOARD_BOTTOM = PIN_Y0 + PITCH * (len(devkitc.LEFT) - 1) + 40
LANE_GAP, LANE_START = 12, 20
TABLE_Y = 830

# Where each part sits: side of the board, box (x, y, w, h), pin slots (half a pitch off
# the header pins so a wire's two horizontal runs never line up), with the connector
# pins listed in parts.PARTS order.
LAYOUT = {
    "4x4 keypad": {"side": "left", "box": (60, 280, 190, 250), "first_slot": 5},
    "SSD1306 OLED": {"side": "right", "box": (870, 120, 190, 180), "first_slot": 0},
    "DS3231 RTC": {"side": "right", "box": (870, 650, 190, 150), "first_slot": 19},
    # Further out than the keypad: its wires take the outermost lanes on the left.
    "MAX98357A amplifier": {"side": "left", "box": (10, 550, 180, 250), "first_slot": 15},
}
BUZZER = "passive piezo buzzer"
BUZZER_BOX = (870, 380, 190, 250)
BUZZER_SLOTS = {"V+": 9, "+ (via NPN base resistor)": 12, "GND": 15}

COLOURS = {"i2c_sda": "#1f6fd1", "i2c_scl": "#d4a017", "buzzer": "#8e44ad", "i2s_sck": "#00a0b0",
           "i2s_ws": "#e75480", "i2s_sd": "#7f8c00", "3V3": "#d62728", "5V": "#a0522d", "GND": "#222222"}
ROW_COLOUR, COL_COLOUR = "#e67e22", "#27ae60"


def slot_y(slot):
    return PIN_Y0 + PITCH * (slot + 0.5)


def header_y(index):
    return PIN_Y0 + PITCH * index


def colour(signal, board_pin):
    if signal is None:
        return COLOURS[board_pin.split(".")[0]]
    if signal.startswith("key_row"):
        return ROW_COLOUR
    if signal.startswith("key_col"):
        return COL_COLOUR
    return COLOURS[signal]


def part_pin_point(part_name, part_pin):
    """(side, x, y) where the wire meets a part's pin."""
    if part_name == BUZZER:
        return "right", BUZZER_BOX[0], slot_y(BUZZER_SLOTS[part_pin])
    layout = LAYOUT[part_name]
    x, _, w, _ = layout["box"]
    index = parts.part(part_name)["pins"].index(part_pin)
    edge = x + w if layout["side"] == "left" else x
    return layout["side"], edge, slot_y(layout["first_slot"] + index)


class Router:
    """Hands out lanes beside the board and channels above and below it."""

    def __init__(self):
        self.lanes = {"left": 0, "right": 0}
        self.channels = {"above": 0, "below": 0}

    def lane(self, side):
        n = self.lanes[side]
        self.lanes[side] += 1
        offset = LANE_START + n * LANE_GAP
        return BOARD_X - offset if side == "left" else BOARD_X + BOARD_W + offset

    def channel(self, where):
        n = self.channels[where]
        self.channels[where] += 1
        offset = 15 + n * LANE_GAP
        return BOARD_TOP - offset if where == "above" else BOARD_BOTTOM + offset

    def route(self, pin_side, pin_y, part_side, part_x, part_y):
        start = (BOARD_X if pin_side == "left" else BOARD_X + BOARD_W, pin_y)
        first = self.lane(pin_side)
        if pin_side == part_side:
            return [start, (first, pin_y), (first, part_y), (part_x, part_y)]
        around = self.channel("above" if part_y < (BOARD_TOP + BOARD_BOTTOM) / 2 else "below")
        second = self.lane(part_side)
        return [start, (first, pin_y), (first, around), (second, around), (second, part_y), (part_x, part_y)]


def render(pinmap):
    svg = Svg(WIDTH, HEIGHT, title="Croupier wiring")
    svg.rect(0, 0, WIDTH, HEIGHT, fill="white")
    svg.text(20, 32, "Croupier wiring: %s (%s)" % (pinmap.board, pinmap.module), font_size=22, font_weight="bold")
    svg.text(20, 54, "Generated from hardware/pins.json by `python -m hardware.generate`: edit the pin map, not this file.",
             font_size=12, fill="#555")
    svg.text(20, 72, "I2C address 0x%02X at %d kHz. Rows drive low one at a time (open drain); columns read with pull-ups."
             % (pinmap.i2c_address, pinmap.i2c_freq // 1000), font_size=12, fill="#555")
    for i, line in enumerate(_optional_lines(pinmap)):
        svg.text(20, 110 + 16 * i, line, font_size=12, fill="#555")
    wires = parts.connections(pinmap)
    used = {}
    router = Router()
    for board_pin, part_name, part_pin, signal in wires:
        side, index = devkitc.header_position(board_pin)
        part_side, part_x, part_y = part_pin_point(part_name, part_pin)
        paint = colour(signal, board_pin)
        used[board_pin] = paint
        points = router.route(side, header_y(index), part_side, part_x, part_y)
        optional = part_name in pinmap.optional_parts()
        svg.polyline(points, stroke=paint, stroke_width=2.5, stroke_linejoin="round",
                     **({"stroke_dasharray": "7,4"} if optional else {}))
        label = board_pin.split(".")[0] if signal is None else "GPIO%s" % board_pin
        anchor_x = part_x + 6 if part_side == "left" else part_x - 6
        svg.text(anchor_x, part_y - 4, label, font_size=10, fill=paint,
                 text_anchor="start" if part_side == "left" else "end")
    _board(svg, used)
    _keypad(svg, pinmap)
    _oled(svg)
    _buzzer(svg)
    if pinmap.rtc:
        _rtc(svg, pinmap.rtc["part"])
    if pinmap.amp:
        _amp(svg, pinmap.amp["part"])
    _table(svg, pinmap)
    return svg.render()


def _optional_lines(pinmap):
    """The lines of the top-left note on the optional parts, whose wires are dashed."""
    lines = []
    if pinmap.rtc:
        lines += ["Optional: a %s module" % pinmap.rtc["part"],
                  "at I2C address 0x%02X on the same bus." % pinmap.rtc["address"]]
    if pinmap.amp:
        lines += ["Optional: a %s" % pinmap.amp["part"], "with its speaker, powered from 5V."]
    return lines + ["(Optional wires are dashed.)"] if lines else []


def _board(svg, used):
    svg.rect(BOARD_X, BOARD_TOP, BOARD_W, BOARD_BOTTOM - BOARD_TOP, rx=8, fill="#20303f", stroke="#000")
    svg.rect(BOARD_X + 45, BOARD_TOP + 6, BOARD_W - 90, 44, fill="#8a9aa8", stroke="#555")
    svg.text(BOARD_X + BOARD_W / 2, BOARD_TOP + 33, "antenna", font_size=11, text_anchor="middle")
    svg.rect(BOARD_X + 45, BOARD_TOP + 60, BOARD_W - 90, 130, fill="#c0c6cc", stroke="#555")
    svg.text(BOARD_X + BOARD_W / 2, BOARD_TOP + 130, "ESP32-WROOM-32", font_size=11, text_anchor="middle")
    svg.rect(BOARD_X + 75, BOARD_BOTTOM - 24, 50, 30, fill="#bbb", stroke="#555")
    svg.text(BOARD_X + BOARD_W / 2, BOARD_BOTTOM - 4, "USB", font_size=11, text_anchor="middle")
    for side, header in (("left", devkitc.LEFT), ("right", devkitc.RIGHT)):
        for index, (label, name, _) in enumerate(header):
            y = header_y(index)
            x = BOARD_X + 12 if side == "left" else BOARD_X + BOARD_W - 12
            svg.circle(x, y, 5, fill=used.get(name, "white"), stroke="#ccc")
            svg.text(x + 10 if side == "left" else x - 10, y + 4, label, font_size=11, fill="white",
                     text_anchor="start" if side == "left" else "end")


def _part_box(svg, part_name, box, side, pin_points):
    x, y, w, h = box
    svg.rect(x, y, w, h, rx=6, fill="#f4f6f8", stroke="#333")
    svg.text(x + w / 2, y + h - 10, parts.part(part_name)["title"], font_size=11, text_anchor="middle")
    for pin, (px, py) in pin_points:
        svg.circle(px, py, 4, fill="#333")
        svg.text(px - 8 if side == "left" else px + 8, py + 4, pin, font_size=11,
                 text_anchor="end" if side == "left" else "start")


def _pins_of(part_name):
    return [(pin, part_pin_point(part_name, pin)[1:]) for pin in parts.part(part_name)["pins"]]


def _keypad(svg, pinmap):
    name = "4x4 keypad"
    box = LAYOUT[name]["box"]
    _part_box(svg, name, box, "left", _pins_of(name))
    cell = 30
    for index, label in enumerate(pinmap.key_labels):
        row, col = divmod(index, 4)
        cx, cy = box[0] + 20 + col * (cell + 6), box[1] + 40 + row * (cell + 6)
        svg.rect(cx, cy, cell, cell, rx=4, fill="white", stroke="#555")
        svg.text(cx + cell / 2, cy + 20, label, font_size=14, text_anchor="middle")


def _oled(svg):
    name = "SSD1306 OLED"
    box = LAYOUT[name]["box"]
    _part_box(svg, name, box, "right", _pins_of(name))
    svg.rect(box[0] + 60, box[1] + 20, 118, 64, fill="#0a1a2a", stroke="#555")
    svg.text(box[0] + 119, box[1] + 57, "128 x 64", font_size=12, fill="#7fd3ff", text_anchor="middle")


def _rtc(svg, name):
    box = LAYOUT[name]["box"]
    _part_box(svg, name, box, "right", _pins_of(name))
    x, y = box[0] + 140, box[1] + 60
    svg.circle(x, y, 26, fill="#d0d4d8", stroke="#555")  # the coin cell holder
    svg.text(x, y + 4, "CR2032", font_size=10, text_anchor="middle")


def _amp(svg, name):
    box = LAYOUT[name]["box"]
    _part_box(svg, name, box, "left", _pins_of(name))
    x, y = box[0] + 20, box[1] + 30
    ink = {"stroke": "#333", "stroke_width": 1.5}
    svg.rect(x, y, 14, 24, fill="white", **ink)  # the speaker: magnet and cone
    svg.polyline([(x + 14, y), (x + 34, y - 14), (x + 34, y + 38), (x + 14, y + 24)], **ink)
    svg.text(x + 44, y + 8, "speaker", font_size=10)
    svg.text(x + 44, y + 22, "4-8 \u03a9, 2-3 W", font_size=10)
    svg.text(x, y + 60, "on the + and \u2212 terminal", font_size=10, fill="#555")
    svg.text(x, y + 76, "GAIN, SD: unwired", font_size=10, fill="#555")
    svg.text(x, y + 90, "(9 dB, always on)", font_size=10, fill="#555")


def _buzzer(svg):
    x0, y0 = BUZZER_BOX[0], BUZZER_BOX[1]
    points = [(label, part_pin_point(BUZZER, pin)[1:])
              for label, pin in (("V+", "V+"), ("IN", "+ (via NPN base resistor)"), ("GND", "GND"))]
    _part_box(svg, BUZZER, BUZZER_BOX, "right", points)
    vplus, base_in, ground = (y for _, (_, y) in points)
    bx = x0 + 115  # the buzzer / collector / emitter column
    ink = {"stroke": "#333", "stroke_width": 1.5}
    svg.polyline([(x0 + 40, vplus), (bx, vplus), (bx, vplus + 16)], **ink)
    svg.circle(bx, vplus + 30, 14, fill="white", **ink)
    svg.text(bx, vplus + 35, "BZ", font_size=10, text_anchor="middle")
    svg.text(bx - 20, vplus + 16, "+", font_size=12)
    svg.polyline([(bx, vplus + 6), (bx + 45, vplus + 6), (bx + 45, vplus + 14)], **ink)
    svg.rect(bx + 40, vplus + 14, 10, 28, fill="white", **ink)
    svg.polyline([(bx + 45, vplus + 42), (bx + 45, vplus + 52), (bx, vplus + 52)], **ink)
    svg.text(bx + 54, vplus + 32, "1k", font_size=10)
    svg.line(bx, vplus + 44, bx, base_in - 12, **ink)
    svg.circle(bx - 12, base_in, 18, fill="none", **ink)
    svg.line(bx - 22, base_in - 11, bx - 22, base_in + 11, **ink)
    svg.line(bx - 22, base_in - 5, bx, base_in - 12, **ink)
    svg.line(bx - 22, base_in + 5, bx, base_in + 12, **ink)
    svg.text(bx + 12, base_in + 4, "NPN S8050", font_size=10)
    svg.polyline([(x0 + 40, base_in), (x0 + 50, base_in)], **ink)
    svg.rect(x0 + 50, base_in - 5, 26, 10, fill="white", **ink)
    svg.text(x0 + 63, base_in - 9, "1k", font_size=10, text_anchor="middle")
    svg.line(x0 + 76, base_in, bx - 22, base_in, **ink)
    svg.polyline([(bx, base_in + 12), (bx, ground), (x0 + 40, ground)], **ink)
    svg.text(x0 + 100, ground + 16, "1k across a piezo; 1N4148 for a magnetic one", font_size=8,
             text_anchor="middle", fill="#555")


def _table(svg, pinmap):
    columns = ((20, "signal"), (110, "GPIO"), (160, "mode"), (280, "part"), (420, "pin"), (600, "note"))
    for x, head in columns:
        svg.text(x, TABLE_Y, head, font_size=12, font_weight="bold")
    rows = []
    for s in pinmap.signals:
        mode = s["mode"] + (" (%s)" % s["drive"].replace("_", " ") if s.get("drive") else "")
        rows.append(((s["signal"], str(s["gpio"]), mode, s["part"], s["part_pin"], s["note"]),
                     colour(s["signal"], "")))
    if pinmap.rtc:
        sda, scl = pinmap.signal("i2c_sda"), pinmap.signal("i2c_scl")
        rows.append((("(optional)", "%d, %d" % (sda["gpio"], scl["gpio"]), "i2c", pinmap.rtc["part"],
                      "%s, %s" % (sda["part_pin"], scl["part_pin"]), pinmap.rtc["note"]), "#555"))
    if pinmap.amp:
        power = sorted(parts.part(pinmap.amp["part"])["power"].items())
        rows.append((("(optional)", ", ".join(pin.split(".")[0] for _, pin in power), "power", pinmap.amp["part"],
                      ", ".join(part_pin for part_pin, _ in power), pinmap.amp["note"]), "#555"))
    for row, (values, paint) in enumerate(rows):
        y = TABLE_Y + 20 * (row + 1)
        for (x, _), value in zip(columns, values):
            svg.text(x, y, value, font_size=11, fill=paint)
