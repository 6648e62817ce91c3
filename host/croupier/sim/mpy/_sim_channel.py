# The board's side of the virtual board's side channel: one unix stream socket to the
# supervisor (host/croupier/sim/channel.py holds the host side and documents the messages
# and their framing). The host's are drained without blocking and without allocating
# (a pin read drains them, at most once a ms).
import os
import select
import socket
import struct
import sys
from micropython import schedule
from time import ticks_add, ticks_diff, ticks_ms

keys = 0  # pressed keys, bit row*4+col: what the matrix's contacts do
# A key change is shown once the state before it has been shown as long as it lasted on the
# host (4 ms units), and not before it comes: a paced board, stopped by its throttle, takes
# the changes made meanwhile one by one, as a tap would else be shorter on its clock than the
# debounce. Each state counts _CATCH_UP_MS less, so a board behind the host (stopped, or its
# bytecode read no pin when a change fell due) catches up by that much a change, and its
# lateness does not add up over a burst.
_CATCH_UP_MS = 20  # a scan period
_shown_at = 0  # ticks_ms when `keys` took its present value
_HELD = 256  # key changes waiting their turn: as many as a busy paced board falls behind by
# (else the host's typing would wait on a full socket); one more shows the oldest at once
_held = bytearray(3 * _HELD)  # [mask_lo, mask_hi, lasted]
_held_first = 0
_held_count = 0
_cut_in = 0  # power cut at this many more flash writes (0: not armed)
tear = 0  # 1: the cut write lands half-done
_sock = None
_writable = select.poll()  # the socket, once connected: a write's wait
_inbox = bytearray(4)  # one message at a time: a key change may stop the drain
_head = bytearray(4)
_reply = bytearray(4)
on_keys = None  # set by machine: called after the key state changed
on_i2s = None  # set by machine: called with an I2S id when one of its writes is in DMA memory
on_polled = None  # called once poll() took the messages in: set by on_i2s while handlers are due


def connect(path):
    global _sock, _shown_at
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(struct.pack("H", socket.AF_UNIX) + path.encode() + b"\0")
    s.setblocking(False)
    _sock = s
    _writable.register(s, select.POLLOUT)
    _shown_at = ticks_ms()  # the first state and change come with no length (side.py): due at once
    request(83, 0, 0, _inbox)  # 'S': returns once the supervisor's initial state is applied


def _apply(msg):
    """Act on one 4-byte message from the supervisor."""
    global _cut_in, tear
    kind = msg[0]
    if kind == 75:  # 'K' key matrix state
        _hold(msg[1], msg[2], msg[3])
    elif kind == 67:  # 'C' arm (or disarm: 0) the power cut
        _cut_in = msg[1] | msg[2] << 8 | (msg[3] & 0x7F) << 16
        tear = msg[3] >> 7
    elif kind == 65:  # 'A' an I2S write is in DMA memory
        on_i2s(msg[1])


_edge_pending = False  # a key change's pin interrupts are scheduled and have not run yet:
# poll() takes no more changes until they have, as each edge interrupts a chip in turn


def _hold(lo, hi, lasted):
    global _held_count
    if _held_count == _HELD:
        _show()
    at = 3 * ((_held_first + _held_count) % _HELD)
    _held[at], _held[at + 1], _held[at + 2] = lo, hi, lasted
    _held_count += 1


def due_in(least=0):
    """ms until the oldest held key change is due (0: now), or -1 with none held; a wait asks
    for at least 1, as a change due now may wait on the pin interrupts of the one before."""
    if not _held_count:
        return -1
    due = ticks_add(_shown_at, 4 * _held[3 * _held_first + 2] - _CATCH_UP_MS)
    return max(least, ticks_diff(due, ticks_ms()))


def _show():
    global _held_first, _held_count
    at = 3 * _held_first
    _held_first = (_held_first + 1) % _HELD
    _held_count -= 1
    _key_change(_held[at] | _held[at + 1] << 8)


