"""The ESP32-DevKitC V4 board: its two pin headers, top (antenna end) to bottom (USB end).

Each entry is (printed label, Wokwi pin name, GPIO number or None for power pins). The
Wokwi names are those of the `board-esp32-devkit-c-v4` part (its three GND pins are
GND.1, GND.2, GND.3).
"""

LEFT = (
    ("3V3", "3V3", None), ("EN", "EN", None), ("VP", "VP", 36), ("VN", "VN", 39),
    ("34", "34", 34), ("35", "35", 35), ("32", "32", 32), ("33", "33", 33),
    ("25", "25", 25), ("26", "26", 26), ("27", "27", 27), ("14", "14", 14),
    ("12", "12", 12), ("GND", "GND.1", None), ("13", "13", 13), ("SD2", "D2", 9),
    ("SD3", "D3", 10), ("CMD", "CMD", 11), ("5V", "5V", None),
)
RIGHT = (
    ("GND", "GND.2", None), ("23", "23", 23), ("22", "22", 22), ("TX", "TX", 1),
    ("RX", "RX", 3), ("21", "21", 21), ("GND", "GND.3", None), ("19", "19", 19),
    ("18", "18", 18), ("5", "5", 5), ("17", "17", 17), ("16", "16", 16),
    ("4", "4", 4), ("0", "0", 0), ("2", "2", 2), ("15", "15", 15),
    ("SD1", "D1", 8), ("SD0", "D0", 7), ("CLK", "CLK", 6),
)

# Board outline in millimetres (PCB only; the antenna end overhangs nothing).
LENGTH_MM = 54.4
WIDTH_MM = 27.9


def header_position(wokwi_name):
    """(side, index from the top) of a header pin, by its Wokwi name."""
    for side, header in (("left", LEFT), ("right", RIGHT)):
        for index, (_, name, _) in enumerate(header):
            if name == wokwi_name:
                return side, index
    raise KeyError("no DevKitC header pin named %r" % wokwi_name)


def wokwi_pin(gpio):
    """The Wokwi pin name of a GPIO broken out on the headers."""
    for _, name, number in LEFT + RIGHT:
        if number == gpio:
            return name
    raise KeyError("GPIO%d is not on the DevKitC headers" % gpio)
