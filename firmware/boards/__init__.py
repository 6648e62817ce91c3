# Board selection: the firmware asks for "the board" and gets the module describing the
# hardware it runs on. Every board module exposes the same names (docs/architecture.md).
import sys


def load():
    """The board module for the interpreter we run on: the ESP32 DevKit or the virtual board."""
    if sys.platform == "esp32":
        from boards import esp32 as board
    else:
        from boards import sim as board
    return board
