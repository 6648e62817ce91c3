"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port.

    from croupier.sim import VirtualBoard
    with VirtualBoard() as vb:
        serial.Serial(vb.port)  # the board's serial port; vb.press("9"), vb.glass(), ...

See docs/virtual-board.md.
"""
import os

from croupier.sim.board import VirtualBoard  # noqa: F401
from croupier.sim.toolchain import SimError  # noqa: F401

# The heap the firmware test suite (tests/firmware) gives the virtual board: the one place
# that sets it; CROUPIER_TEST_HEAP overrides it (e.g. 1m, to tell a memory problem from a
# logic one). It is above the ESP32's 64 KB budget because the unix port is a 64-bit build:
# 32-byte GC blocks and 8-byte pointers make every object, function and module about twice
# its ESP32 size. Measured with tests/bench/bench_heap.py (docs/benchmarks.md, "Heap"): the
# modules alone hold ~68 KB here, the firmware ~94 KB once booted to its menu.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "160k")
