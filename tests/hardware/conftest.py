"""Hardware tests: the pin map and what is generated from it. Pure CPython, no board."""
import copy
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from hardware import pinmap  # noqa: E402


@pytest.fixture
def pins():
    return pinmap.load()


@pytest.fixture
def pin_data():
    """A fresh, editable copy of pins.json's content."""
    return copy.deepcopy(json.loads(pinmap.PINS_JSON.read_text(encoding="utf-8")))


@pytest.fixture
def edited(pin_data):
    """edited({"buzzer": {"gpio": 19}}) -> the raw pin map with those signal fields changed
    (a value of None removes the field)."""

    def edit(changes):
        for entry in pin_data["signals"]:
            for key, value in changes.get(entry["signal"], {}).items():
                if value is None:
                    entry.pop(key, None)
                else:
                    entry[key] = value
        return pin_data

    return edit
