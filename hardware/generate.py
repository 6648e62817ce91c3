"""Make every drawing from hardware/pins.json, or check that the committed ones are current.

    python -m hardware.generate           rewrite wiring.svg, keypad-overlay.svg, wokwi/diagram.json
    python -m hardware.generate --check   exit 1 if any of them differs from what the pin map gives

A pin map whose pins do not suit an ESP32-WROOM-32 is refused (see esp32_pins.py).
"""
import argparse
import sys
from pathlib import Path

from hardware import esp32_pins, overlay, pinmap, wiring, wokwi

HARDWARE_DIR = Path(__file__).resolve().parent
RENDERERS = (
    ("wiring.svg", wiring.render),
    ("keypad-overlay.svg", overlay.render),
    ("wokwi/diagram.json", wokwi.render),
)


def outputs(pins):
    """{path relative to hardware/: file text} for a checked pin map."""
    problems = esp32_pins.problems(pins)
    if problems:
        raise pinmap.PinMapError("pins unfit for an %s:\n  " % pins.module + "\n  ".join(problems))
    return {name: render(pins) for name, render in RENDERERS}


def stale(pins, folder=HARDWARE_DIR):
    """The generated files under `folder` that are missing or differ from the pin map's."""
    found = []
    for name, text in sorted(outputs(pins).items()):
        path = Path(folder) / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            found.append(name)
    return found


def write(pins, folder=HARDWARE_DIR):
    for name, text in sorted(outputs(pins).items()):
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hardware.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when a file is out of date")
    parser.add_argument("--pins", default=str(pinmap.PINS_JSON), help="pin map to read (default: hardware/pins.json)")
    parser.add_argument("--out", default=str(HARDWARE_DIR), help="folder to write into or check (default: hardware/)")
    args = parser.parse_args(argv)
    try:
        pins = pinmap.load(args.pins)
        if args.check:
            names = stale(pins, args.out)
            for name in names:
                print("out of date: %s (run python -m hardware.generate)" % name, file=sys.stderr)
            return 1 if names else 0
        write(pins, args.out)
    except pinmap.PinMapError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
