"""hardware/wokwi/diagram.json wires the simulated parts exactly as pins.json says, read
back as a netlist (so a wire to the wrong pin or a short between two signals shows)."""
import json
import subprocess

import pytest

from hardware import devkitc, pinmap
from hardware.generate import HARDWARE_DIR

WOKWI_DIR = HARDWARE_DIR / "wokwi"
# pins.json part -> Wokwi part type; the buzzer's driven pin is its "2" (+) in Wokwi.
PART_TYPES = {"SSD1306 OLED": "board-ssd1306", "4x4 keypad": "wokwi-membrane-keypad",
              "passive piezo buzzer": "wokwi-buzzer", "DS3231 RTC": "wokwi-ds1307"}
PIN_RENAMES = {"+ (via NPN base resistor)": "2"}
NOT_IN_WOKWI = {"MAX98357A amplifier"}  # Wokwi has no I2S amplifier or speaker part


@pytest.fixture(scope="module")
def diagram():
    return json.loads((WOKWI_DIR / "diagram.json").read_text(encoding="utf-8"))


def nets(connections):
    """The connections grouped into nets: a list of sets of "part:pin"."""
    parent = {}

    def root(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b, *_ in connections:
        parent[root(a)] = root(b)
    groups = {}
    for x in list(parent):
        groups.setdefault(root(x), set()).add(x)
    return list(groups.values())


def net_of(diagram, endpoint):
    for net in nets(diagram["connections"]):
        if endpoint in net:
            return net
    return {endpoint}


def ids_by_type(diagram):
    return {p["type"]: p["id"] for p in diagram["parts"]}


def test_every_signal_reaches_its_part_pin(diagram, pins):
    board = ids_by_type(diagram)["board-esp32-devkit-c-v4"]
    parts = ids_by_type(diagram)
    for s in pins.signals:
        if s["part"] in NOT_IN_WOKWI:
            continue
        part_id = parts[PART_TYPES[s["part"]]]
        part_pin = "%s:%s" % (part_id, PIN_RENAMES.get(s["part_pin"], s["part_pin"]))
        board_pin = "%s:%s" % (board, devkitc.wokwi_pin(s["gpio"]))
        assert board_pin in net_of(diagram, part_pin), "%s should wire GPIO%d to %s" % (s["signal"], s["gpio"], part_pin)


def test_no_two_board_pins_share_a_net(diagram):
    board = ids_by_type(diagram)["board-esp32-devkit-c-v4"] + ":"
    for net in nets(diagram["connections"]):
        on_board = {p for p in net if p.startswith(board) and not p.startswith(board + "GND")}
        assert len(on_board) <= 1, "short between %s" % sorted(on_board)


def test_parts_are_powered(diagram):
    ids = ids_by_type(diagram)
    board, oled, buzzer = ids["board-esp32-devkit-c-v4"], ids["board-ssd1306"], ids["wokwi-buzzer"]
    assert board + ":3V3" in net_of(diagram, oled + ":VCC")
    for pin in (oled + ":GND", buzzer + ":1"):
        assert any(p.startswith(board + ":GND") for p in net_of(diagram, pin)), pin


def test_the_clock_module_shares_the_oleds_bus_and_is_powered(diagram, pins):
    ids = ids_by_type(diagram)
    board, oled, rtc = ids["board-esp32-devkit-c-v4"], ids["board-ssd1306"], ids["wokwi-ds1307"]
    for signal, pin in (("i2c_sda", "SDA"), ("i2c_scl", "SCL")):
        net = net_of(diagram, "%s:%s" % (rtc, pin))
        assert {"%s:%s" % (board, devkitc.wokwi_pin(pins.gpio(signal))), "%s:%s" % (oled, pin)} <= net
    assert board + ":3V3" in net_of(diagram, rtc + ":5V"), "its pull-ups must go to 3V3, not 5V"
    assert any(p.startswith(board + ":GND") for p in net_of(diagram, rtc + ":GND"))


def test_the_amplifier_is_absent_and_the_simulation_says_so(diagram, pins):
    assert pins.amp["part"] in NOT_IN_WOKWI
    board = ids_by_type(diagram)["board-esp32-devkit-c-v4"]
    for signal in pinmap.AMP_SIGNALS:
        assert net_of(diagram, "%s:%s" % (board, devkitc.wokwi_pin(pins.gpio(signal)))) == {
            "%s:%s" % (board, devkitc.wokwi_pin(pins.gpio(signal)))}, "%s is wired in Wokwi" % signal
    toml = (WOKWI_DIR / "wokwi.toml").read_text(encoding="utf-8")
    readme = (HARDWARE_DIR / "README.md").read_text(encoding="utf-8")
    for text in (toml, readme):
        assert "no MAX98357A" in text, "the simulation must say the amplifier is absent"


def test_wires_join_existing_pins(diagram):
    ids = {p["id"] for p in diagram["parts"]} | {"$serialMonitor"}
    header = {name for _, name, _ in devkitc.LEFT + devkitc.RIGHT}
    board = ids_by_type(diagram)["board-esp32-devkit-c-v4"]
    for a, b, colour, route in diagram["connections"]:
        for end in (a, b):
            part, _, pin = end.partition(":")
            assert part in ids, end
            if part == board:
                assert pin in header, end
        assert isinstance(colour, str) and isinstance(route, list)


def test_parts_carry_the_pin_map_settings(diagram, pins):
    by_type = {p["type"]: p for p in diagram["parts"]}
    assert set(PART_TYPES.values()) | {"board-esp32-devkit-c-v4"} == set(by_type)
    assert by_type["wokwi-membrane-keypad"]["attrs"]["keys"] == list(pins.key_labels)
    assert int(by_type["board-ssd1306"]["attrs"]["i2cAddress"], 16) == pins.i2c_address


def test_the_repl_reaches_the_serial_monitor(diagram):
    assert "$serialMonitor:RX" in net_of(diagram, "esp:TX")
    assert "$serialMonitor:TX" in net_of(diagram, "esp:RX")


def test_wokwi_toml_runs_micropython_with_a_serial_port():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    config = tomllib.loads((WOKWI_DIR / "wokwi.toml").read_text(encoding="utf-8"))["wokwi"]
    assert config["version"] == 1
    assert config["firmware"] == config["elf"] and config["firmware"].endswith(".bin")
    assert isinstance(config["rfc2217ServerPort"], int)
    image = WOKWI_DIR / config["firmware"]
    ignored = subprocess.run(["git", "check-ignore", "-q", str(image)], cwd=HARDWARE_DIR, timeout=10)
    assert ignored.returncode == 0, "the downloaded MicroPython image must not be committed"
    readme = (HARDWARE_DIR / "README.md").read_text(encoding="utf-8")
    assert "hardware/wokwi/" + config["firmware"] in readme
    assert "rfc2217://localhost:%d" % config["rfc2217ServerPort"] in readme
