# The heap, touched before the pace starts. The host maps a new process's pages at their
# first write, which on the build VM costs about 65 µs of the interpreter's CPU time a page
# (6.5 ms of the chip's at the pace's factor: pystone's first pass on a new board took 37
# of them and scored 10-15 % low). A chip's RAM costs nothing of the kind.
import gc


def touch():
    """Write to every free block of the heap once, then free it all again."""
    blocks = []
    try:
        while True:
            blocks.append(bytearray(1024))
    except MemoryError:
        pass
    blocks = None
    gc.collect()
