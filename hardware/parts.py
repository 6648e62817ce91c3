"""The parts wired to the DevKitC: their connector pins in order and their power wiring.

pins.json says which GPIO goes to which part pin; this adds what pins.json leaves out
(power and ground), so the drawings can show every wire a maker has to solder or plug.
Board pins are named as devkitc.py names them (Wokwi names, e.g. "GND.2").
"""
from hardware.devkitc import wokwi_pin
from hardware.pinmap import PinMapError

PARTS = {
    "SSD1306 OLED": {
        "title": '0.96" SSD1306 OLED 128x64, I2C',
        # Header order of most modules; some swap VCC and GND: read the silkscreen.
        "pins": ("GND", "VCC", "SCL", "SDA"),
        "power": {"GND": "GND.2", "VCC": "3V3"},
    },
    "4x4 keypad": {
        "title": "4x4 membrane keypad",
        # Ribbon pins 1-8, left to right with the keys facing you.
        "pins": ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4"),
        "power": {},
    },
    "DS3231 RTC": {
        "title": "DS3231 clock module (optional)",
        # The I2C end of a ZS-042 module's header (its 32K and SQW pins stay unwired).
        "pins": ("SCL", "SDA", "VCC", "GND"),
        # 3V3, not 5V: the module's pull-ups on SDA/SCL go to its VCC.
        "power": {"GND": "GND.1", "VCC": "3V3"},
    },
    "MAX98357A amplifier": {
        "title": "MAX98357A I2S amp (optional)",
        # The header of the Adafruit breakout and its clones; the speaker goes on its + and -
        # terminal. GAIN and SD stay unwired: 9 dB, and on (pins.json, "amp").
        "pins": ("LRC", "BCLK", "DIN", "GAIN", "SD", "GND", "VIN"),
        # 5V, not 3V3: its full 3.2 W needs 5 V, and its 600-700 mA peaks stay off the 3V3
        # regulator that feeds the ESP32. Its logic inputs take 3.3 V levels at any supply.
        "power": {"GND": "GND.1", "VIN": "5V"},
    },
    "passive piezo buzzer": {
        "title": "buzzer driver (on perfboard)",
        "pins": ("+ (via NPN base resistor)", "V+", "GND"),
        "power": {"V+": "3V3", "GND": "GND.3"},
    },
}


def known(table, name, where):
    """table[name] for a part named in pins.json, or a PinMapError naming what lacks it."""
    try:
        return table[name]
    except KeyError:
        raise PinMapError("pins.json names a part %s does not know: %r" % (where, name)) from None


def part(name):
    return known(PARTS, name, "the drawings")


def connections(pinmap):
    """Every wire as (board pin, part, part pin, signal or None for power), in a stable order:
    the signals, the clock module's bus wires beside the OLED's, then power."""
    wires = []
    for s in pinmap.signals:
        if s["part_pin"] not in part(s["part"])["pins"]:
            raise PinMapError("%s: %r has no pin %r" % (s["signal"], s["part"], s["part_pin"]))
        wires.append((wokwi_pin(s["gpio"]), s["part"], s["part_pin"], s["signal"]))
    if pinmap.rtc:
        name = pinmap.rtc["part"]
        for signal in ("i2c_sda", "i2c_scl"):
            part_pin = pinmap.signal(signal)["part_pin"]  # SDA to SDA, as on the OLED
            if part_pin not in part(name)["pins"]:
                raise PinMapError("rtc: %r has no pin %r" % (name, part_pin))
            wires.append((wokwi_pin(pinmap.gpio(signal)), name, part_pin, signal))
    for name in pinmap.every_part():
        for part_pin, board_pin in sorted(part(name)["power"].items()):
            wires.append((board_pin, name, part_pin, None))
    return wires
