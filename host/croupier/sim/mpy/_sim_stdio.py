# The board's console as the ESP32 port's C code makes it, for the release the supervisor
# picked (CROUPIER_SIM_RELEASE, 1.22 .. 1.28): sys.stdin, sys.stdout and their .buffer, and
# os.dupterm. install() gives programs a `sys` (_sim_sys) and an `os` (_sim_os) that hold
# them, and a print and REPL result printer that write through the cooked stdout.
#
# Input: the console pty is the port's stdin ring (ports/esp32/mphalport.c,
# stdin_ringbuf_array[260]); the supervisor fills it as the UART interrupt does (259 bytes at
# most, in the FIFO's batches) and drops what does not fit. Output: the ESP32's console turns
# "\n" into "\r\n" in text output (print, sys.stdout.write, tracebacks, the REPL) and leaves
# sys.stdout.buffer raw; the unix port writes both straight to fd 1 and the pty passes bytes
# unchanged, so the cooking happens here.
import builtins
import io
import select
import sys

import _sim_channel as ch

_print = builtins.print
RELEASE = tuple(int(n) for n in ch.env("RELEASE", "1.28").split("."))
# mp_hal_stdin_rx_chr asks dupterm for a byte when the ring is empty from v1.28.0 (commit
# a63cc639, ports/esp32/mphalport.c); v1.22.0 .. v1.27.0 wait on the ring alone.
DUPTERM_READS = RELEASE >= (1, 28)
# mp_hal_stdio_poll includes mp_os_dupterm_poll from v1.24.0 (ports/esp32/mphalport.c);
# v1.22.0 and v1.23.0 look at the ring alone.
DUPTERM_POLLS = RELEASE >= (1, 24)
# Modules a release's ESP32 build lacks, of those the unix port has: vfs came in v1.23.0.
MISSING = {(1, 22): ("vfs",)}.get(RELEASE, ())
TICK_MS = 10  # MICROPY_EVENT_POLL_HOOK sleeps one FreeRTOS tick (CONFIG_FREERTOS_HZ=100) at most

_CONSOLE = 0  # the console pty, blocking, as the interpreter's stdin
_GET_FILENO, _POLL, _CLOSE = 10, 3, 4  # MP_STREAM_* ioctl requests (py/stream.h)
_EINVAL = 22
_ring = []  # the console's non-blocking descriptor (the supervisor opened it), once used
_waiter = []  # a poll on the console and the side channel, for a read that must wait
_ring_poll = []  # a poll on the console alone
_one = bytearray(1)
_dupterm = [None]  # os.dupterm's slot: the ESP32 build has one (MICROPY_PY_OS_DUPTERM=1)
_native_out = sys.stdout.buffer


def _ring_end():
    if not _ring:
        _ring.append(open(int(ch.env("CONSOLE_WAITING")), "rb"))
    return _ring[0]


def _ring_take(dest):
    """ringbuf_get while the ring has bytes, up to len(dest) of them. -> how many (0: empty)."""
    try:
        n = _ring_end().readinto(dest)
    except OSError:
        n = 0
    if n == 0:
        raise SystemExit  # the console is gone: the supervisor is stopping this interpreter
    return n or 0


def _wait(ms):
    """MICROPY_EVENT_POLL_HOOK: pending callbacks run (the poll runs them first), then sleep
    until input, a key change (the pin interrupts' source) or ms (-1: no limit)."""
    if not _waiter:
        p = select.poll()
        p.register(_CONSOLE, select.POLLIN)
        p.register(ch._sock, select.POLLIN)
        _waiter.append(p)
    due = ch.due_in(1)  # a held key change: its pin interrupt is due then
    if due > 0 and (ms < 0 or due < ms):
        ms = due
    for _ in _waiter[0].ipoll(ms):  # ipoll: nothing allocated
        break
    ch.poll()


def rx_chr():
    """One byte of input, waiting as long as it takes: ports/esp32/mphalport.c
    mp_hal_stdin_rx_chr (v1.22.0 .. v1.28.0) loops on the ring and, from v1.28.0, asks dupterm
    when the ring is empty; between tries it runs the pending callbacks and sleeps a tick."""
    while True:
        if _ring_take(_one):
            return _one[0]
        if DUPTERM_READS and _dupterm[0] is not None:
            c = _dupterm_rx()
            if c >= 0:
                return c
            _wait(TICK_MS)  # the stream is asked again at the next tick
        else:
            _wait(-1)


