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
# because the unix port is a 64-bit build: 32-byte GC blocks and 8-byte pointers make every object, function and module about twice
# its ESP32 size. tests/bench/bench_heap.py (docs/benchmarks.md, "Heap"): the firmware holds
# ~93 KB once booted to its menu (its modules ~68 KB of that); tests/firmware passes at 124 KB,
# but a long session over the link (`croupier demo`: a Lobo 77 then a BASTA game) runs out at
# 128 KB. 160 KB here is roughly 80 KB on the 32-bit ESP32, within the ~100 KB it has free.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "160k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

