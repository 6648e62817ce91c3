# The virtual board: the MicroPython unix port with the emulated machine module of
# host/croupier/sim. It is wired exactly like the ESP32 DevKit, so it takes the same pins and
# part factories; only its NAME differs.
from boards.esp32 import (  # noqa: F401 (re-exported: the board contract)
    PIN_SDA, PIN_SCL, KEY_ROWS, KEY_COLS, PIN_BUZZER, I2C_ADDR, I2C_FREQ, RTC_ADDR, KEY_LABELS,
    PIN_I2S_SCK, PIN_I2S_WS, PIN_I2S_SD, JOURNAL_DIR, SETTINGS, VOICE_DIR, i2c, display, rtc,
    keypad, buzzer, i2s, speaker, unique_id)

NAME = "sim"
