"""The committed drawings are exactly what hardware/pins.json gives today, and they follow
the pin map when it changes."""
import json
import xml.etree.ElementTree as ET

import pytest

from hardware import generate, pinmap, wiring

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg_text):
    return [el.text for el in ET.fromstring(svg_text.encode()).iter(SVG + "text")]


def dashes(svg_text):
    """{wire colour: its stroke-dasharray, or None for a solid wire}"""
    return {el.get("stroke"): el.get("stroke-dasharray") for el in ET.fromstring(svg_text.encode()).iter(SVG + "polyline")}


def test_committed_files_are_current(pins):
    for name, text in generate.outputs(pins).items():
        committed = (generate.HARDWARE_DIR / name).read_text(encoding="utf-8")
        assert committed == text, "hardware/%s is stale: run python -m hardware.generate" % name


def test_generation_is_deterministic(pins):
    assert generate.outputs(pins) == generate.outputs(pinmap.load())


def test_check_mode_spots_a_stale_file(tmp_path, capsys):
    assert generate.main(["--out", str(tmp_path)]) == 0
    assert generate.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "wiring.svg").write_text("old", encoding="utf-8")
    (tmp_path / "wokwi" / "diagram.json").unlink()
    assert generate.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "out of date: wiring.svg" in err and "out of date: wokwi/diagram.json" in err
    assert "keypad-overlay.svg" not in err


def test_a_moved_pin_moves_in_every_drawing(edited, tmp_path):
    pins = pinmap.PinMap(edited({"buzzer": {"gpio": 16}}))
    out = generate.outputs(pins)
    assert "GPIO16" in texts(out["wiring.svg"]) and "GPIO23" not in texts(out["wiring.svg"])
    assert '"esp:16", "bz1:2"' in out["wokwi/diagram.json"]
    assert generate.stale(pins) == ["wiring.svg", "wokwi/diagram.json"]


def test_the_wiring_shows_every_signal(pins):
    shown = texts(generate.outputs(pins)["wiring.svg"])
    for s in pins.signals:
        assert "GPIO%d" % s["gpio"] in shown
        assert s["signal"] in shown and s["note"] in shown
    assert "0x%02X" % pins.i2c_address in " ".join(shown)


def test_the_optional_clock_module_follows_the_pin_map(pins, pin_data, edited):
    shown = texts(generate.outputs(pins)["wiring.svg"])
    assert "DS3231 clock module (optional)" in shown and pins.rtc["note"] in shown
    assert shown.count("GPIO21") == 2 and shown.count("GPIO22") == 2, "the OLED's and the clock's"
    moved = generate.outputs(pinmap.PinMap(edited({"i2c_sda": {"gpio": 16}})))["wokwi/diagram.json"]
    assert '"esp:16", "oled1:SDA"' in moved and '"esp:16", "rtc1:SDA"' in moved
    del pin_data["rtc"]
    without = generate.outputs(pinmap.PinMap(pin_data))
    assert "rtc1" not in without["wokwi/diagram.json"]
    assert "DS3231 clock module (optional)" not in texts(without["wiring.svg"])


def test_the_optional_amplifier_follows_the_pin_map(pins, pin_data, edited):
    out = generate.outputs(pins)
    shown = texts(out["wiring.svg"])
    assert "MAX98357A I2S amp (optional)" in shown and pins.amp["note"] in shown
    for signal in pinmap.AMP_SIGNALS:
        assert shown.count("GPIO%d" % pins.gpio(signal)) == 1, signal
    wires = dashes(out["wiring.svg"])
    assert all(wires[wiring.COLOURS[name]] for name in pinmap.AMP_SIGNALS + ("5V",)), "optional wires are dashed"
    moved = pinmap.PinMap(edited({"i2s_ws": {"gpio": 16}}))
    assert "GPIO16" in texts(generate.outputs(moved)["wiring.svg"])
    assert generate.stale(moved) == ["wiring.svg"], "the amplifier is not in the Wokwi diagram"
    del pin_data["amp"]
    pin_data["signals"] = [s for s in pin_data["signals"] if s["signal"] not in pinmap.AMP_SIGNALS]
    without = generate.outputs(pinmap.PinMap(pin_data))
    assert "MAX98357A I2S amp (optional)" not in texts(without["wiring.svg"])
    assert wiring.COLOURS["5V"] not in dashes(without["wiring.svg"]), "nothing else takes 5V"
    assert without["wokwi/diagram.json"] == out["wokwi/diagram.json"]


def test_a_clock_module_at_the_oleds_address_is_refused(pin_data):
    pin_data["rtc"]["address"] = pin_data["i2c"]["address"]
    with pytest.raises(pinmap.PinMapError, match="two parts on one bus need two addresses"):
        pinmap.PinMap(pin_data)


def test_the_overlay_prints_each_label_with_its_meaning(pins):
    shown = texts(generate.outputs(pins)["keypad-overlay.svg"])
    for label in pins.key_labels:
        assert label in shown
    for meaning in ("OK", "UNDO", "held: REDO", "MENU"):
        assert meaning in shown
    assert shown.count("soft") == 3


def test_the_overlay_follows_the_label_order(pin_data):
    labels = pin_data["keypad"]["labels"]
    labels[0], labels[15] = labels[15], labels[0]
    shown = texts(generate.outputs(pinmap.PinMap(pin_data))["keypad-overlay.svg"])
    keys = [t for t in shown if t in labels][:16]  # the keys come first, the legend after
    assert keys == labels


def test_an_unfit_pin_map_is_refused_and_nothing_written(edited, tmp_path, capsys):
    bad = tmp_path / "pins.json"
    bad.write_text(json.dumps(edited({"buzzer": {"gpio": 36}})), encoding="utf-8")
    out = tmp_path / "out"
    assert generate.main(["--pins", str(bad), "--out", str(out)]) == 2
    assert "input only" in capsys.readouterr().err
    assert not out.exists()


def test_an_unknown_part_is_a_clear_error(edited):
    with pytest.raises(pinmap.PinMapError, match="does not know: 'LED'"):
        generate.outputs(pinmap.PinMap(edited({"buzzer": {"part": "LED"}})))


def test_an_unknown_part_pin_is_a_clear_error(edited):
    with pytest.raises(pinmap.PinMapError, match="has no pin 'R9'"):
        generate.outputs(pinmap.PinMap(edited({"key_row0": {"part_pin": "R9"}})))
