"""The box's face for a board over the serial protocol: its live screen, keys sent back.

One thread owns the link (croupier.link is blocking): it sends the keys it is handed,
collects `play` events and reads `screen` when the picture may have changed. A key or an
event asks for the screen shortly after, and again while announcements may still be
changing it; an idle board is read every few seconds (a menu can time out by itself).
Everything it learns reaches the UI thread as messages.
"""
import queue
import threading
import time

from textual.message import Message
from textual.widgets import Static

from croupier import statetext
from croupier.commands.screenshot import read_screen
from croupier.link import DeviceError, LinkError, key_name
from croupier.tui.app import HOLD_S, BoardApp

POLL_S = 0.02  # how long the link thread listens before looking for keys to send
AFTER_ACTIVITY_S = (0.05, 0.5, 1.7)  # screen reads after a key or event (announcements: 1.5 s)
IDLE_S = 3.0
BUSY_RETRIES, BUSY_WAIT_S = 20, 0.05  # the board's key queue is full: it empties in ms


class BoardScreen(Message):
    def __init__(self, fb):
        super().__init__()
        self.fb = fb


class BoardState(Message):
    def __init__(self, state, effects=()):
        super().__init__()
        self.state, self.effects = state, list(effects)


class LinkProblem(Message):
    def __init__(self, text):
        super().__init__()
        self.text = text


class LinkThread(threading.Thread):
    """Talks to the board; report(message) gets BoardScreen, BoardState and LinkProblem messages."""

    def __init__(self, link, report):
        super().__init__(name="croupier-mirror-link", daemon=True)
        self.link, self.report = link, report
        self.keys = queue.Queue()  # (protocol key name, hold)
        self.stopping = threading.Event()
        self._due = [0.0]  # monotonic times to read the screen at
        self._last_read = 0.0

    def run(self):
        try:
            self.report(BoardState(self.link.call("state")["state"]))
            self.link.events.clear()  # the boot event, events from before
            while not self.stopping.is_set():
                self._send_keys()
                self.link.poll(POLL_S)
                self._take_events()
                self._read_screen_if_due()
        except Exception as exc:
            if self.stopping.is_set():
                return  # the app quit and closed the port under a request: nothing to tell
            if not isinstance(exc, (LinkError, OSError)):  # OSError: the cable, the port gone
                raise
            self.report(LinkProblem("link lost: %s" % exc))

    def _send_keys(self):
        while True:
            try:
                name, hold = self.keys.get_nowait()
            except queue.Empty:
                return
            self._send_key(name, hold)
            self._activity()

    def _send_key(self, name, hold):
        for _ in range(BUSY_RETRIES):
            try:
                self.link.call("key", key=name, hold=hold)
                return
            except DeviceError as exc:
                if exc.error != "busy":
                    self.report(LinkProblem(str(exc)))
                    return
            time.sleep(BUSY_WAIT_S)
        self.report(LinkProblem("the board's key queue stayed full: key %s dropped" % name))

    def _take_events(self):
        while self.link.events:
            event = self.link.events.popleft()
            if event.get("ev") == "play":
                self.report(BoardState(event["state"], event.get("effects", [])))
            elif event.get("ev") == "boot":  # restarted: back in its game, or in none
                self.report(BoardState(self.link.call("state")["state"]))
            self._activity()  # a boot or a card: the screen changes

    def _activity(self):
        now = time.monotonic()
        self._due = [now + after for after in AFTER_ACTIVITY_S]

    def _read_screen_if_due(self):
        now = time.monotonic()
        due = bool(self._due) and now >= self._due[0]
        if not due and now - self._last_read < IDLE_S:
            return
        self._due = [t for t in self._due if t > now]
        self._last_read = now
        self.report(BoardScreen(read_screen(self.link)))


class MirrorApp(BoardApp):
    TITLE = "Croupier mirror"
    CSS = BoardApp.CSS + """
    #state { height: auto; padding: 0 1; }
    #problem { height: auto; padding: 0 1; color: $error; }
    """

    def __init__(self, link, labels, where):
        super().__init__(labels, where)
        self.state = None  # the board's game state, as its last `play` event said
        self.thread = LinkThread(link, self.post_message)
        self._hold_timers = {}  # label -> the timer that turns a mouse press into a long press

    def compose_bottom(self):
        yield Static("", id="state")
        yield Static("", id="problem")

    def on_mount(self):
        super().on_mount()
        self.thread.start()

    def on_unmount(self):
        self.thread.stopping.set()
        self.thread.join(timeout=5)

    def on_board_screen(self, message: BoardScreen):
        self.show_screen(message.fb)

    def on_board_state(self, message: BoardState):
        self.state = message.state
        text = statetext.summary(message.state)
        if message.state and message.effects:
            text = statetext.effects(message.effects, message.state) + " · " + text
        self.query_one("#state", Static).update(text)

    def on_link_problem(self, message: LinkProblem):
        self.query_one("#problem", Static).update(message.text)

    # -- keys over the link ---------------------------------------------------------------------
    def press(self, label, hold):
        self.thread.keys.put((key_name(label), hold))

    def key_down(self, label):
        """As the keypad does: held past HOLD_S, it is a long press, sent then."""
        self._hold_timers[label] = self.set_timer(HOLD_S, lambda: self._held(label))

    def _held(self, label):
        if self._hold_timers.pop(label, None) is not None:
            self.press(label, True)

    def key_up(self, label):
        timer = self._hold_timers.pop(label, None)
        if timer is not None:  # released before it became a long press
            timer.stop()
            self.press(label, False)
