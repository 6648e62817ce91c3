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
# the firmware holds ~96 KB once booted to its menu (tests/bench/bench_heap.py --skip-games).
# 132 KB is the smallest heap where everything passes (CROUPIER_TEST_HEAP=132k: tests/firmware,
# tests/host/test_board_e2e.py and test_other_games_e2e.py, tests/hil, croupier demo). At
# 128 KB tests/hil, the demo and test_board_e2e.py pass, but Mau-Mau, the factor race and
# Duo over the link one after another (tests/firmware/test_long_session.py,
# test_other_games_e2e.py) run out, one run in two at 130 KB: a journal append's 688-byte
# file object finds no room, ~5 KB free in pieces of at most 384 bytes.
# On a 32-bit MicroPython the firmware holds ~0.7 of its heap here (tests/bench/bench_heap32.py).
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "132k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

