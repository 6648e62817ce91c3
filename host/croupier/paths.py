"""Where the project's own files live, in a checkout and in an installed package."""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def firmware_dir() -> Path:
    """The firmware tree (main.py, croupier/, boards/) that goes onto the board."""
    return (PACKAGE_DIR / "firmware").resolve()


def hardware_dir() -> Path:
    """The hardware/ folder of the checkout (pin map, BOM, diagrams)."""
    return (PACKAGE_DIR.parent.parent / "hardware").resolve()
