"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port.

    from croupier.sim import VirtualBoard
    with VirtualBoard() as vb:
        serial.Serial(vb.port)  # the board's serial port; vb.press("9"), vb.glass(), ...

See docs/virtual-board.md.
"""
import os

# The heap a virtual board gives the firmware unless told otherwise (croupier sim, demo,
# hil, the test suites): the one place that sets it. CROUPIER_TEST_HEAP overrides it (e.g.
# 1m, to tell a memory problem from a logic one). It is above the ESP32's because the unix
# port is a 64-bit build: 32-byte GC blocks and 8-byte pointers. docs/benchmarks.md, "Heap":
# the firmware holds ~104 KB once booted to its menu (tests/bench/bench_heap.py: 106,400
# bytes; 124,160 before protocol 2's plain link, keypad and display). tests/firmware passes
# from 144 KB (games by keys and over the link ran out at 136 KB; at 128 KB a Lobo 77 game
# leaves 9.5 KB free, in pieces of 3.2 KB at most); 160 KB leaves a margin. On a 32-bit
# MicroPython the firmware holds ~0.7 of its heap here (tests/bench/bench_heap32.py): 160 KB
# here is ~112 KB there, within the ~156 KB an ESP32 without PSRAM grows its heap to.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "160k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

