"""Which ESP32 MicroPython releases the firmware runs on, whether a version text is one, and
the numbers of a version text (release(), for Croupier's own versions too).

`croupier flash` refuses a board, or a MicroPython image, older than OLDEST; the firmware makes
the same check at boot (sys.implementation.version).
"""
import re

# The oldest release the firmware supports (it imports `vfs`, a module since 1.23); every
# later one up to 1.28 is supported too.
OLDEST = (1, 23)
DOWNLOAD = "https://micropython.org/download/ESP32_GENERIC/"
WANTED = "ESP32_GENERIC %d.%d or newer from %s" % (OLDEST + (DOWNLOAD,))

_NUMBERS = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def release(version):
    """(major, minor, patch) of a version text ("1.23.0", "1.29.0-preview.12.gabc", Croupier's
    "0.2.0-dev"; no patch counts as 0), or None for a text that starts with no numbers, or no text."""
    match = _NUMBERS.match(version) if isinstance(version, str) else None
    return tuple(int(part or 0) for part in match.groups()) if match else None


def supported(version):
    """Is `version` ("1.23.0", "1.29.0-preview.12.gabc") OLDEST or later? A pre-release counts
    by its numbers; a text that starts with none is not supported."""
    numbers = release(version)
    return numbers is not None and numbers[:2] >= OLDEST