def _take(buf, cr_to_nl, line=False):
    """buf filled to its end (or, for a line, its first \\n): shared/runtime/sys_stdio_mphal.c
    stdio_read and stdio_buffer_read call mp_hal_stdin_rx_chr once a byte, so a read of n
    blocks until n came; the text stream turns \\r into \\n (stdio_read). What the ring
    holds is taken at once, the rest a
    byte at a time as it comes; a line byte by byte. The key changes that came meanwhile
    are taken in after it, so their pin interrupts' handlers run once it is done. A read
    that the ring fills at once allocates nothing, as the chip's. -> bytes put in buf."""
    n = 0
    while n < len(buf):
        got = 0 if line else _ring_take(memoryview(buf)[n:] if n else buf)
        if not got:
            buf[n] = rx_chr()
            got = 1
        if cr_to_nl:
            for i in range(n, n + got):
                if buf[i] == 13:
                    buf[i] = 10
        n += got
        if line and buf[n - 1] == 10:  # a byte at a time
            break
    ch.poll()
    return n


def _read(stream, n):
    """stream.read(n): n bytes (n < 0: until the console closes, py/stream.c stream_readall)."""
    if n is not None and n >= 0:
        buf = bytearray(n)
        stream.readinto(buf)
        return bytes(buf)
    out = bytearray()
    while True:
        out += stream.read(1)


def _readline(limit, cr_to_nl):
    """py/stream.c stream_unbuffered_readline: byte by byte until \\n or limit bytes."""
    if limit is not None and limit >= 0:
        buf = bytearray(limit)
        return bytes(buf[:_take(buf, cr_to_nl, True)])
    out = bytearray()
    chunk = bytearray(64)
    while not out or out[-1] != 10:
        out += chunk[:_take(chunk, cr_to_nl, True)]
    return bytes(out)


def _poll(flags):
    """mp_hal_stdio_poll: readable when the ring holds a byte, or (from v1.24.0) when the
    dupterm stream says it is; always writable."""
    ready = flags & select.POLLOUT
    if flags & select.POLLIN:
        if not _ring_poll:
            p = select.poll()
            p.register(_CONSOLE, select.POLLIN)
            _ring_poll.append(p)
        for _ in _ring_poll[0].ipoll(0):
            ready |= select.POLLIN
    s = _dupterm[0]
    if DUPTERM_POLLS and s is not None and ready != flags:
        try:  # os_dupterm.c mp_os_dupterm_poll: an error counts as not ready
            ready |= s.ioctl(_POLL, flags) & flags
        except Exception:  # noqa: BLE001 (any error of the stream's own ioctl)
            pass
    return ready


def _ioctl(request, arg):
    """The console's ioctl (sys_stdio_mphal.c stdio_ioctl). select.poll asks an object for
    its file descriptor first (extmod/modselect.c, MICROPY_PY_SELECT_POSIX_OPTIMISATIONS)
    and then polls it natively: the console's is the ring. While a dupterm stream is lent
    to a release whose poll includes it there is none: a poll registered then asks POLL."""
    if request == _GET_FILENO:
        return -_EINVAL if DUPTERM_POLLS and _dupterm[0] is not None else _CONSOLE
    if request == _POLL:
        return _poll(arg)
    if request == _CLOSE:
        return 0
    return -_EINVAL


class Buffer(io.IOBase):
    """sys.stdin.buffer and sys.stdout.buffer: one object on the ESP32 (sys_stdio_mphal.c
    stdio_buffer_obj), raw bytes both ways."""

    def readinto(self, buf):
        return _take(buf, False)

    def read(self, n=-1):
        return _read(self, n)

    def readline(self, limit=-1):
        return _readline(limit, False)

    def write(self, data):
        """-> len(data): mp_hal_stdout_tx_strn, the UART and any dupterm stream."""
        _out(data)
        return len(data)

    def ioctl(self, request, arg):
        return _ioctl(request, arg)

    def flush(self):
        pass


