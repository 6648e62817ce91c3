# Running code under the MicroPython unix port (found by croupier.paths.micropython_binary)
# with firmware/ and tests/rules/ importable, from CPython tests and benchmarks.
import os
import subprocess
from pathlib import Path

from croupier.paths import micropython_binary

ROOT = Path(__file__).resolve().parents[2]
RULES_TESTS = ROOT / "tests" / "rules"
FIRMWARE = ROOT / "firmware"


def micropython_env():
    """The environment that makes firmware/ and tests/rules/ importable on MicroPython."""
    return dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), str(RULES_TESTS)]))


def micropython_command(script, *args, binary=None, heap=None):
    """heap: the interpreter's heap (`-X heapsize`, e.g. "8m"); None: the unix port's default."""
    options = ["-X", "heapsize=%s" % heap] if heap else []
    return [binary or micropython_binary(), *options, str(script), *map(str, args)]


def run_micropython(script, *args, timeout=120, binary=None, heap=None):
    """Run script under MicroPython; the finished subprocess.CompletedProcess."""
    return subprocess.run(micropython_command(script, *args, binary=binary, heap=heap),
                          env=micropython_env(), capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
