"""Fixtures for the firmware tests.

`mpy` runs a script on the real MicroPython unix port with the firmware (and this folder's
device-side helpers) importable; `board` is a fresh virtual board running the whole firmware
(real littlefs, emulated ESP32 parts, a real pty), with `frames` to talk raw protocol to it.
"""
import os
import subprocess

import pytest

from fwlink import HEAP, HERE, frames_on

REPO = HERE.parent.parent
FIRMWARE = REPO / "firmware"


@pytest.fixture
def mpy(micropython, tmp_path):
    """run(code, *args, timeout=60) -> stdout of MicroPython running code (a string or a
    path); fails the test on a non-zero exit, with MicroPython's own output."""

    def run(code, *args, timeout=60):
        if isinstance(code, str) and "\n" in code:
            script = tmp_path / "script.py"
            script.write_text(code)
            code = script
        env = dict(os.environ, MICROPYPATH="%s:%s:.frozen" % (FIRMWARE, HERE))
        proc = subprocess.run([micropython, "-X", "heapsize=2M", str(code)] + [str(a) for a in args],
                              capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp_path)
        if proc.returncode:
            pytest.fail("MicroPython exited %d:\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
        return proc.stdout

    return run


@pytest.fixture
def board():
    """A fresh virtual board running the firmware, its boot event already read."""
    from croupier.sim import VirtualBoard

    with VirtualBoard(heap=HEAP) as vb:
        yield vb


@pytest.fixture
def vb():
    """A fresh virtual board running the firmware, past its splash: the game menu shows."""
    from croupier.sim import VirtualBoard
    from ui_run import wait_for_screen

    with VirtualBoard(heap=HEAP) as board:
        board.wait_boot(timeout=20)
        wait_for_screen(board, "game_menu", timeout=15)
        yield board


@pytest.fixture
def link(vb):
    """Read-only look at vb's game over the serial protocol (inputs go through keys only)."""
    with frames_on(vb.port) as frames:
        yield frames


@pytest.fixture
def frames(board):
    """Frames on the board's serial port, after the firmware's `boot` event."""
    with frames_on(board.port, boot=True) as frames:
        yield frames
