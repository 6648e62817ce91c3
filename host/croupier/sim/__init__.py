"""The virtual board: Croupier's hardware emulated around the real MicroPython unix port
(docs/virtual-board.md): `with VirtualBoard() as vb: serial.Serial(vb.port)`."""
from croupier.sim.board import FIRMWARE_HEAP, VirtualBoard  # noqa: F401
from croupier.sim.toolchain import SimError  # noqa: F401