def _key_change(mask):
    global keys, _edge_pending, _shown_at
    keys = mask
    _shown_at = ticks_ms()
    if on_keys:
        on_keys()
        try:
            schedule(_edge_taken, None)  # after the handlers on_keys scheduled
            _edge_pending = True
        except RuntimeError:
            pass  # the queue is full: the chip's interrupts drop edges too


def _edge_taken(_):
    global _edge_pending
    _edge_pending = False


_polling = False  # poll() or request() is taking changes in: the pin interrupt handlers
# that a shown change schedules run at MicroPython's next pending check, inside them, and
# their pin reads must not take changes in again (on a chip they run after the C call)


def poll():
    """Take in what the supervisor sent and show the key changes that are due, up to one
    whose pin interrupts are still to run; never blocks, never allocates."""
    global _polling
    if _polling:
        return
    _polling = True
    while True:
        while _held_count and not _edge_pending and not due_in():
            _show()
        if _held_count == _HELD:
            break  # the rest waits in the socket, in order
        try:
            n = _sock.readinto(_inbox)
        except OSError:
            n = None
        if n is None:
            break
        if n == 0:
            raise SystemExit  # the supervisor is gone: end this interpreter
        _apply(_inbox)
    _polling = False  # (an exception here ends the interpreter: nothing to restore)
    if on_polled:
        on_polled()


def send(kind, arg, payload_len):
    struct.pack_into("<BBH", _head, 0, kind, arg, payload_len)  # channel.py's header; allocates nothing
    write(_head)


def write(buf):
    n = _try_write(buf)  # the usual case: all of it at once, nothing allocated
    while n < len(buf):  # the socket's buffer is full: wait until the supervisor reads
        _writable.poll(1000)
        n += _try_write(memoryview(buf)[n:])


def _try_write(buf):
    try:
        return _sock.write(buf) or 0
    except OSError:
        return 0


def request(kind, arg, count, out):
    """Ask for `count` bytes (a header without payload) and wait for the 'R' reply: its
    payload goes into out. -> its status byte (0: acknowledged)."""
    global _polling
    send(kind, arg, count)
    _sock.setblocking(True)
    polling, _polling = _polling, True
    try:
        while True:
            _read_exact(_reply)
            if _reply[0] == 82:  # 'R' [R, status, len_lo, len_hi] + payload
                n = _reply[2] | _reply[3] << 8
                if n:
                    _read_exact(memoryview(out)[:n])
                return _reply[1]
            _apply(_reply)
    finally:
        _sock.setblocking(False)
        _polling = polling


def wait():
    """Block until the supervisor's next message and act on it (a blocking I2S write)."""
    _sock.setblocking(True)
    try:
        _read_exact(_inbox)
    finally:
        _sock.setblocking(False)
    _apply(_inbox)


def _read_exact(buf):
    mv = memoryview(buf)
    got = 0
    while got < len(buf):
        n = _sock.readinto(mv[got:])
        if not n:
            raise SystemExit
        got += n


def flash_write(busy_us):
    """Called before every flash write (prog or erase) that keeps the chip's flash busy
    busy_us. -> False when power dies at this one: the caller may land part of it (a torn
    write), then calls die()."""
    global _cut_in
    if _sock is None:  # the image tool: no supervisor, no power cuts
        return True
    poll()
    send(87, 0, min(busy_us, 65535))  # 'W' one more write
    if _cut_in:
        _cut_in -= 1
        return _cut_in != 0
    return True


def die(kind):
    """Ask the supervisor to stop this interpreter now ('X' power cut, 'H' reset) and wait
    for it: nothing after this point runs."""
    send(kind, 0, 0)
    _sock.setblocking(True)
    while _sock.readinto(_inbox):
        pass
    sys.exit(70)  # unreachable unless the supervisor went away


def env(name, default=None):
    return os.getenv("CROUPIER_SIM_" + name) or default
