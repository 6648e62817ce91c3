# Runs on MicroPython (a script, or sent to a board's raw REPL as text): fill a littlefs
# until it takes no more, and free it again.
import os


def fill(folder):
    """Files of shrinking sizes in folder ("" for the root) until littlefs refuses more."""
    n = 0
    for size in (4096, 512, 64, 8, 1):
        while True:
            try:
                with open("%s/fill%d" % (folder, n), "wb") as f:
                    f.write(b"x" * size)
                n += 1
            except OSError:
                break
    return n


def free(folder):
    for name in os.listdir(folder or "/"):
        if name.startswith("fill"):
            os.remove("%s/%s" % (folder, name))
