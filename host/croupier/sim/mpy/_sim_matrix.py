# The keypad matrix under machine.Pin on the virtual board, electrically: a pressed key
# joins its row line and column line, so an input reads what the lines it is joined to are
# driven to, else its pull; pin interrupts fire when a key change or a driven row moves an
# armed pin's level (_sim_channel shows the key changes).
from micropython import schedule

import _sim_channel as _ch

_out = bytearray(40)  # level each pin drives when it is an output
_mode = bytearray(40)  # 0 (unset, high-Z), Pin.IN, Pin.OUT or Pin.OPEN_DRAIN
_pull = bytearray(40)  # 0, Pin.PULL_DOWN or Pin.PULL_UP
_line = bytearray(b"\xff" * 40)  # keypad line of a GPIO: rows 0-3, columns 4-7
_lines = bytearray(8)  # GPIO of each keypad line


def _setup_keypad(spec):
    rows, cols = spec.split("/")
    for i, gpio in enumerate([int(n) for n in rows.split(",")] + [int(n) for n in cols.split(",")]):
        _line[gpio] = i
        _lines[i] = gpio


_setup_keypad(_ch.env("KEYPAD", "32,33,25,26/27,14,4,18"))


_groups = bytearray(8)  # _joined() of each keypad line, for the key state _groups_of
_groups_of = -1


def _group(line):
    """_joined(line), worked out once per key state (a scan reads 16 pins of one state)."""
    global _groups_of
    if _groups_of != _ch.keys:
        for i in range(8):
            _groups[i] = 0
        _groups_of = _ch.keys
    group = _groups[line]
    if not group:
        group = _groups[line] = _joined(line)
    return group


def _joined(line):
    """Bitmask of the keypad lines joined to `line` through pressed keys (ghosting
    included: three keys at the corners of a rectangle join the fourth corner)."""
    keys = _ch.keys
    group = 1 << line
    grown = True
    while grown:
        grown = False
        for k in range(16):
            if keys >> k & 1:
                a = 1 << (k >> 2)  # row line
                b = 1 << (4 + (k & 3))  # column line
                if bool(group & a) != bool(group & b):
                    group |= a | b
                    grown = True
    return group


def _driven(gpio):
    """-> 0/1 when the pin drives its line, else -1."""
    m = _mode[gpio]
    if m == 3 or (m == 7 and not _out[gpio]):
        return _out[gpio]
    return -1


def _level(gpio):
    """What the pin reads: its own level as an output, else its line's."""
    if _mode[gpio] == 3:
        return _out[gpio]
    line = _line[gpio]
    if line != 0xFF and _ch.keys:
        group = _group(line)
        high = False
        for i in range(8):
            if i != line and group >> i & 1:
                d = _driven(_lines[i])
                if d == 0:
                    return 0  # a low driver wins over a high one and any pull
                if d == 1:
                    high = True
        if high:
            return 1
    return 1 if _pull[gpio] == 2 else 0


_irqs = {}  # gpio -> [pin, handler, trigger, last level]


def _drive(gpio, level):
    """Set the level an output drives. A keypad row's change moves every column a pressed
    key joins it to, and their interrupts fire then, as on the chip (a scan with a key held
    raises edges of its own). Else a column's last level could be one a scan drove, and the
    change that followed at rest would raise no interrupt."""
    if _out[gpio] == level:
        return
    _out[gpio] = level
    line = _line[gpio]
    if _irqs and line < 4 and _ch.keys >> 4 * line & 0xF:  # a key down in this row
        _check_irqs(_group(line))


def _check_irqs(lines=0xFF):
    """Schedule the handler of each armed pin whose level changed: those on the keypad
    `lines` (a bit mask: the ones a driven row moves), or any."""
    for gpio in _irqs:
        line = _line[gpio]
        if line != 0xFF and not lines >> line & 1:
            continue
        entry = _irqs[gpio]
        now = _level(gpio)
        if now != entry[3]:
            entry[3] = now
            if entry[2] & (1 if now else 2):  # IRQ_RISING / IRQ_FALLING
                try:
                    schedule(entry[1], entry[0])
                except RuntimeError:
                    pass  # its queue is full: the chip's interrupt drops the edge too
