"""Fixtures shared by every test area."""
import os

import pytest

from croupier.paths import micropython_binary


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
