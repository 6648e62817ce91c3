# Croupier firmware package. VERSION is reported by the protocol's `hello` and the splash screen.
import gc

VERSION = "0.1.0"
HEAP_RESERVE = 16384  # bytes of heap the next piece of work may want (a request, a record)


def tidy_heap():
    """Collect garbage when less than HEAP_RESERVE is free. Called after a frame, where a
    pause costs least. A collection marks the whole live heap (most of it, in use for
    good), on the chip tens of ms, near what the serial receive buffer lasts: once in many
    keys, not after each."""
    if gc.mem_free() < HEAP_RESERVE:
        gc.collect()
