# `os` as programs on the virtual board see it (_sim_stdio.install() registers it): the unix
# port's own, with the ESP32 port's os.dupterm (extmod/os_dupterm.c, modelled in _sim_stdio).
from os import *  # noqa: F401,F403
import os as _os

from _sim_stdio import dupterm  # noqa: F401 (the ESP32's os.dupterm)

__name__ = "os"  # noqa: A001 (looks like the module it stands in for)


def __getattr__(name):  # what `import *` does not copy is read from the real one
    return getattr(_os, name)
