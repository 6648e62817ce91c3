"""The Wokwi simulator diagram (hardware/wokwi/diagram.json), wired as pins.json says.

Wokwi has no transistor part, so in the simulation the buzzer hangs straight off its GPIO;
on the real board it sits behind the NPN driver of the wiring diagram. Nor has it a DS3231:
the optional clock module is its DS1307 there. Nor an I2S amplifier or a speaker (its only
sound part is the piezo buzzer): the optional MAX98357A is absent from the simulation.
"""
import json

from hardware import parts
from hardware.wiring import colour

BOARD_ID = "esp"
# pins.json part -> (Wokwi id, Wokwi type, where it sits, {part pin: Wokwi pin or None}).
# Pins missing from the map keep their name; None means "not in the simulation".
WOKWI_PARTS = {
    "SSD1306 OLED": ("oled1", "board-ssd1306", (-130, 170), {}),
    "4x4 keypad": ("keypad1", "wokwi-membrane-keypad", (-60, -400), {}),
    "passive piezo buzzer": ("bz1", "wokwi-buzzer", (170, 190), {"+ (via NPN base resistor)": "2", "GND": "1", "V+": None}),
    # Wokwi has no DS3231; its DS1307 answers at the same address with the same time
    # registers (and no OSF flag: the firmware takes its time as valid).
    "DS3231 RTC": ("rtc1", "wokwi-ds1307", (60, 330), {"VCC": "5V"}),
}
# pins.json parts Wokwi has nothing for, left out of the diagram with their wires (it has
# no I2S amplifier or speaker part).
ABSENT = frozenset({"MAX98357A amplifier"})


def attrs(part_name, pinmap):
    if part_name == "SSD1306 OLED":
        return {"i2cAddress": "0x%02x" % pinmap.i2c_address}
    if part_name == "4x4 keypad":
        return {"keys": list(pinmap.key_labels)}
    if part_name == "passive piezo buzzer":
        return {"volume": "0.1"}
    return {}


def wokwi_part(part_name):
    return parts.known(WOKWI_PARTS, part_name, "the Wokwi diagram")


def simulated(names):
    """The part names Wokwi has a part for."""
    return [name for name in names if name not in ABSENT]


def diagram(pinmap):
    """The diagram as a dict (parts in pin map order, then the wires in parts.connections order)."""
    board = {"type": "board-esp32-devkit-c-v4", "id": BOARD_ID, "top": 0, "left": 0, "attrs": {}}
    placed = [board]
    for name in simulated(pinmap.every_part()):
        part_id, kind, (top, left), _ = wokwi_part(name)
        placed.append({"type": kind, "id": part_id, "top": top, "left": left, "attrs": attrs(name, pinmap)})
    wires = [
        [BOARD_ID + ":TX", "$serialMonitor:RX", "", []],
        [BOARD_ID + ":RX", "$serialMonitor:TX", "", []],
    ]
    for board_pin, part_name, part_pin, signal in parts.connections(pinmap):
        if part_name in ABSENT:
            continue
        part_id, _, _, renames = wokwi_part(part_name)
        pin = renames.get(part_pin, part_pin)
        if pin is None:
            continue
        wires.append([BOARD_ID + ":" + board_pin, part_id + ":" + pin, colour(signal, board_pin), []])
    return {"version": 1, "author": "Croupier", "editor": "wokwi", "parts": placed, "connections": wires,
            "dependencies": {}}


def render(pinmap):
    """diagram.json text: one part or wire a line, like Wokwi writes it, so diffs stay readable."""
    d = diagram(pinmap)

    def rows(items):
        return ",\n".join("    " + json.dumps(item) for item in items)

    return (
        '{\n  "version": %d,\n  "author": %s,\n  "editor": %s,\n  "parts": [\n%s\n  ],\n'
        '  "connections": [\n%s\n  ],\n  "dependencies": {}\n}\n'
        % (d["version"], json.dumps(d["author"]), json.dumps(d["editor"]), rows(d["parts"]), rows(d["connections"]))
    )
