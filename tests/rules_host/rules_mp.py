# Running code under the MicroPython unix port from CPython tests and benchmarks.
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_TESTS = ROOT / "tests" / "rules"
FIRMWARE = ROOT / "firmware"


def micropython_binary():
    """$MICROPYTHON (the Makefile exports it), else the micropython next to this Python."""
    return os.environ.get("MICROPYTHON") or str(Path(sys.executable).parent / "micropython")


def micropython_env():
    """The environment that makes firmware/ and tests/rules/ importable on MicroPython."""
    return dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), str(RULES_TESTS)]))


def run_micropython(script, *args, timeout=120):
    """Run script under MicroPython; the finished subprocess.CompletedProcess."""
    return subprocess.run([micropython_binary(), str(script), *map(str, args)],
                          env=micropython_env(), capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
