"""hardware/pins.json, read and checked: the one pin map everything else is made from.

The firmware board module (firmware/boards/esp32.py), the virtual board, the wiring diagram,
the Wokwi diagram and the keypad overlay all take their pin numbers from this file.
"""
import json
from pathlib import Path

PINS_JSON = Path(__file__).resolve().parent / "pins.json"

ROW_SIGNALS = ("key_row0", "key_row1", "key_row2", "key_row3")
COL_SIGNALS = ("key_col0", "key_col1", "key_col2", "key_col3")
REQUIRED_SIGNALS = ("i2c_sda", "i2c_scl") + ROW_SIGNALS + COL_SIGNALS + ("buzzer",)
AMP_SIGNALS = ("i2s_sck", "i2s_ws", "i2s_sd")  # the optional amplifier's, present with it
SIGNAL_FIELDS = ("signal", "gpio", "mode", "part", "part_pin")


class PinMapError(ValueError):
    """pins.json is malformed; the message names the offending entry."""


class PinMap:
    """The parsed pin map. `signals` keeps the file's order (the drawings list them so)."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise PinMapError("pins.json must hold a JSON object, not %s" % type(data).__name__)
        self.board = _text(data, "board", "pin map")
        self.module = _text(data, "module", "pin map")
        self.signals = _signals(data)
        self._by_name = {s["signal"]: s for s in self.signals}
        missing = [name for name in REQUIRED_SIGNALS if name not in self._by_name]
        if missing:
            raise PinMapError("pins.json lacks the signals: " + ", ".join(missing))
        self.i2c_address, self.i2c_freq = _i2c(data)
        self.rtc = _rtc(data, self.i2c_address)  # the optional clock module on the bus, or None
        self.amp = _amp(data, self._by_name)  # the optional I2S amplifier, or None
        self.key_labels = _labels(data)

    def signal(self, name):
        return self._by_name[name]

    def gpio(self, name):
        return self._by_name[name]["gpio"]

    @property
    def key_rows(self):
        return tuple(self.gpio(name) for name in ROW_SIGNALS)

    @property
    def key_cols(self):
        return tuple(self.gpio(name) for name in COL_SIGNALS)

    def parts(self):
        """The parts every box has, in the order they first appear in the file (neither the
        optional clock module, which has no signal of its own, nor the optional amplifier)."""
        optional = self.amp["part"] if self.amp else None
        names = []
        for s in self.signals:
            if s["part"] not in names and s["part"] != optional:
                names.append(s["part"])
        return names

    def optional_parts(self):
        """The optional clock module and amplifier the pin map has, in that order."""
        return [entry["part"] for entry in (self.rtc, self.amp) if entry]

    def every_part(self):
        """parts(), then optional_parts()."""
        return self.parts() + self.optional_parts()

    def firmware_constants(self):
        """What firmware/boards/esp32.py must define, under the names of docs/architecture.md."""
        constants = {
            "PIN_SDA": self.gpio("i2c_sda"),
            "PIN_SCL": self.gpio("i2c_scl"),
            "KEY_ROWS": self.key_rows,
            "KEY_COLS": self.key_cols,
            "PIN_BUZZER": self.gpio("buzzer"),
            "I2C_ADDR": self.i2c_address,
            "I2C_FREQ": self.i2c_freq,
            "KEY_LABELS": self.key_labels,
        }
        if self.rtc:
            constants["RTC_ADDR"] = self.rtc["address"]
        if self.amp:
            constants.update(PIN_I2S_SCK=self.gpio("i2s_sck"), PIN_I2S_WS=self.gpio("i2s_ws"),
                             PIN_I2S_SD=self.gpio("i2s_sd"))
        return constants


def load(path=PINS_JSON):
    """Read and check a pin map file; PinMapError says what is wrong with it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise PinMapError("cannot read pin map %s: %s" % (path, exc)) from exc
    return PinMap(data)


def _text(obj, key, where):
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, str) or not value:
        raise PinMapError("%s: %r must be a non-empty string" % (where, key))
    return value


def _int(obj, key, where, low, high):
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PinMapError("%s: %r must be an integer from %d to %d, not %r" % (where, key, low, high, value))
    return value


def _signals(data):
    signals = data.get("signals")
    if not isinstance(signals, list) or not signals:
        raise PinMapError("pins.json: 'signals' must be a non-empty list")
    seen = set()
    for index, entry in enumerate(signals):
        where = "signal #%d" % index
        if not isinstance(entry, dict):
            raise PinMapError(where + " must be an object")
        for key in SIGNAL_FIELDS:
            if key == "gpio":
                _int(entry, key, where, 0, 48)
            else:
                _text(entry, key, where)
        if entry["signal"] in seen:
            raise PinMapError("signal %r appears twice" % entry["signal"])
        seen.add(entry["signal"])
    return signals


def _i2c(data):
    i2c = data.get("i2c")
    if not isinstance(i2c, dict):
        raise PinMapError("pins.json: 'i2c' must be an object with address and freq")
    return _int(i2c, "address", "i2c", 0x08, 0x77), _int(i2c, "freq", "i2c", 10000, 1000000)


def _optional(data, key, fields):
    """pins.json's optional object `key` (with `fields`), or None when it is absent."""
    entry = data.get(key)
    if entry is not None and not isinstance(entry, dict):
        raise PinMapError("pins.json: %r must be an object with %s" % (key, fields))
    return entry


def _rtc(data, oled_address):
    """The optional `rtc` entry: a clock module sharing the OLED's I2C bus, or None."""
    rtc = _optional(data, "rtc", "part and address")
    if rtc is None:
        return None
    _text(rtc, "part", "rtc")
    if _int(rtc, "address", "rtc", 0x08, 0x77) == oled_address:
        raise PinMapError("rtc: address %d is the OLED's: two parts on one bus need two addresses" % oled_address)
    return rtc


def _amp(data, by_name):
    """The optional `amp` entry: an I2S amplifier on the AMP_SIGNALS pins, or None."""
    amp = _optional(data, "amp", "part and note")
    if amp is None:
        return None
    name = _text(amp, "part", "amp")
    _text(amp, "note", "amp")
    missing = [signal for signal in AMP_SIGNALS if signal not in by_name]
    if missing:
        raise PinMapError("amp: pins.json lacks the signals: " + ", ".join(missing))
    for signal in AMP_SIGNALS:
        if by_name[signal]["part"] != name:
            raise PinMapError("amp: %s goes to %r, not to the amplifier %r" % (signal, by_name[signal]["part"], name))
    return amp


def _labels(data):
    labels = data.get("keypad", {}).get("labels") if isinstance(data.get("keypad"), dict) else None
    if not isinstance(labels, list) or len(labels) != len(ROW_SIGNALS) * len(COL_SIGNALS):
        raise PinMapError("keypad.labels must list the 16 printed key labels, row by row")
    if not all(isinstance(label, str) and label for label in labels) or len(set(labels)) != len(labels):
        raise PinMapError("keypad.labels must be 16 different non-empty strings")
    return tuple(labels)
