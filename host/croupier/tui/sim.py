"""The virtual board in the terminal: the box's face (croupier.tui), its serial log, reset.

Keys go onto the emulated matrix, so the firmware sees presses exactly as on a board. Typed
keys wait in a queue and are played one at a time as a person types: each held PRESS_MS (a
long press HOLD_PRESS_MS), then released for GAP_MS before the next goes down, so keys typed
faster than that are neither lost nor merged. A mouse press lasts as long as the button is
down. The board's I/O thread only posts messages; everything else runs on the UI thread.
"""
import collections
import time

from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Log, Static

from croupier.hil import image_losses
from croupier.sim import uart
from croupier.sim.pace import NOT_REALTIME
from croupier.tui.app import HOLD_S, BoardApp

PRESS_MS = 80  # a typed key or click is held this long: a person's tap, well past the debounce
GAP_MS = 50  # up between two typed keys: the firmware sees each release before the next press
HOLD_PRESS_MS = int(HOLD_S * 1000) + 300  # a long press, with room for the debounce
SCREEN_AFTER_S = 1.0  # a screen change this long after a key's release is not that key's


class ConfirmQuit(ModalScreen):
    """Quit a board whose temporary image holds what no database has? y: yes, n/Esc: no."""
    CSS = """
    ConfirmQuit { align: center middle; }
    #losses { width: 70; height: auto; padding: 1 2; border: thick $error; background: $surface; }
    """
    BINDINGS = [("y", "dismiss(True)", "Quit"), ("n", "dismiss(False)", "Stay"), ("escape", "dismiss(False)", "Stay")]

    def __init__(self, text):
        super().__init__()
        self.text = text

    def compose(self):
        yield Static(self.text, id="losses")


