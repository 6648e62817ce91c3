"""Wiring: the board's parts, the journal, the controller, the UI and the link, each in its
own asyncio task (keypad scan, key handling, display refresh, clock, buzzer, link).

A bug anywhere shows a crash screen instead of dying silently. The journal stays intact:
every record is durable before the game changes, and after a crash the game is rebuilt from
the journal, so screen, game and journal agree again.
"""
from micropython import const
import asyncio
import gc
import sys
import time

import boards
from croupier.controller import Controller
from croupier.journal import Journal
from croupier.ui import draw
from croupier.ui.root import Ui

TICK_MS = const(100)  # announcement and message timeouts need no finer clock
RESTART_MS = const(3000)  # how long the crash screen stays before the tasks restart


class App:
    def __init__(self, board):
        self.board = board
        self.display = board.display()
        self.keypad = board.keypad()
        self.buzzer = board.buzzer()
        self.journal = Journal(board.JOURNAL_DIR)
        self.controller = Controller(self.journal)
        self.redraw = asyncio.Event()
        self.ui = Ui(self.controller, self.buzzer, self.redraw.set)
        self.failed = asyncio.Event()

    async def main(self):
        from croupier.link import Link

        asyncio.get_event_loop().set_exception_handler(self._task_failed)
        self.failed.clear()
        self.controller.resume()
        gc.collect()
        self.ui.splash(time.ticks_ms())
        link = Link(self.controller, self.journal, self.keypad, self.display, self.board)
        tasks = [asyncio.create_task(coro) for coro in (
            self.keypad.run(), self.buzzer.run(), link.run(),
            self._keys(), self._refresh(), self._clock())]
        await self.failed.wait()
        for task in tasks:
            task.cancel()
        await asyncio.sleep_ms(RESTART_MS)

    async def _keys(self):
        while True:
            k, hold = await self.keypad.get()
            try:
                self.ui.key(k, hold)
            except Exception as e:  # a UI bug: report it, then carry on from the journal
                self.crash(e)
                self.failed.set()

    async def _refresh(self):
        while True:
            await self.redraw.wait()
            self.redraw.clear()
            self.ui.draw(self.display)
            self.display.show()  # sends only the pages that changed
            gc.collect()  # between key presses: keeps the 64 KB heap unfragmented

    async def _clock(self):
        while True:
            await asyncio.sleep_ms(TICK_MS)
            self.ui.tick(time.ticks_ms())

    def _task_failed(self, loop, context):
        self.crash(context["exception"])
        self.failed.set()

    def crash(self, exc):
        """The crash screen: what broke, and that the journal is safe. Often reached out of
        memory, so it frees what it can first and never raises itself."""
        self.ui.news = []
        gc.collect()
        sys.print_exception(exc)
        try:
            fb = self.display
            fb.fill(0)
            draw.banner(fb, "CRASH")
            draw.text_center(fb, draw.clip(type(exc).__name__, 16), 26)
            draw.text_center(fb, draw.clip(str(exc), 16), 36)
            draw.text_center(fb, "journal is safe", 52)
            fb.show()
            self.buzzer.play("error")
        except Exception as e:  # the console still has the cause
            sys.print_exception(e)


def run():
    app = App(boards.load())
    while True:  # main() returns only after a crash: start again from the journal
        try:
            asyncio.run(app.main())
        except Exception as e:
            app.crash(e)
            time.sleep_ms(RESTART_MS)
        finally:
            asyncio.new_event_loop()
