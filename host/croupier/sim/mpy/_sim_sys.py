# `sys` as programs on the virtual board see it (_sim_stdio.install() registers it under
# that name): the unix port's own module, except that stdin, stdout and stderr are the
# board's console (_sim_stdio) and the implementation's version is the release picked.
from sys import *  # noqa: F401,F403
import sys as _sys

from _sim_stdio import RELEASE, stdin, stdout

__name__ = "sys"  # noqa: A001 (looks like the module it stands in for)
stderr = stdout  # one UART for both, as on the ESP32


class _Implementation:
    """The unix port's sys.implementation, but version the release's (py/modsys.c)."""

    version = (RELEASE[0], RELEASE[1], 0, "")

    def __getattr__(self, name):
        return getattr(_sys.implementation, name)

    def __repr__(self):
        return "(name='%s', version=%r)" % (self.name, self.version)


implementation = _Implementation()
version = "%s; MicroPython v%d.%d.0 on %s" % (_sys.version.split(";")[0], RELEASE[0], RELEASE[1],
                                               _sys.version.split(" on ")[-1])


def print_exception(exc, file=None):
    _sys.print_exception(exc, stdout if file is None else file)


def __getattr__(name):  # what `import *` does not copy (ps1, ps2) is read from the real one
    return getattr(_sys, name)
