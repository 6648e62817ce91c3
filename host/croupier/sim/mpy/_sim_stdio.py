# Text output cooked as on a board. The ESP32's console turns "\n" into "\r\n" in text
# output (print, sys.stdout.write, tracebacks, the REPL) and leaves sys.stdout.buffer raw.
# The unix port writes both straight to fd 1, and the console pty passes every byte
# unchanged, so the cooking happens here: install() gives the board a `sys` whose stdout
# and stderr cook (_sim_sys), and a print and REPL result printer that write through them.
import builtins
import io
import sys
from time import ticks_us

import _sim_channel as ch

_print = builtins.print


class Cooked(io.IOBase):
    """A board's text stdout: each line end goes out as CR LF; .buffer is the raw stream."""

    buffer = sys.stdout.buffer

    def write(self, data):
        """data: str or bytes-like. -> len(data): the console never writes short."""
        t = ticks_us()
        if isinstance(data, str):
            newline, line_end = "\n", "\r\n"
        else:
            data = bytes(data) if isinstance(data, memoryview) else data
            newline, line_end = b"\n", b"\r\n"
        if newline in data:  # print's own line end is sent without a copy
            self.buffer.write(line_end if data == newline else data.replace(newline, line_end))
        else:
            self.buffer.write(data)
        ch.spent(t)
        return len(data)

    def flush(self):
        pass


stdout = Cooked()
_waiting = []  # the console's non-blocking descriptor (the supervisor opened it), once used


def waiting_input():
    """The console as a stream whose reads return what is waiting, None when nothing."""
    if not _waiting:
        _waiting.append(open(int(ch.env("CONSOLE_WAITING")), "rb"))
    return _waiting[0]


def console_read(limit):
    """The ESP32 board's console_read (firmware/boards/esp32.py): some of the bytes waiting,
    at most limit, never blocking. Here it is one read of the console's non-blocking
    descriptor: a system call of a few µs for the lot, where the chip's C readline spends
    about as long taking them off its ring. Key changes come in after: while a request
    arrives the firmware holds its scans and reads only this, and a chip's pin interrupts
    still come then, their handlers once the read is done. (Taken in first, a change's
    handlers ran at the next pending check inside the emulation, before the read: a
    sample, then its own edges' handlers, and the bytes waited on them.)"""
    data = waiting_input().read(limit) or b""
    ch.take_in()
    return data


def print(*args, sep=" ", end="\n", file=None):  # noqa: A001 (the builtin it replaces)
    _print(*args, sep=sep, end=end, file=stdout if file is None else file)


def __repl_print__(obj):  # noqa: N807 (the builtin the REPL's compiled code calls)
    """The friendly REPL's result printer: repr and a line end, and `_` set, as the C one."""
    if obj is not None:
        _print(repr(obj), file=stdout)
        builtins._ = obj


def install():
    """From now on `import sys` gives _sim_sys, and print and REPL results are cooked."""
    import _sim_sys

    sys.modules["sys"] = _sim_sys
    builtins.print = print
    builtins.__repl_print__ = __repl_print__
