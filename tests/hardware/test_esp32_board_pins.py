"""firmware/boards/esp32.py uses exactly the pins of hardware/pins.json (read with ast:
the module imports `micropython`, which CPython lacks)."""
import ast

import pytest

from hardware import board_module, pinmap


def test_the_esp32_board_module_matches_the_pin_map(pins):
    if not board_module.ESP32_BOARD.is_file():
        pytest.fail("firmware/boards/esp32.py does not exist yet: it must define %s as in hardware/pins.json"
                    % ", ".join(sorted(pins.firmware_constants())))
    assert board_module.mismatches(pins.firmware_constants()) == []


def test_the_expected_constants_are_the_contract_names(pins):
    assert sorted(pins.firmware_constants()) == sorted(
        ["PIN_SDA", "PIN_SCL", "KEY_ROWS", "KEY_COLS", "PIN_BUZZER", "I2C_ADDR", "I2C_FREQ", "RTC_ADDR",
         "KEY_LABELS", "PIN_I2S_SCK", "PIN_I2S_WS", "PIN_I2S_SD"])
    assert pins.firmware_constants()["RTC_ADDR"] == 0x68
    constants = pins.firmware_constants()
    assert constants["KEY_ROWS"] == pins.key_rows and constants["KEY_LABELS"] == pins.key_labels
    assert constants["PIN_SDA"] == pins.signal("i2c_sda")["gpio"]
    assert (constants["PIN_I2S_SCK"], constants["PIN_I2S_WS"], constants["PIN_I2S_SD"]) == (
        pins.gpio("i2s_sck"), pins.gpio("i2s_ws"), pins.gpio("i2s_sd"))


def test_a_moved_i2s_pin_is_a_mismatch(edited):
    moved = pinmap.PinMap(edited({"i2s_ws": {"gpio": 16}})).firmware_constants()
    assert board_module.mismatches(moved) == ["PIN_I2S_WS = 17, but pins.json says 16"]


def test_without_the_amplifier_the_board_needs_no_i2s_pins(pin_data):
    del pin_data["amp"]
    pin_data["signals"] = [s for s in pin_data["signals"] if s["signal"] not in pinmap.AMP_SIGNALS]
    constants = pinmap.PinMap(pin_data).firmware_constants()
    assert not [name for name in constants if "I2S" in name]
    assert board_module.mismatches(constants) == []


def test_the_virtual_board_re_exports_every_pin(pins):
    sim = ast.parse(board_module.ESP32_BOARD.with_name("sim.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in sim.body if isinstance(node, ast.ImportFrom) and node.module == "boards.esp32"
                for alias in node.names}
    assert sorted(set(pins.firmware_constants()) - imported) == []


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
