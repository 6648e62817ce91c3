# Croupier firmware package. VERSION is reported by the protocol's `hello` and the splash screen.
import gc

VERSION = "0.1.0"


_collect_at = 0  # gc.mem_alloc() at which tidy_heap collects next


def collect():
    """gc.collect(); tidy_heap's next collection comes once garbage has filled a quarter of
    the room it left free."""
    global _collect_at
    gc.collect()
    _collect_at = gc.mem_alloc() + gc.mem_free() // 4


def tidy_heap():
    """collect() once garbage has filled a quarter of the room the last one left free.
    Called after a frame, where a pause costs least. A collection marks the whole live
    heap, most of the small heap, so on the chip it takes about as long as the 388-byte
    receive buffer lasts: after every frame (as when this collected whenever under a quarter
    of the heap was free, nearly always) it took a typist's board out of CPU time."""
    if gc.mem_alloc() >= _collect_at:
        collect()
