"""The box's settings kept across power-offs: voice on or off, its language, its volume.

One small file of canonical JSON, written whole to a temporary name and renamed over the
old one: littlefs commits a file at close and a rename atomically, so a power cut leaves
the old settings or the new ones, never half of each. A missing or damaged file, or a
value out of range, gives the default of that setting.
"""
import json
import os

from croupier.rules import canon

LANGS = ("fr", "en")  # the first is the default
VOLUMES = (1, 2, 3)  # quiet .. loud
DEFAULTS = {"voice": True, "lang": "fr", "volume": 2}
_CHOICES = {"voice": (True, False), "lang": LANGS, "volume": VOLUMES}


def load(path):
    """The settings stored at path, each missing or bad one at its default (a fresh dict)."""
    found = {}
    try:
        with open(path) as f:
            found = json.load(f)
    except (OSError, ValueError):
        pass
    if not isinstance(found, dict):
        found = {}
    values = {}
    for name in DEFAULTS:
        value = found.get(name)
        values[name] = value if _valid(name, value) else DEFAULTS[name]
    return values


def _valid(name, value):
    # type too: 1 == True, and a volume of True is no volume
    return type(value) is type(DEFAULTS[name]) and value in _CHOICES[name]


def save(path, values):
    """Store values (every setting, each one of its choices: ValueError else, nothing
    written). OSError when the flash refuses, the old settings kept."""
    for name in DEFAULTS:
        if not _valid(name, values.get(name)):
            raise ValueError("bad setting %s: %r" % (name, values.get(name)))
    with open(path + ".tmp", "w") as f:
        canon.dump(values, f.write)
    os.rename(path + ".tmp", path)


def cycled(values, name):
    """values with setting name moved on to its next choice (a fresh dict)."""
    choices = _CHOICES[name]
    changed = dict(values)
    changed[name] = choices[(choices.index(values[name]) + 1) % len(choices)]
    return changed
