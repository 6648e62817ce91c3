"""The board under test: a real one on a serial port, or a virtual board started for the run.

Both offer the same three things to the suite: the port to talk to, key presses and a hard
reset. Only the virtual board has a side channel (`sim`: power cut, serial faults, tone log,
the glass); on a real board it is None and the tests that need it are skipped.
"""
import time
from pathlib import Path

HOLD_MS = 900  # a long press: well over the firmware's 600 ms threshold
PRESSES = 3  # at pace: a key the keypad never registered is pressed again, at most this often
REGISTERED_WITHIN_S = 3.0  # at pace: how long a press may take to be registered (the board busy)


class VirtualTarget:
    """A fresh virtual board for the session (croupier.sim.VirtualBoard)."""

    virtual = True

    def __init__(self, heap=None, firmware=None, pace=None):
        from croupier.build import build_firmware
        from croupier.sim import VirtualBoard

        self.firmware = Path(firmware) if firmware else None  # None: the packaged firmware
        staged = build_firmware(self.firmware) if self.firmware else True  # compiled as `croupier flash` does
        self.sim = VirtualBoard(heap=heap, firmware=staged, pace=pace)
        self.sim.start()
        self.url = self.sim.port
        self.description = "virtual board (heap %d KB%s%s)" % (self.sim.heap // 1024, ", pace %s" % self.sim.pace.name if self.sim.pace else "",
                                                               ", firmware from %s" % firmware if firmware else "")

    def press(self, device, key, hold=False):
        """An electrical press on the emulated matrix, with real timing (logical key names).
        At the chip's pace a press that comes and goes while the firmware is busy (a frame, a
        journal write) is never scanned, as on a real box: like a player watching it, the
        next key then waits until the keypad has registered this one (`hello`'s keys), and a
        press it did not register is made again."""
        counts = device.hello().get("keys") if self.sim.pace else None
        for _ in range(PRESSES if counts else 1):
            if hold:
                self.sim.press(key, ms=HOLD_MS)
            else:
                self.sim.press(key)
            if counts is None:
                return
            deadline = time.monotonic() + REGISTERED_WITHIN_S
            while time.monotonic() < deadline:
                if device.hello()["keys"]["registered"] > counts["registered"]:
                    return
                time.sleep(0.1)

    def hard_reset(self, device):
        self.sim.hard_reset()

    def close(self):
        self.sim.close()


class SerialTarget:
    """A board on a serial port (device path or pyserial URL): keys and reset over the wire."""

    virtual = False
    sim = None

    def __init__(self, url):
        self.url = url
        self.description = "board on %s" % url

    def press(self, device, key, hold=False):
        """The protocol's `key` command: handled exactly like a press on the keypad."""
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
        _read_until(port, b"OK", device.timeout, "the raw REPL's OK", device)  # so the boot event starts a line

    def close(self):
        pass


def _send(port, data, device):
    device.transcript.record("tx", data)
    port.write(data)
    port.flush()


def _read_until(port, marker, timeout, what, device):
    """Read until `marker` arrives (recorded in the test's transcript) or fail at the deadline.
    One byte at a time: what follows the marker stays for the protocol link."""
    seen = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while marker not in seen:
            if time.monotonic() >= deadline:
                device.fail("%s within %.1f s (hard reset)" % (what, timeout), repr(bytes(seen[-200:])))
            seen += port.read(1)
    finally:
        device.transcript.record("rx", seen)
