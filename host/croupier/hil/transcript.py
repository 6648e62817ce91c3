"""The raw serial traffic of one test: kept for the failure message and saved to a file."""
import re
import time

TAIL_BYTES = 400  # how much of the device's latest output a failure message quotes


def printable(data: bytes) -> str:
    """Bytes as readable text: ASCII kept, line ends kept, anything else escaped."""
    text = data.decode("latin-1")
    return re.sub(r"[^\n\x20-\x7e]", lambda m: "\\x%02x" % ord(m.group()), text)


class Transcript:
    """Every chunk written to or read from the board, time-stamped, in order."""

    def __init__(self):
        self.start = time.monotonic()
        self.chunks = []  # (seconds since start, "tx" or "rx", bytes)
        self.notes = []

    def record(self, direction, data):
        """The Link's transcript hook."""
        self.chunks.append((time.monotonic() - self.start, direction, bytes(data)))

    def note(self, text):
        """A line of our own (a key press, a reset) so the log reads like the test."""
        self.chunks.append((time.monotonic() - self.start, "--", text.encode("ascii", "replace")))

    def received(self) -> bytes:
        return b"".join(data for _, way, data in self.chunks if way == "rx")

    def tail(self, size=TAIL_BYTES) -> str:
        """The last bytes the board sent, for failure messages."""
        data = self.received()
        if not data:
            return "(the board sent nothing during this test)"
        cut = data[-size:]
        prefix = "...%d earlier bytes...\n" % (len(data) - len(cut)) if len(cut) < len(data) else ""
        return prefix + printable(cut)

    def text(self) -> str:
        """One line per chunk: time, direction, bytes (escaped)."""
        lines = []
        for at, way, data in self.chunks:
            lines.append("%9.3f %s %s" % (at, way, printable(data).replace("\n", "\\n")))
        return "\n".join(lines) + "\n"