def _out(data):
    """mp_hal_stdout_tx_strn (ports/esp32/mphalport.c, v1.22.0 .. v1.28.0): the UART, and
    a dupterm stream when one is lent (mp_os_dupterm_tx_strn)."""
    _native_out.write(data)
    s = _dupterm[0]
    if s is not None:
        try:
            s.write(data)
        except Exception as e:  # noqa: BLE001 (os_dupterm.c: any error of write() deactivates)
            _deactivate("dupterm: Exception in write() method, deactivating: ", e)


class Stdin(io.IOBase):
    """sys.stdin: text, \\r read as \\n (sys_stdio_mphal.c stdio_read); read and readline
    give str."""

    buffer = None  # set below: the console's Buffer

    def readinto(self, buf):
        return _take(buf, True)

    def read(self, n=-1):
        """n characters (py/stream.c stream_read_generic reads on to the end of a character
        that is not ASCII)."""
        if n is None or n < 0:
            return _read(self, n).decode()
        out = bytearray()
        for _ in range(n):
            self.readinto(_one)
            out += _one
            lead = _one[0]
            tail = 0 if lead < 0xC0 else 1 if lead < 0xE0 else 2 if lead < 0xF0 else 3
            if tail:
                out += _read(self, tail)
        return out.decode()

    def readline(self, limit=-1):
        return _readline(limit, True).decode()

    def ioctl(self, request, arg):
        return _ioctl(request, arg)


class Cooked(io.IOBase):
    """A board's text stdout: each line end goes out as CR LF; .buffer is the raw stream."""

    def write(self, data):
        """data: str or bytes-like. -> len(data): the console never writes short."""
        if isinstance(data, str):
            newline, line_end = "\n", "\r\n"
        else:
            data = bytes(data) if isinstance(data, memoryview) else data
            newline, line_end = b"\n", b"\r\n"
        if newline in data:  # print's own line end is sent without a copy
            _out(line_end if data == newline else data.replace(newline, line_end))
        else:
            _out(data)
        return len(data)

    def flush(self):
        pass

    def ioctl(self, request, arg):
        return _ioctl(request, arg)


buffer = Buffer()
stdout = Cooked()
stdout.buffer = Stdin.buffer = buffer
stdin = Stdin()


def dupterm(stream, index=0):
    """os.dupterm (extmod/os_dupterm.c, v1.22.0 .. v1.28.0): lend the console a stream
    (None: take it back). -> the stream lent before, or None. Output goes to it too; what
    it gives is read when the ring is empty from v1.28.0 (rx_chr) and counts in a poll of
    stdin from v1.24.0 (_poll)."""
    if index != 0:
        raise ValueError("invalid dupterm index")
    if stream is not None and not (hasattr(stream, "readinto") and hasattr(stream, "write")):
        raise TypeError("stream operation not supported")
    lent, _dupterm[0] = _dupterm[0], stream
    return lent


def _dupterm_rx():
    """os_dupterm.c mp_os_dupterm_rx_chr: a byte from the lent stream, -1 when it has none
    now. EOF or an error takes the stream away; a Ctrl-C from it interrupts (kbd_intr(3))."""
    s = _dupterm[0]
    try:
        n = s.readinto(_one)
    except Exception as e:  # noqa: BLE001 (any error of the stream's read)
        _deactivate("dupterm: Exception in read() method, deactivating: ", e)
        return -1
    if n is None:
        return -1
    if not n:
        _deactivate("dupterm: EOF received, deactivating\n")
        return -1
    if _one[0] == 3:
        raise KeyboardInterrupt
    return _one[0]


def _deactivate(message, exc=None):
    """os_dupterm.c mp_os_deactivate: the stream is taken away, the reason printed on the
    UART, and the stream closed (errors ignored)."""
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


_import = builtins.__import__


def _import_present(name, *args):
    """__import__ for a release that lacks some of the unix port's modules (MISSING)."""
    if name in MISSING:
        raise ImportError("no module named '%s'" % name)
    return _import(name, *args)


def install():
    """From now on `import sys` gives _sim_sys and `import os` _sim_os, print and REPL
    results are cooked, and the modules the release lacks are absent."""
    import _sim_os
    import _sim_sys

    sys.modules["sys"] = _sim_sys
    sys.modules["os"] = _sim_os
    builtins.print = print
    builtins.__repl_print__ = __repl_print__
    if MISSING:
        builtins.__import__ = _import_present
