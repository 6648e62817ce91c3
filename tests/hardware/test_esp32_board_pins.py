"""firmware/boards/esp32.py uses exactly the pins of hardware/pins.json (read with ast:
the module imports `micropython`, which CPython lacks)."""
import pytest

from hardware import board_module


def test_the_esp32_board_module_matches_the_pin_map(pins):
    if not board_module.ESP32_BOARD.is_file():
        pytest.fail("firmware/boards/esp32.py does not exist yet: it must define %s as in hardware/pins.json"
                    % ", ".join(sorted(pins.firmware_constants())))
    assert board_module.mismatches(pins.firmware_constants()) == []


def test_the_expected_constants_are_the_contract_names(pins):
    assert sorted(pins.firmware_constants()) == sorted(
        ["PIN_SDA", "PIN_SCL", "KEY_ROWS", "KEY_COLS", "PIN_BUZZER", "I2C_ADDR", "I2C_FREQ", "RTC_ADDR",
         "KEY_LABELS"])
    assert pins.firmware_constants()["RTC_ADDR"] == 0x68
    constants = pins.firmware_constants()
    assert constants["KEY_ROWS"] == pins.key_rows and constants["KEY_LABELS"] == pins.key_labels
    assert constants["PIN_SDA"] == pins.signal("i2c_sda")["gpio"]


def test_the_reader_understands_const_and_lists(tmp_path):
    module = tmp_path / "board.py"
    module.write_text(
        "from micropython import const\n"
        "PIN_SDA = const(0x15)\n"
        "KEY_ROWS = [32, 33]\n"
        "KEY_LABELS = ('1', '2')\n"
        "PIN_SCL = compute()\n"
        "def f():\n    PIN_BUZZER = 1\n",
        encoding="utf-8")
    assert board_module.constants(module) == {"PIN_SDA": 21, "KEY_ROWS": (32, 33), "KEY_LABELS": ("1", "2")}


def test_the_reader_reports_wrong_and_missing_pins(tmp_path):
    module = tmp_path / "board.py"
    module.write_text("PIN_SDA = 22\nKEY_ROWS = (32, 33, 25, 26)\n", encoding="utf-8")
    found = board_module.mismatches({"PIN_SDA": 21, "KEY_ROWS": (32, 33, 25, 26), "PIN_SCL": 22}, module)
    assert found == ["PIN_SDA = 22, but pins.json says 21", "PIN_SCL is missing (pins.json says 22)"]
