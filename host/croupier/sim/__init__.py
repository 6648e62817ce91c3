"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port.

    from croupier.sim import VirtualBoard
    with VirtualBoard() as vb:
        serial.Serial(vb.port)  # the board's serial port; vb.press("9"), vb.glass(), ...

See docs/virtual-board.md.
"""
import os

# The heap a virtual board gives the firmware unless told otherwise: the one place that
# sets it (CROUPIER_TEST_HEAP overrides it). Above the ESP32's because the unix port is a
# 64-bit build; the smallest at which everything passes (docs/benchmarks.md, "Heap").
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "136k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