class SimApp(BoardApp):
    TITLE = "Croupier virtual board"
    CSS = BoardApp.CSS + """
    #reset { width: 35; margin-top: 1; }
    .-compact #reset { display: none; }
    #status { height: 1; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; }
    #log.-hidden { display: none; }
    """
    BINDINGS = BoardApp.BINDINGS + [("r", "reset", "Reset"), ("l", "toggle_log", "Serial log")]

    class BoardOutput(Message):
        def __init__(self, data: bytes):
            super().__init__()
            self.data = data

    class GlassChanged(Message):
        pass

    def __init__(self, board, temporary_image=False):
        """temporary_image: the board's image goes with it (no --flash): quitting asks first
        when it holds what no database has."""
        where = "serial port %s" % board.port + (" (link %s)" % board.link if board.link else "")
        super().__init__(board.labels, where)
        self.board = board
        self.temporary_image = temporary_image
        self._quitting = False  # the board is being asked, or the user, whether to quit
        self._glass_stale = True  # set from the board's I/O thread, cleared by _refresh_oled
        self._status = None
        self._down_at = {}  # label -> when the mouse pressed it
        self._typed = collections.deque()  # (label, hold, when typed) waiting to be played
        self._playing = None  # the timer of the typed key being played (None: idle)
        self._awaiting = None  # (when typed, when released) of the last key not yet on screen
        self.key_to_screen_ms = None  # the last typed key's: typed -> its screen drawn

    def compose_side(self):
        reset = Button("Reset", id="reset", variant="warning")
        reset.can_focus = False  # Enter and digits belong to the keypad
        yield reset

    def compose_bottom(self):
        yield Static(self.status(), id="status")
        yield Log(id="log", max_lines=2000)

    def status(self) -> str:
        """The pace (and whether its pacer could be real-time), the release modelled and the
        serial bytes lost to a full receive ring."""
        pace, throttle, board = self.board.pace, self.board.throttle, self.board
        where = "pace %s" % pace.name if pace else "full speed"
        if throttle and throttle.realtime is False:
            where += " · " + NOT_REALTIME
        return "%s · MicroPython %s · %d-byte receive ring · serial bytes lost: %d" % (
            where, board.micropython_version, uart.RING, board.rx_overflow) + (
            "" if self.key_to_screen_ms is None else " · key to screen: %d ms" % self.key_to_screen_ms)

    def on_mount(self):
        super().on_mount()
        self.board.subscribe(self._on_board)
        self.set_interval(1 / 20, self._refresh_oled)  # the status; the glass at once (GlassChanged)
        self._refresh_oled()
        self._write_log(self.board.output())

    def _on_board(self, event, data):
        if event == "output":  # the board's I/O thread: only post
            self.post_message(self.BoardOutput(data))
        elif not self._glass_stale:  # a display write, power, a boot: the glass may have changed
            self._glass_stale = True
            self.post_message(self.GlassChanged())  # drawn now, not at the next status tick

    def on_sim_app_glass_changed(self, message: GlassChanged):
        self._refresh_oled()

    def on_sim_app_board_output(self, message: BoardOutput):
        self._write_log(message.data)

    def _write_log(self, data: bytes):
        for log in self.query("#log"):  # none once the app is closing: output may still come
            log.write(data.decode("utf-8", "replace").replace("\r", ""))

    def _refresh_oled(self):
        status = self.status()
        if status != self._status:
            self._status = status
            for line in self.query("#status").results(Static):  # none once the app is closing
                line.update(status)
        if not self._glass_stale:  # reading the glass holds the board's lock: only when needed
            return
        self._glass_stale = False
        fb = self.board.glass()
        if fb != self._shown and self._awaiting:
            typed, released = self._awaiting
            now = time.monotonic()
            if now - released < SCREEN_AFTER_S:
                self._awaiting = None
                self.key_to_screen_ms = int((now - typed) * 1000)
        self.show_screen(fb)

    # -- keys on the matrix ----------------------------------------------------------------------
    def press(self, label, hold):
        self._typed.append((label, hold, time.monotonic()))
        if self._playing is None:
            self._play_next()

    def _play_next(self):
        """Put the next typed key down; _release lets it up and plays the one after."""
        if not self._typed:
            self._playing = None
            return
        label, hold, typed = self._typed.popleft()
        self.board.key_down(label)
        self._playing = self.set_timer((HOLD_PRESS_MS if hold else PRESS_MS) / 1000,
                                       lambda: self._release(label, typed))

    def _release(self, label, typed):
        self.board.key_up(label)
        self._awaiting = (typed, time.monotonic())  # a short press counts on its release
        self._playing = self.set_timer(GAP_MS / 1000, self._play_next)

    def key_down(self, label):
        self._down_at[label] = time.monotonic()
        self.board.key_down(label)

    def key_up(self, label):
        held = time.monotonic() - self._down_at.pop(label, 0.0)
        left = PRESS_MS / 1000 - held
        if left > 0:  # a quick click still outlasts the debounce
            self.set_timer(left, lambda: self.board.key_up(label))
        else:
            self.board.key_up(label)

    def on_unmount(self):
        self._typed.clear()
        if self._playing is not None:
            self._playing.stop()
        for label in self.board.keys_down:  # a release still waiting on a timer
            self.board.key_up(label)

    # -- quitting ---------------------------------------------------------------------------------
    async def action_quit(self):
        if not self.temporary_image:
            self.exit()
        elif not self._quitting:
            self._quitting = True
            self.notify("Asking the board what quitting would lose...", timeout=3)
            self.run_worker(self._ask_board, thread=True)  # the link blocks: not on the UI thread

    def _ask_board(self):
        words = image_losses.losses(self.board.port)
        self.call_from_thread(self._confirm_quit, words)

    def _confirm_quit(self, words):
        if not words:
            self.exit()
            return
        text = ("This board's flash image is temporary: quitting loses %s.\n\nTo keep them, %s.\n\nQuit anyway? y: quit, n: stay"
                % (words, image_losses.how_to_keep(self.board.link or self.board.port)))
        self.push_screen(ConfirmQuit(text), self._answered)

    def _answered(self, quit_now):
        self._quitting = False
        if quit_now:
            self.exit()

    def on_button_pressed(self, event: Button.Pressed):
        if event.button.id == "reset":
            self.action_reset()

    def action_reset(self):
        self.board.hard_reset()

    def action_toggle_log(self):
        self.query_one("#log", Log).toggle_class("-hidden")
