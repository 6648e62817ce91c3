"""Pystone, the benchmark that defines the pace (croupier.sim.pace): its score per second
of the unix port's CPU time over the chip's is the pace's factor (tests/bench/chiptime.py).

micropython-pystone-lowmem's release is a bare source archive without the metadata pip
installs from, so pip's own finder and session fetch it from the index pip is configured
with; its hash is checked and the module kept in the virtual board's cache.
"""
import hashlib
import io
import tarfile
from pathlib import Path

from croupier.sim import toolchain

PACKAGE = "micropython-pystone-lowmem"
MODULE = "pystone_lowmem.py"


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
