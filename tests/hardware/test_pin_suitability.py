"""Every pin of hardware/pins.json suits its use on an ESP32-WROOM-32, and the checker
really catches each kind of misuse."""
import json

import pytest

from hardware import esp32_pins, pinmap


def test_the_pin_map_suits_an_esp32_wroom_32(pins):
    assert pins.module == "ESP32-WROOM-32"
    assert esp32_pins.problems(pins) == []


def test_no_gpio_is_used_twice(pins):
    gpios = [s["gpio"] for s in pins.signals]
    assert len(gpios) == len(set(gpios))


def test_i2c_lines_name_their_pull_ups(pins):
    lines = [s for s in pins.signals if s["mode"] == "i2c"]
    assert {s["signal"] for s in lines} == {"i2c_sda", "i2c_scl"}
    for s in lines:
        assert "3V3" in s["pull_up"] and "k" in s["pull_up"]


def test_keypad_rows_float_when_idle(pins):
    """Two keys held in one column join two rows: rows must not fight push-pull."""
    for name in pinmap.ROW_SIGNALS:
        assert pins.signal(name)["drive"] == "open_drain"


@pytest.mark.parametrize(
    "changes, complaint",
    [
        ({"buzzer": {"gpio": 34}}, "input only"),
        ({"key_row0": {"gpio": 39}}, "input only"),
        ({"key_col0": {"gpio": 35}}, "no internal pull-up"),
        ({"key_row0": {"gpio": 7}}, "SPI flash"),
        ({"key_col2": {"gpio": 11}}, "SPI flash"),
        ({"key_row1": {"gpio": 2}}, "strapping pin"),
        ({"key_col3": {"gpio": 12}}, "strapping pin"),
        ({"i2c_sda": {"pull_up": None}}, "without a 'pull_up'"),
        ({"i2c_scl": {"pull_up": " "}}, "without a 'pull_up'"),
        ({"key_col1": {"gpio": 27}}, "already used by key_col0"),
        ({"buzzer": {"gpio": 1}}, "U0TXD"),
        ({"key_col0": {"gpio": 3}}, "U0RXD"),
        ({"buzzer": {"gpio": 20}}, "no GPIO20"),
        ({"buzzer": {"mode": "analog"}}, "unknown mode"),
        ({"i2s_sd": {"gpio": 35}}, "input only"),
        ({"i2s_sck": {"gpio": 0}}, "strapping pin"),
        ({"i2s_ws": {"gpio": 23}}, "already used by buzzer"),
    ],
)
def test_the_checker_catches_misuse(edited, changes, complaint):
    problems = esp32_pins.problems(pinmap.PinMap(edited(changes)))
    assert any(complaint in p for p in problems), problems


def test_the_amplifier_pins_are_free_on_a_wroom_32_and_not_on_a_wrover(pins, pin_data):
    required = {pins.gpio(name) for name in pinmap.REQUIRED_SIGNALS}
    amp = {pins.gpio(name) for name in pinmap.AMP_SIGNALS}
    assert len(amp) == 3 and not amp & required
    assert {s["mode"] for s in pins.signals if s["signal"] in pinmap.AMP_SIGNALS} == {"i2s"}
    pin_data["module"] = "ESP32-WROVER-E"
    problems = esp32_pins.problems(pinmap.PinMap(pin_data))
    assert problems == ["%s (GPIO%d): GPIO16-17 belong to the PSRAM of an ESP32-WROVER-E" % (s["signal"], s["gpio"])
                        for s in pins.signals if s["gpio"] in (16, 17)]


def test_a_strapping_pin_is_accepted_once_justified(edited):
    data = edited({"key_col2": {"gpio": 5, "strapping": "GPIO5 only sets SDIO timing; an idle column is high"}})
    assert esp32_pins.problems(pinmap.PinMap(data)) == []


def test_input_only_pins_are_fine_as_plain_inputs(edited):
    data = edited({"key_col0": {"gpio": 36, "mode": "in", "note": "external 10k pull-up"}})
    assert esp32_pins.problems(pinmap.PinMap(data)) == []


def _entry(data, signal):
    return next(s for s in data["signals"] if s["signal"] == signal)


def _drop(data, signal):
    data["signals"].remove(_entry(data, signal))


@pytest.mark.parametrize(
    "breakage, complaint",
    [
        (lambda d: _drop(d, "buzzer"), "lacks the signals: buzzer"),
        (lambda d: d["signals"].append(dict(d["signals"][0])), "appears twice"),
        (lambda d: d["signals"][0].update(gpio="21"), "'gpio' must be an integer"),
        (lambda d: d["signals"][0].pop("part_pin"), "'part_pin' must be a non-empty string"),
        (lambda d: d["keypad"]["labels"].pop(), "16 printed key labels"),
        (lambda d: d["keypad"]["labels"].__setitem__(0, "2"), "16 different"),
        (lambda d: d["i2c"].update(address=200), "'address' must be an integer"),
        (lambda d: d.pop("i2c"), "'i2c' must be an object"),
        (lambda d: _drop(d, "i2s_sd"), "amp: pins.json lacks the signals: i2s_sd"),
        (lambda d: _entry(d, "i2s_sd").update(part="SSD1306 OLED"), "i2s_sd goes to 'SSD1306 OLED', not to the amplifier"),
        (lambda d: d.update(amp="MAX98357A"), "'amp' must be an object"),
        (lambda d: d["amp"].pop("note"), "amp: 'note' must be a non-empty string"),
    ],
)
def test_a_malformed_pin_map_is_refused_with_a_reason(pin_data, breakage, complaint):
    breakage(pin_data)
    with pytest.raises(pinmap.PinMapError, match=complaint.replace("(", r"\(")):
        pinmap.PinMap(pin_data)


def test_an_unreadable_file_is_a_pin_map_error(tmp_path):
    bad = tmp_path / "pins.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(pinmap.PinMapError, match="cannot read pin map"):
        pinmap.load(bad)
    with pytest.raises(pinmap.PinMapError, match="cannot read pin map"):
        pinmap.load(tmp_path / "missing.json")
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(pinmap.PinMapError, match="must hold a JSON object"):
        pinmap.load(bad)


def test_rows_and_columns_come_in_keypad_order(pins):
    raw = {s["signal"]: s for s in json.loads(pinmap.PINS_JSON.read_text(encoding="utf-8"))["signals"]}
    assert pins.key_rows == tuple(raw["key_row%d" % i]["gpio"] for i in range(4))
    assert pins.key_cols == tuple(raw["key_col%d" % i]["gpio"] for i in range(4))
    assert [raw["key_row%d" % i]["part_pin"] for i in range(4)] == ["R1", "R2", "R3", "R4"]
    assert [raw["key_col%d" % i]["part_pin"] for i in range(4)] == ["C1", "C2", "C3", "C4"]
