# The virtual board: the MicroPython unix port with the emulated machine module of
# host/croupier/sim. It is wired exactly like the ESP32 DevKit, so it takes the same pins and
# part factories; only its NAME and its console's read differ.
from _sim_stdio import console_read  # noqa: F401 (the board contract; the console is emulated)
from boards.esp32 import (  # noqa: F401 (re-exported: the board contract)
    PIN_SDA, PIN_SCL, KEY_ROWS, KEY_COLS, PIN_BUZZER, I2C_ADDR, I2C_FREQ, RTC_ADDR, KEY_LABELS,
    JOURNAL_DIR, i2c, display, rtc, keypad, buzzer, unique_id)

NAME = "sim"

