"""Flash images: littlefs2 files like the ESP32's 2 MiB vfs partition, with the firmware.

A fresh image is a copy of a template made once per (firmware build, image geometry,
board-side code): formatting and copying the firmware in costs an interpreter run, a copy
costs a millisecond.
"""
import binascii
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from croupier.sim import toolchain

BLOCK_SIZE = 4096
BLOCKS = 512  # 2 MiB: the vfs partition of a 4 MB ESP32
UNUSED_DAYS = 7
SKIP = "manifest.json"  # a build's manifest describes the image, it is not part of it


def firmware_staging() -> Path:
    """The compiled firmware, exactly what `croupier flash` deploys (its manifest stays on
    the host)."""
    from croupier.build import build_firmware

    return build_firmware()


def _tree_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel != SKIP:
            digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def template(content: Path = None) -> Path:
    """The cached pristine image holding the folder `content` (None: an empty filesystem)."""
    key = hashlib.sha256(("%d/%d/%s/%s" % (BLOCK_SIZE, BLOCKS, toolchain.sources_hash(),
                                           _tree_hash(content) if content else "empty")).encode())
    path = toolchain.cache_dir() / ("flash-%s.img" % key.hexdigest()[:16])
    if path.is_file():
        os.utime(path)  # in use: keep it from being pruned
        return path
    _prune()
    fd, work = tempfile.mkstemp(prefix=".flash-", dir=toolchain.cache_dir())
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(b"\xff" * (BLOCK_SIZE * BLOCKS))  # erased flash
        toolchain.run_tool("format", work, *([content, SKIP] if content else []))
        os.replace(work, path)
    finally:
        if os.path.exists(work):
            os.unlink(work)
    return path


def _prune():
    """Drop templates nobody used for a week (each firmware edit makes a new one)."""
    for old in toolchain.cache_dir().glob("flash-*.img"):
        try:
            if time.time() - old.stat().st_mtime > UNUSED_DAYS * 86400:
                old.unlink()
        except FileNotFoundError:
            pass  # another process pruned it first


def create(path: Path, content: Path = None):
    """Write a fresh image at path holding `content` (a folder; None: empty)."""
    shutil.copyfile(template(content), path)


def check(path: Path):
    """SimError unless path looks like a flash image (whole 4 KiB blocks, 16 at least)."""
    size = Path(path).stat().st_size
    if size < 16 * BLOCK_SIZE or size % BLOCK_SIZE:
        raise toolchain.SimError("%s is not a flash image: %d bytes, not a multiple of %d of at least %d"
                                 % (path, size, BLOCK_SIZE, 16 * BLOCK_SIZE))


def read_files(path: Path) -> dict:
    """{path on the board: bytes} of every file in an image; directories map to None."""
    files = {}
    for line in toolchain.run_tool("dump", path).splitlines():
        kind, name, *data = line.split(" ")
        files[name] = binascii.unhexlify(data[0]) if kind == "F" else None
    return files
