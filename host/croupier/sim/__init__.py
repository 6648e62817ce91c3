"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port.

    from croupier.sim import VirtualBoard
    with VirtualBoard() as vb:
        serial.Serial(vb.port)  # the board's serial port; vb.press("9"), vb.glass(), ...

See docs/virtual-board.md.
"""
import os

# The heap a virtual board gives the firmware unless told otherwise (croupier sim, demo,
# hil, the test suites): the one place that sets it. CROUPIER_TEST_HEAP overrides it (e.g.
# 1m, to tell a memory problem from a logic one). It is above the ESP32's 64 KB budget
# because the unix port is a 64-bit build: 32-byte GC blocks and 8-byte pointers.
# tests/bench/bench_heap.py (docs/benchmarks.md, "Heap"): the firmware holds ~95 KB once
# booted to its menu; tests/firmware passes from 136 KB, and a long session over the link
# (`croupier demo`) ran out at 128 KB. On a 32-bit MicroPython the firmware's code holds
# ~0.7 of its heap here (tests/bench/bench_heap32.py), so 160 KB is ~110 KB on the ESP32.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "160k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

