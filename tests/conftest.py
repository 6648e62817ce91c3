"""Fixtures shared by every test area."""
import os

import pytest

from croupier.paths import micropython_binary


@pytest.fixture(autouse=True)
def private_user_folders(monkeypatch, tmp_path_factory):
    """No test reads or writes the user's own croupier files: $CROUPIER_DB (which wins over
    XDG_DATA_HOME) is unset, and the port registry's lock files and board records go to a
    folder of the test's own, inherited by the subprocesses it starts."""
    monkeypatch.delenv("CROUPIER_DB", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path_factory.mktemp("runtime")))


@pytest.fixture(scope="session")
def micropython():
    """Path of the MicroPython unix port every two-interpreter test runs on."""
    try:
        path = micropython_binary()
    except FileNotFoundError as exc:
        pytest.fail(str(exc))
    if not os.access(path, os.X_OK):
        pytest.fail("MICROPYTHON=%s is not an executable" % path)
    return path


@pytest.fixture
def voiced_board():
    """A fresh virtual board holding the firmware and the synthesized voices (/voice/fr.vox,
    en.vox), as `croupier flash` leaves a box."""
    from croupier.sim import VirtualBoard

    with VirtualBoard(voices=True) as vb:
        yield vb
