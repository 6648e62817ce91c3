"""The board under test: a real one on a serial port, or a virtual board started for the run.

Both offer the same three things to the suite: the port to talk to, key presses and a hard
reset. Only the virtual board has a side channel (`sim`: power cut, serial faults, tone log,
the glass); on a real board it is None and the tests that need it are skipped.
"""
import tempfile
import time
from pathlib import Path

# Logical keys (PROTOCOL.md) -> the label printed on the 4x4 keypad; digits are their own label.
KEY_LABELS = {"ok": "#", "undo": "*", "a": "A", "b": "B", "c": "C", "menu": "D"}
PRESS_MS = 60    # a brisk finger: well over the 20 ms debounce
HOLD_MS = 900    # a long press: well over the 600 ms threshold
RELEASE_MS = 40  # the key stays up this long before the next press, so debounce sees it


def key_label(key):
    if key in KEY_LABELS or (len(key) == 1 and key.isdigit()):
        return KEY_LABELS.get(key, key)
    raise ValueError("no key %r on the keypad (logical keys: 0-9, %s)" % (key, ", ".join(KEY_LABELS)))


def flash_image(firmware: Path, image: Path) -> Path:
    """A fresh littlefs image holding `firmware` (a source tree), compiled as `croupier flash` does."""
    from croupier.build import build_firmware
    from croupier.sim import flash

    flash.create(image, build_firmware(firmware))
    return image


class VirtualTarget:
    """A fresh virtual board for the session (croupier.sim.VirtualBoard)."""

    virtual = True

    def __init__(self, heap="64k", firmware=None):
        from croupier.sim import VirtualBoard

        self._folder = tempfile.TemporaryDirectory(prefix="croupier-hil-board-")
        image = None
        if firmware:
            image = flash_image(Path(firmware), Path(self._folder.name) / "flash.img")
        self.sim = VirtualBoard(flash=image, heap=heap)
        self.sim.__enter__()
        self.url = self.sim.port
        self.firmware = Path(firmware) if firmware else None  # None: the packaged firmware
        self.description = "virtual board (heap %s%s)" % (heap, ", firmware from %s" % firmware if firmware else "")

    def press(self, device, key, hold=False):
        """An electrical press on the emulated matrix, with real timing."""
        self.sim.press(key_label(key), ms=HOLD_MS if hold else PRESS_MS)
        time.sleep(RELEASE_MS / 1000)

    def hard_reset(self, device):
        self.sim.hard_reset()

    def close(self):
        self.sim.__exit__(None, None, None)
        self._folder.cleanup()


class SerialTarget:
    """A board on a serial port (device path or pyserial URL): keys and reset over the wire."""

    virtual = False
    sim = None

    def __init__(self, url):
        self.url = url
        self.description = "board on %s" % url

    def press(self, device, key, hold=False):
        """The protocol's `key` command: handled exactly like a press on the keypad."""
        key_label(key)  # same vocabulary on both boards: a typo fails here, not on the device
        if hold:
            device.call("key", key=key, hold=True)
        else:
            device.call("key", key=key)

    def hard_reset(self, device):
        """Interrupt the firmware (Ctrl-C), then machine.reset() from the raw REPL."""
        port = device.link.port
        _send(port, b"\r\x03\x03", device)
        _read_until(port, b">>> ", device.timeout, "the REPL prompt after Ctrl-C", device)
        _send(port, b"\x01", device)
        _read_until(port, b"raw REPL; CTRL-B to exit\r\n>", device.timeout, "the raw REPL", device)
        _send(port, b"import machine\nmachine.reset()\x04", device)

    def close(self):
        pass


def _send(port, data, device):
    device.transcript.record("tx", data)
    port.write(data)
    port.flush()


def _read_until(port, marker, timeout, what, device):
    """Read until `marker` arrives (recorded in the test's transcript) or fail at the deadline."""
    seen = bytearray()
    deadline = time.monotonic() + timeout
    while marker not in seen:
        if time.monotonic() >= deadline:
            device.fail("%s within %.1f s (hard reset)" % (what, timeout), repr(bytes(seen[-200:])))
        chunk = port.read(max(1, port.in_waiting))
        if chunk:
            device.transcript.record("rx", chunk)
            seen += chunk
