# The board's console as the ESP32 port's C code makes it, for the release the supervisor
# picked (CROUPIER_SIM_RELEASE, 1.22 .. 1.28): sys.stdin, sys.stdout and their .buffer, and
# os.dupterm. The console pty is the port's stdin ring, which the supervisor fills as the UART
# interrupt does (croupier.sim.uart). The pty passes bytes unchanged, so text output's "\n"
# becomes "\r\n" here, as the ESP32's console does it.
import builtins
import io
import select
import sys

import _sim_channel as ch

_print = builtins.print
RELEASE = tuple(int(n) for n in ch.env("RELEASE", "1.28").split("."))
# ports/esp32/mphalport.c: mp_hal_stdin_rx_chr asks dupterm once the ring is empty from
# v1.28.0 (commit a63cc639), mp_hal_stdio_poll includes mp_os_dupterm_poll from v1.24.0.
DUPTERM_READS = RELEASE >= (1, 28)
DUPTERM_POLLS = RELEASE >= (1, 24)
# Modules a release's ESP32 build lacks, of those the unix port has: vfs came in v1.23.0.
MISSING = {(1, 22): ("vfs",)}.get(RELEASE, ())
TICK_MS = 10  # MICROPY_EVENT_POLL_HOOK sleeps one FreeRTOS tick (CONFIG_FREERTOS_HZ=100) at most

_CONSOLE = 0  # the console pty, blocking, as the interpreter's stdin
_GET_FILENO, _POLL = 10, 3  # MP_STREAM_* ioctl requests (py/stream.h)
_EINVAL, _EPERM = 22, 1
_ring = open(int(ch.env("CONSOLE_WAITING")), "rb")  # the console, non-blocking: the ring
_ring_poll = select.poll()  # the ring alone
_ring_poll.register(_CONSOLE, select.POLLIN)
_waiter = select.poll()  # the ring and (install() adds it) the side channel: a read's wait
_waiter.register(_CONSOLE, select.POLLIN)
_one = bytearray(1)
_dupterm = [None]  # os.dupterm's slot: the ESP32 build has one (MICROPY_PY_OS_DUPTERM=1)
_native_out = sys.stdout.buffer


def _ring_take(dest):
    """ringbuf_get up to len(dest) times. -> bytes taken (0: the ring is empty)."""
    try:
        n = _ring.readinto(dest)
    except OSError:
        n = 0
    if n == 0:
        raise SystemExit  # the console is gone: the supervisor is stopping this interpreter
    return n or 0


def rx_chr():
    """mp_hal_stdin_rx_chr (ports/esp32/mphalport.c, v1.22.0 .. v1.28.0): one byte, waiting
    on the ring (and DUPTERM_READS the stream) as long as it takes."""
    while True:
        if _ring_take(_one):
            return _one[0]
        ms = -1
        s = _dupterm[0]
        if DUPTERM_READS and s is not None:
            # os_dupterm.c mp_os_dupterm_rx_chr: EOF or an error takes the stream away; a
            # Ctrl-C from it interrupts (kbd_intr(3)); with no byte now it is asked next tick
            try:
                n = s.readinto(_one)
            except Exception as e:  # noqa: BLE001 (any error of the stream's read)
                _deactivate("dupterm: Exception in read() method, deactivating: ", e)
                n = None
            if n == 0:
                _deactivate("dupterm: EOF received, deactivating\n")
            elif n:
                if _one[0] == 3:
                    raise KeyboardInterrupt
                return _one[0]
            ms = TICK_MS
        # MICROPY_EVENT_POLL_HOOK: pending callbacks run (the poll runs them first), then a
        # sleep until input, a key change (the pin interrupts' source, due_in) or ms
        due = ch.due_in(1)
        if due > 0 and (ms < 0 or due < ms):
            ms = due
        for _ in _waiter.ipoll(ms):  # ipoll: nothing allocated
            break
        ch.poll()


