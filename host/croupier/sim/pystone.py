"""Pystone on the virtual board: the benchmark that defines the pace (croupier.sim.pace):
a paced board's gauge runs it (croupier.sim.pacer), and the calibration checks the board's
score against the chip's.

The benchmark is micropython-pystone-lowmem from the package index. Its release is a bare
source archive without the metadata pip installs from (it was made for MicroPython's own
installer), so pip cannot install it: pip's own finder and session fetch the archive from
the index pip is configured with, its hash is checked, and the module is kept in the
virtual board's cache.
"""
import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from croupier.sim import toolchain

PACKAGE = "micropython-pystone-lowmem"
MODULE = "pystone_lowmem.py"
LOOPS = 2000  # ~1.5 s on a paced ESP32 board: long against the pace's 5 ms slices
START, RESULT = b"pystone start\r\n", b"pystone result "


def source() -> Path:
    """pystone_lowmem.py, fetched once into the cache (a paced board's gauge runs it too)."""
    path = toolchain.cache_dir() / MODULE
    if not path.is_file():
        try:
            module = _fetch_module()
        except Exception as exc:  # pip's finder and session fail in many ways: each says why
            raise toolchain.SimError("a paced board runs pystone, fetched once from the package index: %s; "
                                     "--pace none runs without it" % exc) from exc
        work = path.with_suffix(".part")
        work.write_bytes(module)
        work.replace(path)
    return path


def _fetch_module() -> bytes:
    from pip._internal.commands import create_command

    command = create_command("download")
    options, _ = command.parse_args(["--no-deps", PACKAGE])
    with command.main_context():
        session = command.get_default_session(options)
        finder = command._build_package_finder(options=options, session=session)
        best = finder.find_best_candidate(PACKAGE).best_candidate
        if best is None:
            raise toolchain.SimError("%s is not on the package index pip uses" % PACKAGE)
        reply = session.get(best.link.url)
        reply.raise_for_status()
    archive = reply.content
    if best.link.hash_name and hashlib.new(best.link.hash_name, archive).hexdigest() != best.link.hash:
        raise toolchain.SimError("%s: the archive does not match the index's hash" % PACKAGE)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.name.endswith("/" + MODULE):
                return tar.extractfile(member).read()
    raise toolchain.SimError("%s holds no %s" % (PACKAGE, MODULE))


MAIN = """import pystone_lowmem
import sys
sys.stdout.write("pystone start\\n")
ms, stones = pystone_lowmem.pystones(%d)
sys.stdout.write("pystone result %%d %%d\\n" %% (ms, stones))
"""


def cpu_rate(loops=30000, runs=5) -> float:
    """Pystones per second of CPU time of the unix port at full speed: the interpreter's
    user + system time for `loops` passes, less that of an interpreter doing none (start-up).
    CPU time, not wall time, so the time other processes of a busy host take does not enter
    it; what they still cost (caches and memory bandwidth shared with them) only ever slows
    a run, so the fastest of `runs` is the interpreter's own speed."""
    start_up = min(_cpu_seconds(0) for _ in range(3))
    return max(loops / (_cpu_seconds(loops) - start_up) for _ in range(runs))


def _cpu_seconds(loops):
    env = dict(os.environ, MICROPYPATH=str(source().parent))
    proc = subprocess.Popen([toolchain.micropython(), "-c", "import pystone_lowmem as p; p.pystones(%d)" % loops],
                            env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = status
    if status:
        raise toolchain.SimError("pystone failed on the unix port (status %d)" % status)
    return usage.ru_utime + usage.ru_stime


def run_on_board(pace="esp32", loops=LOOPS, timeout=120) -> dict:
    """Run pystone as a board's main.py. -> {'pystones': per wall second as the benchmark
    reports it, 'cpu_share': the share of its CPU budget the board got meanwhile (below 1
    when the host was too busy to give it all), 'per_budget': pystones per second of budget
    actually used (what a board given its whole budget would score), 'over_budget_ns': CPU
    time charged beyond the budget meanwhile (negative: under it), 'factor': the pacer's
    over the run (wall time / budget), 'realtime': whether its pacer was real-time}."""
    from croupier.sim.board import VirtualBoard

    work = Path(tempfile.mkdtemp(prefix="croupier-pystone-"))
    try:
        shutil.copy(source(), work / MODULE)
        (work / "main.py").write_text(MAIN % loops)
        with VirtualBoard(firmware=work, flash=work / "flash.img", pace=pace) as board:
            board.wait_output(START, timeout=timeout)
            before, mark = _usage(board.throttle), board.mark()
            started = time.monotonic_ns()
            out = board.wait_output(RESULT, timeout=timeout, since=mark)
            after, wall = _usage(board.throttle), time.monotonic_ns() - started
            out = board.wait_output(b"\r\n", timeout=timeout, since=mark + out.index(RESULT))
            realtime = board.throttle and board.throttle.realtime
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ms, stones = (int(n) for n in out[len(RESULT):].split()[:2])
    used, budget = after[0] - before[0], after[1] - before[1]
    share = used / budget if budget else 1.0
    return {"pystones": stones, "cpu_share": share, "per_budget": stones / share if share else 0.0, "ms": ms,
            "over_budget_ns": used - budget, "factor": wall / budget if budget else 0.0, "realtime": realtime}


def _usage(throttle):
    """-> (CPU time charged, budget) so far, in ns."""
    return (throttle.cpu_ns - throttle.credited_ns, throttle.budget_ns) if throttle else (0, 0)
