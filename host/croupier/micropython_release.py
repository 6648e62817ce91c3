"""Which ESP32 MicroPython releases the firmware runs on, and whether a version text is one.

`croupier flash` refuses a board, or a MicroPython image, older than OLDEST; the firmware makes
the same check at boot (sys.implementation.version).
"""
import re

# The oldest release the firmware supports (it imports `vfs`, a module since 1.23); every
# later one up to 1.28 is supported too.
OLDEST = (1, 23)
DOWNLOAD = "https://micropython.org/download/ESP32_GENERIC/"
WANTED = "ESP32_GENERIC %d.%d or newer from %s" % (OLDEST + (DOWNLOAD,))

_NUMBERS = re.compile(r"(\d+)\.(\d+)")


def supported(version):
    """Is `version` ("1.23.0", "1.29.0-preview.12.gabc") OLDEST or later? A pre-release counts
    by its numbers; a text that starts with none is not supported."""
    match = _NUMBERS.match(version)
    return bool(match) and (int(match.group(1)), int(match.group(2))) >= OLDEST