class Stdio(io.IOBase):
    """sys.stdin (fd 0) and sys.stdout (fd 1), text: \\r read as \\n, each \\n written as \\r\\n,
    the other direction EPERM; and their .buffer (fd None), raw bytes both ways: as
    shared/runtime/sys_stdio_mphal.c stdio_obj_type and stdio_buffer_obj_type (no flush)."""

    def __init__(self, fd):
        self.fd = fd

    def readinto(self, buf):
        """-> len(buf) once it came (stdio_read calls mp_hal_stdin_rx_chr once a byte). Key
        changes that came meanwhile are taken in after it, so their pin interrupts' handlers
        run once it is done. A read the ring fills at once allocates nothing, as the chip's."""
        if self.fd == 1:
            raise OSError(_EPERM)
        n = 0
        while n < len(buf):
            got = _ring_take(memoryview(buf)[n:] if n else buf)
            if not got:
                buf[n] = rx_chr()
                got = 1
            if self.fd == 0:
                for i in range(n, n + got):
                    if buf[i] == 13:
                        buf[i] = 10
            n += got
        ch.poll()
        return n

    def read(self, n=-1):
        """py/stream.c stream_read_generic: n bytes, or n characters of text (one that is not
        ASCII read to its end); n < 0 reads until the console ends, which it never does."""
        if n is None or n < 0:
            while True:
                self.readinto(_one)
        if self.fd != 0:
            buf = bytearray(n)
            self.readinto(buf)
            return bytes(buf)
        out = bytearray()
        for _ in range(n):
            self.readinto(_one)
            out += _one
            lead = _one[0]
            if lead >= 0xC0:
                tail = bytearray(1 if lead < 0xE0 else 2 if lead < 0xF0 else 3)
                self.readinto(tail)
                out += tail
        return out.decode()

    def readline(self, limit=-1):
        """py/stream.c stream_unbuffered_readline: byte by byte until \\n or limit bytes."""
        if self.fd == 1:
            raise OSError(_EPERM)
        line = bytearray()
        while len(line) != limit and not (line and line[-1] == 10):
            c = rx_chr()
            line.append(10 if c == 13 and self.fd == 0 else c)
        ch.poll()  # as readinto: key changes taken in once the line is
        return line.decode() if self.fd == 0 else bytes(line)

    def write(self, data):
        """data: str or bytes-like. -> len(data): the console never writes short."""
        if self.fd == 0:
            raise OSError(_EPERM)
        n = len(data)
        if self.fd == 1:  # mp_hal_stdout_tx_strn_cooked
            if isinstance(data, memoryview):
                data = bytes(data)
            newline, line_end = ("\n", "\r\n") if isinstance(data, str) else (b"\n", b"\r\n")
            # print's own line end is sent without a copy; replace() returns data itself
            # when it holds no line end
            data = line_end if data == newline else data.replace(newline, line_end)
        _native_out.write(data)  # mp_hal_stdout_tx_strn: the UART and the dupterm stream
        s = _dupterm[0]
        if s is not None:
            try:
                s.write(data)
            except Exception as e:  # noqa: BLE001 (os_dupterm.c: any error of write() deactivates)
                _deactivate("dupterm: Exception in write() method, deactivating: ", e)
        return n

    def ioctl(self, request, arg):
        """stdio_ioctl. select.poll polls an object's file descriptor natively when it has one
        (extmod/modselect.c): the ring's, unless a dupterm stream counts in the poll."""
        lent = _dupterm[0] if DUPTERM_POLLS else None
        if request == _GET_FILENO:
            return _CONSOLE if lent is None else -_EINVAL
        if request != _POLL:
            return -_EINVAL
        # mp_hal_stdio_poll: readable when the ring or (DUPTERM_POLLS) the stream says so
        ready = arg & select.POLLOUT
        if arg & select.POLLIN:
            for _ in _ring_poll.ipoll(0):
                ready |= select.POLLIN
        if lent is not None and ready != arg:
            try:  # os_dupterm.c mp_os_dupterm_poll: an error counts as not ready
                ready |= lent.ioctl(_POLL, arg) & arg
            except Exception:  # noqa: BLE001 (any error of the stream's own ioctl)
                pass
        return ready


stdin = Stdio(0)
stdout = Stdio(1)
Stdio.buffer = Stdio(None)  # one object for both, whose .buffer is itself, as on the ESP32


def dupterm(stream, index=0):
    """os.dupterm (extmod/os_dupterm.c): lend a stream (None: take it back). -> the one before."""
    if index != 0:
        raise ValueError("invalid dupterm index")
    if stream is not None and not (hasattr(stream, "readinto") and hasattr(stream, "write")):
        raise TypeError("stream operation not supported")
    lent, _dupterm[0] = _dupterm[0], stream
    return lent


def _deactivate(message, exc=None):
    """os_dupterm.c mp_os_deactivate: the stream taken away, why printed, the stream closed."""
    s, _dupterm[0] = _dupterm[0], None
    _native_out.write(message.encode())
    if exc is not None:
        sys.print_exception(exc, _native_out)
    try:
        s.close()
    except Exception:  # noqa: BLE001,S110 (mp_os_deactivate ignores them)
        pass


def print(*args, sep=" ", end="\n", file=None):  # noqa: A001 (the builtin it replaces)
    _print(*args, sep=sep, end=end, file=stdout if file is None else file)


def __repl_print__(obj):  # noqa: N807 (the builtin the REPL's compiled code calls)
    """The friendly REPL's result printer: repr and a line end, and `_` set, as the C one."""
    if obj is not None:
        _print(repr(obj), file=stdout)
        builtins._ = obj


def _import_present(name, *args, _import=builtins.__import__):
    """__import__ for a release that lacks some of the unix port's modules (MISSING)."""
    if name in MISSING:
        raise ImportError("no module named '%s'" % name)
    return _import(name, *args)


def install():
    """Once the side channel is connected: `import sys` and `import os` give _sim_sys and
    _sim_os, print and REPL results are cooked, and the modules the release lacks are absent."""
    import _sim_os
    import _sim_sys

    _waiter.register(ch._sock, select.POLLIN)
    sys.modules["sys"] = _sim_sys
    sys.modules["os"] = _sim_os
    builtins.print = print
    builtins.__repl_print__ = __repl_print__
    if MISSING:
        builtins.__import__ = _import_present
