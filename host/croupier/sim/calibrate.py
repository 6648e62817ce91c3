"""Pystone on a paced virtual board (`croupier sim --calibrate`, tests/bench/bench_pystone.py):
how near the throttle holds the board to the chip's score (croupier.sim.pace)."""
import shutil
import tempfile
import time
from pathlib import Path

from croupier.sim import pystone
from croupier.sim.board import VirtualBoard

LOOPS = 2000  # ~1.5 s at the chip's 1,300 pystones/s
TIMEOUT = 120  # seconds each wait of a run may take (a busy host slows a paced board)
START, RESULT = b"pystone start\r\n", b"pystone result "
MAIN = """import pystone_lowmem
import sys
sys.stdout.write("pystone start\\n")
ms, stones = pystone_lowmem.pystones(%d)
sys.stdout.write("pystone result %%d %%d\\n" %% (ms, stones))
"""


def run_on_board(pace="esp32") -> dict:
    """Run pystone as a board's main.py. -> {'pystones': per wall second, 'factor': the
    throttle's, 'cpu_share': the board's CPU time over its budget (wall time / factor),
    'per_budget': pystones per second of budget used, 'realtime': the pacer's}."""
    with tempfile.TemporaryDirectory(prefix="croupier-pystone-") as folder:
        work = Path(folder)
        shutil.copy(pystone.source(), work / pystone.MODULE)
        (work / "main.py").write_text(MAIN % LOOPS)
        with VirtualBoard(firmware=work, flash=work / "flash.img", pace=pace) as board:
            mark = board.wait_output(START, timeout=TIMEOUT).index(START)  # the result comes after it
            before, started = board.work(), time.monotonic_ns()
            out = board.wait_output(RESULT, timeout=TIMEOUT, since=mark)
            after, wall = board.work(), time.monotonic_ns() - started
            out = board.wait_output(b"\r\n", timeout=TIMEOUT, since=mark + out.index(RESULT))
            factor, realtime = board.throttle.factor, board.throttle.realtime
    stones = int(out[len(RESULT):].split()[1])
    share = (after["cpu_ns"] - before["cpu_ns"]) * factor / wall
    return {"pystones": stones, "factor": factor, "cpu_share": share, "per_budget": stones / share if share else 0.0,
            "realtime": realtime}
