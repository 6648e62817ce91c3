# The board's side of the virtual board's side channel: one unix stream socket to the
# supervisor (host/croupier/sim/channel.py holds the host side and documents the messages).
# Host -> board: fixed 4-byte messages, drained without blocking and without allocating
# (Pin.value() drains them on every read). Board -> host: a 4-byte header [kind, arg,
# len_lo, len_hi] followed by len payload bytes.
import os
import socket
import struct
import sys
from time import ticks_diff, ticks_ms, ticks_us

keys = 0  # pressed keys, bit row*4+col: what the matrix's contacts do
# Each key change comes with how long the state before it lasted on the matrix. A change is
# shown when it arrives, once the state before it has been seen: on a board that takes the
# keypad's interrupts, read by as many column reads as a whole scan of the firmware's makes
# (_READ_WAIT_MS at most), then shown _SEEN_MS more (or as long as it lasted, if less); on
# a board that does not, shown _SEEN_MS. A press taken in just before a stop of the pacer's
# (or one struck in the middle of a scan, which it stretches) is still seen by the scans
# after, as a chip's scans see it. A state that lasted _WHOLE_MS or more (a long press, a
# pause) is shown for as long as it lasted. Changes that arrive together (the board was not
# reading: the pacer had it stopped, or it was busy) are shown in turn by the same rule, so
# a board that fell behind the matrix catches up: its lag does not add up from key to key.
_HELD = 16  # key changes that may wait their turn; one more shows the oldest at once
_held = bytearray(3 * _HELD)  # [mask_lo, mask_hi, how long the state before lasted, 4 ms units]
_held_first = 0
_held_count = 0
_SEEN_MS = 40
_WHOLE_MS = 300
_SCAN_READS = 12  # column reads in a whole scan of the firmware's with a key down (4 at rest,
# that key's column once a row, 4 at rest again)
_REST_READS = 8  # ... and with every key up (4 at rest, 4 again)
reads = 0  # keypad column reads since `keys` took its present value (column_read counts them)
_read_at = 0  # ticks_ms when they made a whole scan's worth
_READ_WAIT_MS = 250  # ... and the longest a change waits for them
_keys_since = ticks_ms()  # when `keys` took its present value
_cut_in = 0  # power cut at this many more flash writes (0: not armed)
_tear = 0  # 1: the cut write lands half-done
_sock = None
_inbox = bytearray(64)  # a multiple of 4: a drain never splits a message
_head = bytearray(4)
_reply = bytearray(4)
on_keys = None  # set by machine: called after the key state changed
_paced = os.getenv("CROUPIER_SIM_PACED") == "1"
_spent = 0  # µs spent emulating hardware, not yet reported
_REPORT_US = 20  # report it in steps this large (one message each)
_PAUSE_US = 2000  # an interval this long had a stop of the pacer in it: the host takes them out
_stretch = bytearray(8)  # 'e': [when it ended (ticks_us, low 32 bits), how long (µs)], u32 each


def connect(path):
    global _sock
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(struct.pack("H", socket.AF_UNIX) + path.encode() + b"\0")
    s.setblocking(False)
    _sock = s
    request(83, 0, 0, _inbox)  # 'S': returns once the supervisor's initial state is applied


def _apply(buf, n):
    global _cut_in, _tear
    for i in range(0, n, 4):
        kind = buf[i]
        if kind == 75:  # 'K' key matrix state
            _key_change(buf[i + 1] | buf[i + 2] << 8, buf[i + 3])
        elif kind == 67:  # 'C' arm (or disarm: 0) the power cut
            _cut_in = buf[i + 1] | buf[i + 2] << 8 | (buf[i + 3] & 0x7F) << 16
            _tear = buf[i + 3] >> 7


def _key_change(mask, lasted):
    """Queue the change, then show what is due (held_ms says when a change is)."""
    global _held_count
    if _held_count == _HELD:
        _show_held()
    slot = (_held_first + _held_count) % _HELD * 3
    _held[slot] = mask & 0xFF
    _held[slot + 1] = mask >> 8
    _held[slot + 2] = lasted
    _held_count += 1
    _show_due()


def _show(mask):
    global keys, _keys_since, reads
    keys = mask
    _keys_since = ticks_ms()
    reads = 0
    if on_keys:
        on_keys()


def _show_held():
    global _held_first, _held_count
    slot = _held_first * 3
    _held_first = (_held_first + 1) % _HELD
    _held_count -= 1
    _show(_held[slot] | _held[slot + 1] << 8)


