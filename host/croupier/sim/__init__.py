"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port.

    from croupier.sim import VirtualBoard
    with VirtualBoard() as vb:
        serial.Serial(vb.port)  # the board's serial port; vb.press("9"), vb.glass(), ...

See docs/virtual-board.md.
"""
from croupier.sim.board import FIRMWARE_HEAP, VirtualBoard  # noqa: F401
from croupier.sim.toolchain import SimError  # noqa: F401
