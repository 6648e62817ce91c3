"""Ask the MicroPython on a port, through its raw REPL, what `flash` needs to know first:
its version, the .mpy version it loads, and whether a Croupier journal is on its flash.

Our own short probe, not mpremote: a port where no MicroPython answers (a blank board, the
ROM bootloader) gets a clear answer within seconds instead of mpremote's long wait and
traceback.
"""
import time

from croupier.link import open_serial
from croupier.micropython_release import WANTED, supported

PROBE_TIMEOUT = 4.0  # seconds for the raw REPL to answer (a running program is interrupted first)
FIRST_BOOT_TIMEOUT = 15.0  # the same for a MicroPython just written: its first boot makes its filesystem
JOURNAL_DIR = "/journal"  # the board's journal folder (boards/esp32.py JOURNAL_DIR)
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
MARK = "CROUPIER-PROBE"
# Whatever the board is at: stop it (Ctrl-C), to the friendly REPL (Ctrl-B), soft reset (Ctrl-D):
# main.py runs. A raw-paste cut short by a killed mpremote ends at the Ctrl-C, unrun.
RESTART = b"\x03\x02\x04"
# The version as the release names it: "1.23.0", "1.29.0-preview" (py/modsys.c: a 4th item since 1.22).
_SCRIPT = """import sys, os
try:
    n = len(os.listdir(%r))
except OSError:
    n = -1
v = sys.implementation.version
print(%r, '.'.join(str(x) for x in v[:3]) + ('-' + v[3] if len(v) > 3 and v[3] else ''),
      getattr(sys.implementation, '_mpy', -1), n)
""" % (JOURNAL_DIR, MARK)


class Board:
    """What the probe learnt: `version` ("1.23.0", "1.29.0-preview"), `mpy` (sys.implementation._mpy,
    -1 when the port does not say), `journal_files` (-1: no journal folder)."""

    def __init__(self, version, mpy, journal_files):
        self.version, self.mpy, self.journal_files = version, mpy, journal_files


def _read_until(port, marker, deadline):
    seen = bytearray()
    while marker not in seen:
        if time.monotonic() >= deadline:
            return None
        seen += port.read(max(1, port.in_waiting))
    return bytes(seen)


def probe(port_name, timeout=PROBE_TIMEOUT, restart=True):
    """Board(...) from the MicroPython on `port_name`, or None when no MicroPython answers.
    With restart, the program it interrupted is started again (soft reset) before returning;
    else an answering board is left at the raw REPL, where mpremote finds it at once: a
    program just starting again may take in mpremote's Ctrl-C as it boots and lose it."""
    port = open_serial(port_name)
    try:
        deadline = time.monotonic() + timeout
        port.reset_input_buffer()
        while True:  # asked again every second: a board still booting drops what it is sent
            port.write(b"\r\x03\x03\x01")  # stop whatever runs, then the raw REPL
            if _read_until(port, RAW_PROMPT, min(deadline, time.monotonic() + 1.0)) is not None:
                break
            if time.monotonic() >= deadline:
                return None
        port.write(_SCRIPT.encode() + b"\x04")
        out = _read_until(port, b"\x04>", deadline)
        if restart or out is None:
            port.write(RESTART)
        if out is None:
            return None
        for line in out.decode("ascii", "replace").splitlines():
            words = line[line.find(MARK):].split() if MARK in line else []  # the first line follows "OK"
            if len(words) == 4:
                return Board(words[1], int(words[2]), int(words[3]))
        return None
    finally:
        port.close()


def restart(port_name):
    """Start the board's program again from the REPL a probe or mpremote left it at."""
    port = open_serial(port_name)
    try:
        port.write(RESTART)
        port.flush()
    finally:
        port.close()


def install_hint(port):
    return "flash %s with `croupier flash --port %s --micropython ESP32_GENERIC-<version>.bin`" % (WANTED, port)


def mpy_header(staging):
    """The header bytes (b"M", version, flags) of the firmware's compiled modules."""
    first = next(iter(sorted(staging.rglob("*.mpy"))), None)
    return first.read_bytes()[:3] if first else None


def cannot_load(board, staging, port):
    """Why the MicroPython on `port` (Board, or None: none answers) cannot run the firmware
    built into `staging`, in one line; None when it can."""
    if board is None:
        return "no MicroPython answers on %s (a blank board, or one in its bootloader): %s" % (port, install_hint(port))
    if not supported(board.version):
        return "the board on %s runs MicroPython %s, older than Croupier supports: %s" % (port, board.version,
                                                                                       install_hint(port))
    header = mpy_header(staging)
    if header is None:
        return None  # nothing compiled: plain .py runs anywhere
    native = header[2] >> 2  # an architecture: native code, which also needs the same sub-version
    loads = board.mpy >= 0 and board.mpy & 0xFF == header[1] and (not native or (board.mpy >> 8) & 3 == header[2] & 3)
    if not loads:
        says = ".mpy version %d.%d" % (board.mpy & 0xFF, (board.mpy >> 8) & 3) if board.mpy >= 0 else "no .mpy version"
        return ("the MicroPython %s on %s loads %s; the firmware is built as .mpy version %d: %s"
                % (board.version, port, says, header[1], install_hint(port)))
    return None
