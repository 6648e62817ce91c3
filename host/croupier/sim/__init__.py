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
# the firmware holds ~99 KB once booted to its menu (tests/bench/bench_heap.py --skip-games:
# 101,632 bytes, 102,688 before the box's requests and the boot scan loaded on demand).
# 140 KB is the smallest heap where everything passes (CROUPIER_TEST_HEAP=140k: tests/firmware,
# tests/host/test_board_e2e.py and test_other_games_e2e.py, tests/hil, croupier demo).
# tests/firmware alone passes from 136 KB (fails at 132 KB and 128 KB: Mau-Mau and Duo by
# keys, then synced; the biggest engines one after another over the link), and at 136 KB
# the other three games over the link ran out (a journal append's 688-byte file object).
# On a 32-bit MicroPython the firmware holds ~0.7 of its heap here (tests/bench/bench_heap32.py):
# 140 KB here is ~98 KB there, within the ~156 KB an ESP32 without PSRAM grows its heap to.
FIRMWARE_HEAP = os.environ.get("CROUPIER_TEST_HEAP", "140k")

from croupier.sim.board import VirtualBoard  # noqa: F401,E402
from croupier.sim.toolchain import SimError  # noqa: F401,E402

