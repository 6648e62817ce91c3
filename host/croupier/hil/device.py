"""The board under test as a test sees it: the protocol client plus waits that explain failures.

Every request and every wait has a deadline. When one is missed, or the board answers
something else than the test expects, the failure says what was expected, what the board
said, and quotes the last bytes it sent.
"""
import time

from croupier.link import DeviceError, Link, LinkTimeout, open_serial
from croupier.plural import count
from croupier.hil.transcript import Transcript

SPLASH_MS = 1500  # the firmware's splash (1.2 s from boot) is over by then


class Device:
    """The protocol link to the board (croupier.link.Link), recorded into `transcript`."""

    def __init__(self, board, timeout, boot_timeout):
        self.board = board
        self.timeout = timeout
        self.boot_timeout = boot_timeout
        self.transcript = Transcript()
        self.link = Link(open_serial(board.url), transcript=self._record, timeout=timeout)

    def _record(self, direction, data):
        self.transcript.record(direction, data)  # looked up per call: each test gets its own

    def close(self):
        self.link.port.close()

    def fail(self, expected, said):
        """Stop the test: what it expected, what the board said, the board's last bytes."""
        raise AssertionError("expected %s\nthe board said: %s\nlast bytes received:\n%s"
                             % (expected, said, self.transcript.tail()))

    # -- requests --------------------------------------------------------------------
    def call(self, cmd, timeout=None, **args):
        """The `ok` answer to a request; anything else fails the test with the device's words."""
        try:
            return self.link.call(cmd, timeout=timeout, **args)
        except DeviceError as exc:
            self.fail("%s %s to be accepted" % (cmd, _args(args)), "%s: %s" % (exc.error, exc.message))
        except LinkTimeout as exc:
            self.fail("an answer to %s %s" % (cmd, _args(args)), "nothing (%s)" % exc)

    def refuse(self, code, cmd, **args):
        """Send a request the device must refuse with error `code`; return its message."""
        try:
            answer = self.link.call(cmd, retries=0, **args)
        except DeviceError as exc:
            if exc.error != code:
                self.fail("%s %s refused with %r" % (cmd, _args(args), code), "%s: %s" % (exc.error, exc.message))
            return exc.message
        except LinkTimeout as exc:
            self.fail("%s %s refused with %r" % (cmd, _args(args), code), "nothing (%s)" % exc)
        self.fail("%s %s refused with %r" % (cmd, _args(args), code), "ok %r" % answer)

    def hello(self):
        return self.call("hello")

    def state(self):
        return self.call("state")["state"]

    def new(self, game, players, **options):
        args = {"game": game, "players": list(players)}
        if options:
            args["options"] = options
        return self.call("new", **args)["state"]

    def play(self, *cards):
        """Play cards over the link; the last answer ({state, effects})."""
        answer = None
        for card in cards:
            answer = self.call("play", card=card)
        return answer

    def journal(self, start=0):
        """Every journal record from seq `start` on, fetched page by page with `log`."""
        records = []
        while True:
            page = self.call("log", **{"from": start, "max": 32})["records"]
            if not page:
                return records
            records += page
            start = page[-1][0] + 1

    # -- raw frames, for conformance tests ------------------------------------------------
    def send_raw(self, data: bytes, reply=None):
        """Write bytes as they are, within the link's window; reply: what the board answers
        them with (croupier.link.Link.write_raw): None, the line's request id, or NULL_ID."""
        self.link.write_raw(data, reply)

    def next_frame(self, what, timeout=None):
        """The next frame the board sends (answer or event); fail naming `what` at the deadline."""
        timeout = self.timeout if timeout is None else timeout
        frame = self.link.next_message(time.monotonic() + timeout)
        if frame is None:
            self.fail("%s within %.1f s" % (what, timeout), "nothing")
        return frame

    # -- events ----------------------------------------------------------------------------
    def quiet(self):
        """Forget events received so far, so the next wait sees only what the test causes."""
        self.link.poll(0.02)
        self.link.events.clear()

    def wait_event(self, name, expected, timeout=None, where=None):
        """The next `name` event (that `where(event)` accepts); `expected` says what should cause it."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                event = self.link.wait_event(name, timeout=max(0.0, deadline - time.monotonic()))
            except LinkTimeout:
                others = ", ".join(sorted(set(ev.get("ev", "?") for ev in self.link.events))) or "none"
                self.fail("a %r event within %.1f s (%s)" % (name, timeout, expected),
                          "%s %s; other events: %s" % (count(len(seen), "other %r event" % name), _short(seen), others))
            if where is None or where(event):
                return event
            seen.append(event)

    def until(self, expected, probe, said, timeout=None):
        """Poll probe() until it returns something true (returned); at the deadline fail with
        `expected` and said() (what the board shows instead)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            result = probe()
            if result:
                return result
            if time.monotonic() > deadline:
                self.fail(expected, said())
            time.sleep(0.05)

    def last_seq(self):
        return self.hello()["last_seq"]

    def wait_play(self, expected, after_seq, timeout=None):
        """The `play` event of the first input journaled after `after_seq`."""
        return self.wait_event("play", expected, timeout, where=lambda ev: ev.get("seq", -1) > after_seq)

    # -- reset -----------------------------------------------------------------------------
    def reset(self):
        """Hard reset the board, wait for its `boot` event (returned) and its splash screen."""
        self.quiet()
        self.transcript.note("hard reset")
        self.board.hard_reset(self)
        return self.wait_boot("the board restarts after a hard reset")

    def wait_boot(self, expected):
        """The board's next `boot` event, returned once its splash screen is over."""
        boot = self.wait_event("boot", expected, self.boot_timeout)
        self._settle(boot)
        return boot

    def wait_ready(self):
        """Wait until the firmware answers `hello` (after power-up or a restart) and its splash
        screen is over; return the hello."""
        try:
            info = self.link.hello(within=self.boot_timeout)
        except LinkTimeout:
            self.fail("the firmware to answer hello within %.0f s" % self.boot_timeout, "nothing")
        self._settle(info)
        return info

    def _settle(self, info):
        """Let the splash screen pass: a key pressed during it only closes it."""
        wait_ms = SPLASH_MS - info.get("uptime_ms", 0)
        if wait_ms > 0:
            time.sleep(wait_ms / 1000)


def _short(events):
    return "[%s]" % ", ".join("seq %s" % ev.get("seq") for ev in events[-5:])


def _args(args):
    return " ".join("%s=%r" % item for item in sorted(args.items()))
