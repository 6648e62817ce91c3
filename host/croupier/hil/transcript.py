"""The raw serial traffic of one test: kept for the failure message and saved to a file."""
import re
import time

TAIL_LINES = 6  # how many of the board's latest lines a failure message quotes
LINE_CHARS = 240  # longer lines (a `screen` frame) are shortened in the middle


def printable(data: bytes) -> str:
    """Bytes as readable text: ASCII kept, line ends kept, anything else escaped."""
    text = data.decode("latin-1")
    return re.sub(r"[^\n\x20-\x7e]", lambda m: "\\x%02x" % ord(m.group()), text)


class Transcript:
    """Every chunk written to or read from the board, time-stamped, in order."""

    def __init__(self):
        self.start = time.monotonic()
        self.chunks = []  # (seconds since start, "tx", "rx" or "--" for a note, bytes)

    def record(self, direction, data):
        """The Link's transcript hook."""
        self.chunks.append((time.monotonic() - self.start, direction, bytes(data)))

    def note(self, text):
        """A line of our own (a key press, a reset) so the log reads like the test."""
        self.chunks.append((time.monotonic() - self.start, "--", text.encode("ascii", "replace")))

    def received(self) -> bytes:
        return b"".join(data for _, way, data in self.chunks if way == "rx")

    def tail(self) -> str:
        """The last lines the board sent (the unfinished one included), for failure messages."""
        data = self.received()
        if not data:
            return "(the board sent nothing during this test)"
        lines = data.split(b"\n")
        if not lines[-1]:
            lines.pop()
        shown = [_shorten(printable(line)) for line in lines[-TAIL_LINES:]]
        skipped = len(lines) - len(shown)
        return ("...%d earlier lines...\n" % skipped if skipped else "") + "\n".join(shown)

    def text(self) -> str:
        """Time, direction, bytes (escaped); one entry per line of traffic, timed by its first byte."""
        lines = []
        for at, way, data in self._by_line():
            pieces = printable(data).split("\n")
            shown = [piece + "\\n" for piece in pieces[:-1]] + [pieces[-1]] * bool(pieces[-1])
            lines.append("%9.3f %s %s" % (at, way, shown[0] if shown else ""))
            lines += [" " * 13 + piece for piece in shown[1:]]
        return "\n".join(lines) + "\n"

    def _by_line(self):
        """Chunks read piecemeal joined up to the end of their line, per direction."""
        joined = []
        for at, way, data in self.chunks:
            last = joined[-1] if joined else None
            if last and last[1] == way and way != "--" and not last[2].endswith(b"\n"):
                last[2] += data
            else:
                joined.append([at, way, bytearray(data)])
        return joined


def _shorten(line):
    if len(line) <= LINE_CHARS:
        return line
    half = LINE_CHARS // 2
    return "%s ...%d chars... %s" % (line[:half], len(line) - 2 * half, line[-half:])
