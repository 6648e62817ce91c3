# Croupier firmware package. VERSION is reported by the protocol's `hello` and the splash screen.
import gc
import sys

VERSION = "0.1.0"
OLDEST = (1, 23)  # MicroPython release the firmware needs at least (the `vfs` module; asyncio)


def too_old(version):
    """None when MicroPython `version` (sys.implementation.version) runs the firmware, else
    the reason as two short lines for the display."""
    if tuple(version[:2]) >= OLDEST:
        return None
    return ("MicroPython %d.%d" % (version[0], version[1]), "too old: %d.%d+" % OLDEST)


def tidy_heap():
    """Collect garbage when less than a quarter of the heap is free. Called after a frame,
    where a pause costs least. The live heap is most of the small heap, so that is after
    nearly every frame: it keeps the heap unfragmented (a long game's growing lists want
    contiguous room; with collections only when 16 KB or less was free, 200 inputs over
    the link left no 2 KB in one piece)."""
    free = gc.mem_free()
    if free < (free + gc.mem_alloc()) // 4:
        gc.collect()


def drop_module(name):
    """Forget the module name (dotted, in a package) whose work is done: its code is heap,
    given back at the next collection; a later import loads it again."""
    if sys.modules.pop(name, None) is not None:
        dot = name.rfind(".")
        sys.modules[name[:dot]].__dict__.pop(name[dot + 1:], None)
