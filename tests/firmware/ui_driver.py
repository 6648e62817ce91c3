# Runs on the MicroPython unix port: the real controller, journal, rules and UI, drawing into
# a real framebuf; only the buzzer is a recorder (tune names) since no PWM pin exists here.
# Usage: micropython -c "import ui_driver" JOURNAL_DIR SCRIPT.json (compiled with mpy-cross,
# like the firmware, so the driver's own code costs the heap little)
# SCRIPT: list of commands, each printing nothing except "snap", which prints one JSON line:
#   ["keys", "1 ok ok 9 ok undo!"]   logical keys, "!" marks a long press
#   ["tick", ms]                     the clock moves on by ms
#   ["roster", ["Ann", "Bob"]]       what the host's `roster` command sets
#   ["link", "play", "9"]            a controller call as the serial link makes it
#   ["reboot"]                       power cycle: everything rebuilt from the journal
#   ["draw_locked", name]            the app's redraw with the heap locked: prints
#                                     {"draw_locked": name, "allocates": bool}
#   ["snap", name]                   {"snap", "fb" (hex, page order), "state", "tunes",
#                                     "message", "screen", "news", "preview",
#                                     "setup", "inputs", "mem_peak", "modules" (the UI
#                                     and rules modules loaded, "ui.play", "rules.basta")}
import binascii
import framebuf
import gc
import json
import micropython
import sys

from croupier.controller import Controller
from croupier.journal import Journal
from croupier.ui.root import Ui


class TuneLog:
    KEEP = 40  # the tunes since the last snap, bounded: whole games play between snaps

    def __init__(self):
        self.names = []

    def play(self, name):
        if len(self.names) >= self.KEEP:
            self.names.pop(0)
        self.names.append(name)


class Bench:
    def __init__(self, path):
        self.path = path
        self.buf = bytearray(1024)
        self.page_view = memoryview(self.buf)
        self.fb = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.tunes = TuneLog()
        self.now = 0
        self.roster = []
        self.power_on()

    def power_on(self):
        self.controller = Controller(Journal(self.path))
        self.controller.roster = self.roster
        self.controller.resume()
        self.ui = Ui(self.controller, self.tunes, settings=self.path + ".settings")
        self.ui.splash(self.now)

    def run(self, command):
        op = command[0]
        if op == "keys":
            self.keys(command[1])
        elif op == "tick":
            self.now += command[1]
            self.ui.tick(self.now)
            self.ui.draw(self.fb)
        elif op == "roster":
            self.roster[:] = command[1]
        elif op == "link":
            try:
                getattr(self.controller, command[1])(*command[2:])
            except ValueError as e:
                print(json.dumps({"link_error": e.reason}))
        elif op == "reboot":
            self.now += 5000
            self.power_on()
        elif op == "draw_locked":
            print(json.dumps({"draw_locked": command[1], "allocates": self.draw_allocates()}))
        elif op == "snap":
            self.snap(command[1])
        else:
            raise ValueError("unknown command %s" % op)

    def keys(self, text):
        # one key at a time: a whole game's keys split at once would fill the heap
        start = 0
        while start < len(text):
            end = text.find(" ", start)
            if end < 0:
                end = len(text)
            if end > start:
                hold = text[end - 1] == "!"
                self.ui.key(text[start:end - 1] if hold else text[start:end], hold)
                self.ui.draw(self.fb)  # as the app's refresh task does after every key
            start = end + 1

    def draw_allocates(self):
        gc.collect()
        micropython.heap_lock()
        try:
            self.ui.draw(self.fb)
        except MemoryError:
            return True
        finally:
            micropython.heap_unlock()
        return False

    def snap(self, name):
        self.ui.draw(self.fb)
        game = self.controller.game
        gc.collect()
        # Two lines (frame, then the rest) keep the output small enough for the scenario heap.
        sys.stdout.write("fb ")
        for page in range(8):
            sys.stdout.write(binascii.hexlify(self.page_view[page * 128:page * 128 + 128]))
        sys.stdout.write("\n")
        print(json.dumps({
            "snap": name,
            "state": self.controller.state(), "tunes": self.tunes.names,
            "message": self.ui.message, "screen": type(self.ui.screen).__name__,
            "news": [a.title for a in self.ui.news],
            "preview": getattr(self.ui.screen, "preview", None),
            "setup": game and game.setup(), "inputs": game and game.inputs, "mem_peak": micropython.mem_peak(),
            "modules": [m[9:] for m in sys.modules if m.startswith("croupier.ui") or m.startswith("croupier.rules")]}))
        self.tunes.names = []


def main():
    bench = Bench(sys.argv[-2])
    with open(sys.argv[-1]) as f:
        script = json.load(f)
    for command in script:
        bench.run(command)


main()
