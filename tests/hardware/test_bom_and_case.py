"""The bill of materials is complete and well-formed, the guide quotes its totals, and the
optional case still renders in OpenSCAD."""
import csv
import shutil
import subprocess

import pytest

from hardware.generate import HARDWARE_DIR

COLUMNS = ["ref", "part", "description", "qty", "unit_price_usd", "optional", "alternatives", "notes"]


@pytest.fixture(scope="module")
def bom():
    with open(HARDWARE_DIR / "bom.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def test_rows_are_well_formed(bom):
    refs = [row["ref"] for row in bom]
    assert len(refs) == len(set(refs)), "duplicate reference designators"
    for row in bom:
        assert row["description"], row["ref"]
        assert int(row["qty"]) > 0, row["ref"]
        assert float(row["unit_price_usd"]) > 0, row["ref"]
        assert row["optional"] in ("yes", "no"), row["ref"]


def test_every_part_of_the_pin_map_is_listed_and_not_optional(bom, pins):
    required = {row["part"] for row in bom if row["optional"] == "no"}
    assert pins.board in required
    for part in pins.parts():
        assert part in required, part


def test_the_optional_clock_module_is_listed_as_optional(bom, pins):
    rows = [row for row in bom if row["part"] == pins.rtc["part"]]
    assert len(rows) == 1 and rows[0]["optional"] == "yes"
    assert "0x%02x" % pins.rtc["address"] in rows[0]["description"]


def test_the_optional_amplifier_and_its_speaker_are_listed_as_optional(bom, pins):
    amp = [row for row in bom if row["part"] == pins.amp["part"]]
    assert len(amp) == 1 and amp[0]["optional"] == "yes"
    assert "VIN from 5V" in amp[0]["notes"]
    speaker = [row for row in bom if row["part"] == "speaker"]
    assert len(speaker) == 1 and speaker[0]["optional"] == "yes"
    assert "4-8 Ohm, 2-3 W" in speaker[0]["description"]


def test_the_listed_extras_are_there(bom):
    text = " ".join(row["description"] for row in bom).lower()
    for item in ("npn", "resistor", "jumper", "header", "lipo", "charger"):
        assert item in text, item


def test_the_guide_quotes_the_bom_totals(bom):
    def total(rows):
        return round(sum(int(r["qty"]) * float(r["unit_price_usd"]) for r in rows))

    readme = (HARDWARE_DIR / "README.md").read_text(encoding="utf-8")
    assert "**about $%d** of common parts" % total(r for r in bom if r["optional"] == "no") in readme
    assert "**about $%d** with the battery" % total(bom) in readme


@pytest.mark.skipif(shutil.which("openscad") is None, reason="OpenSCAD is not installed (the case is optional)")
@pytest.mark.parametrize("part", ["tray", "lid"])
def test_the_case_renders_to_a_clean_solid(part, tmp_path):
    out = tmp_path / (part + ".stl")
    run = subprocess.run(["openscad", "-D", 'part="%s"' % part, "-D", "$fn=16", "-o", str(out),
                          str(HARDWARE_DIR / "enclosure.scad")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    assert out.stat().st_size > 10000
