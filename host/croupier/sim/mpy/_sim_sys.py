# `sys` as programs on the virtual board see it (_sim_stdio.install() registers it under
# that name): the unix port's own module, except that stdout and stderr are the board's
# cooked text console. stdin and stdout.buffer stay the raw streams.
from sys import *  # noqa: F401,F403
import sys as _sys

from _sim_stdio import stdout

__name__ = "sys"  # noqa: A001 (looks like the module it stands in for)
stderr = stdout  # one UART for both, as on the ESP32


def print_exception(exc, file=None):
    _sys.print_exception(exc, stdout if file is None else file)


def __getattr__(name):  # what `import *` does not copy (ps1, ps2) is read from the real one
    return getattr(_sys, name)
