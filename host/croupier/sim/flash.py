"""Flash images: littlefs2 files like the ESP32's 2 MiB vfs partition, with the firmware.

A fresh image is a copy of a template made once per (firmware build, image geometry,
board-side code): formatting costs an interpreter run, a copy a millisecond.
"""
import contextlib
import fcntl
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


def template(content: Path = None) -> Path:
    """The cached pristine image holding the folder `content` (None: an empty filesystem)."""
    tree = "empty"
    if content:
        tree = toolchain.files_hash(content, (p for p in content.rglob("*") if p.is_file() and p != content / SKIP))
    key = hashlib.sha256(("%d/%d/%s/%s" % (BLOCK_SIZE, BLOCKS, toolchain.sources_hash(), tree)).encode())
    path = toolchain.cache_dir() / ("flash-%s.img" % key.hexdigest()[:16])
    if path.is_file():
        os.utime(path)  # in use: keep it from being pruned
        return path
    _prune()
    fd, work = tempfile.mkstemp(prefix=".flash-", dir=toolchain.cache_dir())
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(b"\xff" * (BLOCK_SIZE * BLOCKS))  # erased flash
        toolchain.format_image(work, *([content, SKIP] if content else []))
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


def lock(path: Path) -> int:
    """-> an fd holding flock on path, for one running board (two would corrupt each other's
    journal); SimError naming the holder when another board has it."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise toolchain.SimError("flash image %s is in use by another virtual board (%s): stop it, or "
                                 "choose another --flash" % (path, _holder(path))) from None
    return fd


def _holder(path: Path) -> str:
    """'pid N: COMMAND' of the process holding path's flock, from /proc/locks (Linux)."""
    st = os.stat(path)
    inode = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    with contextlib.suppress(OSError), open("/proc/locks") as f:  # none without procfs: unknown
        for row in map(str.split, f):  # "1: FLOCK ADVISORY WRITE <pid> <maj:min:inode> 0 EOF" (waiters: "1: -> ...")
            if row[1] == "FLOCK" and row[5] == inode:
                return "pid %s%s" % (row[4], _command(row[4]))
    return "pid unknown"


def _command(pid: str) -> str:
    """': croupier sim --headless ...' for pid, or '' when its command line is not readable."""
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            words = f.read().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return ""
    if not words:
        return ""
    if os.path.basename(words[0]).startswith("python") and words[1:2] == ["-m"] and len(words) > 2:
        words = [words[2].split(".")[0]] + words[3:]  # python -m croupier.cli sim: croupier sim
    else:
        words[0] = os.path.basename(words[0])
    return ": " + " ".join(words)
