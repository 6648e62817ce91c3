"""Wiring: the board's parts, the journal, the controller, the UI and the link, each in its
own asyncio task (keypad scan, key handling, display refresh, clock, uptime, buzzer, link,
and the speaker when the box has a voice).
Idle, every task sleeps until something happens: a key's interrupt, a byte on the serial
line, the next timeout of the UI; nothing ticks (but the
uptime task, once an hour, for the millisecond clock's wrap).

A bug anywhere shows a crash screen instead of dying silently. The journal stays intact:
every record is durable before the game changes, and after a crash the game is rebuilt from
the journal, so screen, game and journal agree again. A crash while starting (out of memory,
say) would only happen again at once: its crash screen stays until a key is pressed.
"""
from micropython import const
import asyncio
import gc
import sys
import time

import boards
import croupier
from croupier.ui import draw

_RESTART_MS = const(3000)  # how long the crash screen stays before a running app restarts
_GC_IDLE_MS = const(250)  # no new frame for this long: the keys paused, the heap is tidied
_UPTIME_MS = const(3600000)  # how often the journal's uptime takes in ticks_ms (wraps in 12 days)


class App:
    def __init__(self, board):
        self.board = board
        # The parts of the crash screen come first, so even a failed start can show it; the
        # splash goes on the display at once: the box answers power-up while the rest loads.
        self.display = board.display()
        self.splash_at = self._splash()  # ticks_ms; None once a start has taken it
        self.keypad = board.keypad()
        self.buzzer = board.buzzer()
        self.speaker = None  # croupier.speaker.Speaker while the voice is on and has its bank
        self._speaking = None  # its task
        self.ui = None  # with the journal and the controller: made by _start
        self.redraw = asyncio.Event()
        self.changed = asyncio.Event()  # the UI changed: its next timeout may have moved
        self.shown = asyncio.Event()  # a frame went out since the idle collector looked
        self.failed = asyncio.Event()
        self.up = False  # a frame was shown since the last start

    async def run(self):
        """Run; after a crash start again from the journal: after _RESTART_MS when the app
        had been up, after a key when it failed while starting."""
        while True:
            try:
                up = await self.main()
            except Exception as e:  # before the tasks ran
                self.crash(e)
                up = False
            if not up:
                await self.wait_for_key()

    async def main(self):
        """Start the tasks and run until one fails; True when the app had been up."""
        asyncio.get_event_loop().set_exception_handler(self._task_failed)
        self.failed.clear()
        self.up = False
        shown = self.splash_at
        if shown is None:  # a start after a crash: the splash again
            shown = self._splash()
        self.splash_at = None
        self._start()
        self.controller.resume()
        from croupier.link import Link

        gc.collect()
        self.ui.splash(shown)  # up for the rest of its time: the start-up took some of it
        link = Link(self.controller, self.journal, self.keypad, self.display, self.board)
        tasks = [asyncio.create_task(coro) for coro in (
            self.keypad.run(), self.buzzer.run(), link.run(), self._keys(), self._refresh(),
            self._collect_when_idle(), self._clock(), self._uptime())]
        self._voice()
        await self.failed.wait()
        for task in tasks:
            task.cancel()
        self._quiet()
        if self.up:
            await asyncio.sleep_ms(_RESTART_MS)
        return self.up

    def _splash(self):
        """The splash on the glass before the journal, the game and the UI load: they load
        while it shows. -> when (ticks_ms)."""
        from croupier.ui import splash

        fb = self.display
        fb.fill(0)
        splash.paint(fb)
        fb.show()
        return time.ticks_ms()

    def _start(self):
        """The journal, the controller and the UI: made once (again after a failed start).
        Their modules load only now, after the display: a start that runs out of memory
        loading them can still say so on the screen."""
        if self.ui is None:
            from croupier.controller import Controller
            from croupier.journal import Journal
            from croupier.ui.root import Ui

            self.journal = Journal(self.board.JOURNAL_DIR, self.board.rtc())
            self.controller = Controller(self.journal)
            self.ui = Ui(self.controller, self.buzzer, self._on_change, time.ticks_ms,
                         self.board.SETTINGS)
            self.ui.on_voice = self._voice
            self.controller.subscribe(self._speak)

    def _voice(self, values=None):
        """The speaker and its task as the settings (values: as just stored, else read from
        the flash) and the banks on flash have it now: with the voice off or its bank
        missing, none, and none of its modules loaded."""
        speaker = self.board.speaker(self.speaker, values)
        if speaker is self.speaker:
            return  # none before and none now, or the same one with its new settings
        self._quiet()
        if speaker is not None:
            speaker.follow(self.controller.state())
            self.speaker = speaker
            self._speaking = asyncio.create_task(speaker.run())

    def _quiet(self):
        if self.speaker is None:
            return
        self.speaker.stop()
        self._speaking.cancel()
        self.speaker = self._speaking = None
        croupier.drop_module("croupier.speaker")
        croupier.drop_module("croupier.words")
        gc.collect()

    def _speak(self, seq, state, effects):
        if self.speaker is not None:
            self.speaker.heard(state, effects, seq == self.controller.game_id,
                               self.controller.game)

    def _on_change(self):
        self.redraw.set()
        self.changed.set()

    async def wait_for_key(self):
        """Until a key is pressed; keys pressed before the crash screen do not count."""
        scanning = asyncio.create_task(self.keypad.run())
        try:
            while True:
                await asyncio.wait_for_ms(self.keypad.get(), 1)
        except asyncio.TimeoutError:
            pass
        await self.keypad.get()
        scanning.cancel()

    async def _keys(self):
        """Each key to the UI as it comes (the controller journals what it plays); keys
        queued together are handled together, their frame after them."""
        keypad, ui = self.keypad, self.ui
        while True:
            key, hold = await keypad.get()
            ui.key(key, hold)

    async def _refresh(self):
        counted = False  # tried once: a full flash would refuse it at every frame
        while True:
            await self.redraw.wait()
            self.redraw.clear()
            self.ui.draw(self.display)
            self.display.show()  # only the pages that changed
            if self.speaker is not None:
                self.speaker.start()  # what this frame shows is said now, after it
            self.up = True
            if not counted and self.ui.splash_since is None:  # the first screen is up
                self.journal.count_boot()  # the boot's own flash write, left until now
                counted = True
            croupier.tidy_heap()
            self.shown.set()

    async def _collect_when_idle(self):
        """Collect garbage (it keeps the small heap unfragmented) once _GC_IDLE_MS pass with no
        new frame: a collection right after each frame would hold up the key that follows
        it, and a fast typist's keys come closer than that. It sleeps _GC_IDLE_MS at a time
        and looks whether a frame came meanwhile, so a frame costs it nothing (a wait with a
        timeout, asyncio.wait_for_ms, makes and cancels a task each time)."""
        shown = self.shown
        while True:
            await shown.wait()
            while shown.is_set():  # frames keep coming
                shown.clear()
                await asyncio.sleep_ms(_GC_IDLE_MS)
            gc.collect()

    async def _clock(self):
        """Tick the UI when its next timeout is due, and only then."""
        ui, changed = self.ui, self.changed
        while True:
            changed.clear()
            wait = ui.next_timeout(time.ticks_ms())
            if wait is None:
                await changed.wait()
                continue
            try:
                await asyncio.wait_for_ms(changed.wait(), wait)
                continue  # a change: the timeout is worked out again
            except asyncio.TimeoutError:
                pass
            ui.tick(time.ticks_ms())

    async def _uptime(self):
        while True:
            await asyncio.sleep_ms(_UPTIME_MS)
            self.journal.uptime_ms()

    def _task_failed(self, loop, context):
        self.crash(context["exception"])
        self.failed.set()

    def crash(self, exc):
        """The crash screen: what broke, that the journal is safe and, when the app failed
        while starting, that a key tries again. Often reached out of memory, so it frees what
        it can first and never raises itself."""
        if self.ui is not None:
            self.ui.news = []
        gc.collect()
        sys.print_exception(exc)
        try:
            fb = self.display
            fb.fill(0)
            draw.banner(fb, "CRASH")
            lines = draw.wrap("%s: %s" % (type(exc).__name__, exc), 16)
            for i in range(min(2, len(lines))):
                draw.text_center(fb, lines[i], 24 + 10 * i)
            draw.text_center(fb, "journal is safe", 44)
            if not self.up:
                draw.text_center(fb, "key: try again", 54)
            fb.show()
            self.buzzer.play("error")
        except Exception as e:  # the console still has the cause
            sys.print_exception(e)


def run():
    """The app, on a MicroPython new enough for it; else the reason, on the glass too."""
    board = boards.load()
    reason = croupier.too_old(sys.implementation.version)
    if reason is None:
        asyncio.run(App(board).run())
    else:
        refuse(board.display(), reason)


def refuse(fb, reason):
    """Say on the console and the display why the app does not start (lines of text)."""
    print("Croupier cannot start: " + ", ".join(reason))
    fb.fill(0)
    for i in range(len(reason)):
        draw.text_center(fb, reason[i], 20 + 14 * i)
    fb.show()