def column_read():
    """machine counts each read of a keypad column: the one that makes a whole scan's worth
    marks when the present state was first read as a scan reads it."""
    global reads, _read_at
    reads += 1
    if reads == _scan_reads():
        _read_at = ticks_ms()


def _scan_reads():
    return _SCAN_READS if keys else _REST_READS


def held_ms():
    """-> ms until the next key change that waits its turn is due (0: now), or -1: none."""
    if not _held_count:
        return -1
    now = ticks_ms()
    shown = ticks_diff(now, _keys_since)
    lasted = _held[_held_first * 3 + 2] * 4
    if on_keys is None:  # nobody takes the keypad's interrupts: no scan to wait for
        due = min(lasted, _SEEN_MS) - shown
    elif reads >= _scan_reads():
        due = min(lasted, _SEEN_MS) - ticks_diff(now, _read_at)
    else:  # not read yet: until it is, or for _READ_WAIT_MS at most
        due = _READ_WAIT_MS - shown
    if lasted >= _WHOLE_MS:
        due = max(due, lasted - shown)
    return due if due > 0 else 0


def _show_due():
    while _held_count and not held_ms():
        _show_held()


_polling = False  # poll() or request() is taking changes in: the pin interrupt handlers
# that a shown change schedules run at MicroPython's next pending check, inside them, and
# their pin reads must not take changes in again (on a chip they run after the C call)


def poll():
    """Apply whatever the supervisor sent; never blocks, never allocates."""
    global _polling
    if _polling:
        return
    _polling = True
    while True:
        try:
            n = _sock.readinto(_inbox)
        except OSError:
            n = None
        if n is None:
            break
        if n == 0:
            raise SystemExit  # the supervisor is gone: end this interpreter
        _apply(_inbox, n)
    _show_due()
    _polling = False  # (an exception here ends the interpreter: nothing to restore)


def take_in():
    """poll(), its time credited as emulated hardware's: a board's wait, idle or console
    read taking the key changes in, where a chip's interrupt would come."""
    t = ticks_us()
    poll()
    spent(t)


def send(kind, arg, payload_len):
    _head[0] = kind
    _head[1] = arg
    _head[2] = payload_len & 0xFF
    _head[3] = payload_len >> 8
    write(_head)


def write(buf):
    n = _try_write(buf)  # the usual case: all of it at once, nothing allocated
    if n == len(buf):
        return
    mv = memoryview(buf)
    while n < len(buf):
        m = _try_write(mv[n:])
        if not m:  # socket buffer full: wait until the supervisor reads
            import select

            p = select.poll()
            p.register(_sock, select.POLLOUT)
            p.poll(1000)
        n += m


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
            _apply(_reply, 4)
    finally:
        _sock.setblocking(False)
        _polling = polling


def _read_exact(buf):
    mv = memoryview(buf)
    got = 0
    while got < len(buf):
        n = _sock.readinto(mv[got:])
        if not n:
            raise SystemExit
        got += n


def spent(t0):
    """The time since t0 (ticks_us) went into emulating hardware: C code or silicon on a
    chip, Python here. A paced board reports it, and the pacer gives it back to the CPU
    budget ('E', the µs in the length field). A long one had a stop of the pacer's in it (or
    a sleep), which only the host knows: it goes out on its own ('e'), for the host to take
    the stops out of it."""
    if not _paced:
        return
    t1 = ticks_us()
    d = ticks_diff(t1, t0)
    if d < _PAUSE_US:
        credit(d)
        return
    struct.pack_into("<II", _stretch, 0, t1 & 0xFFFFFFFF, min(d, 0xFFFFFFFF))
    send(101, 0, 8)  # 'e'
    write(_stretch)


def credit(us):
    """us of host CPU the chip does not spend, reported as emulation time (paced only). The
    chip's clock runs on the CPU time less the credit the host has (pace.ChipClock): credit
    not reported yet puts it ahead by factor x that much (2 ms at 100 x 20 µs), so it goes
    out in small steps. A report's own time is not credited: a send wakes the host's
    thread, which may take the board's core meanwhile, and that wall time is no CPU of its."""
    global _spent
    _spent += us
    if _spent >= _REPORT_US:
        n = _spent if _spent < 65535 else 65535
        _spent -= n
        send(69, 0, n)


def flash_write():
    """Called before every flash write (prog or erase). -> False when power dies at this
    one: the caller may land part of it (a torn write), then calls die()."""
    global _cut_in
    if _sock is None:  # the image tool: no supervisor, no power cuts
        return True
    poll()
    send(87, 0, 0)  # 'W' one more write
    if _cut_in:
        _cut_in -= 1
        if not _cut_in:
            return False
    return True


def tear():
    return _tear


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
