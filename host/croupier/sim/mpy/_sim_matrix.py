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
for _i, _gpio in enumerate(_ch.env("KEYPAD", "32,33,25,26/27,14,4,18").replace("/", ",").split(",")):
    _line[int(_gpio)] = _i


_groups = bytearray(8)  # bit mask of the keypad lines joined to each, in the key state _grouped
_grouped = -1


def _group(line):
    """The lines joined to `line` through pressed keys (ghosting included: three keys at the
    corners of a rectangle join the fourth corner), worked out for all once a key state."""
    global _grouped
    keys = _ch.keys
    if _grouped != keys:
        _grouped = keys
        for i in range(8):
            _groups[i] = 1 << i
        for k in range(16):
            if keys >> k & 1:  # joins its row's group (line k // 4) and its column's (4 + k % 4)
                joined = _groups[k >> 2] | _groups[4 + (k & 3)]
                for i in range(8):
                    if joined >> i & 1:
                        _groups[i] = joined
    return _groups[line]


_low = 0  # keypad lines a pin drives low, bit per line
_high = 0  # and high


def _level(gpio):
    """What the pin reads: its own level as an output, else its line's: a low driver on a
    line joined to it wins over a high one and any pull."""
    if _mode[gpio] == 3:
        return _out[gpio]
    line = _line[gpio]
    if line != 0xFF and _ch.keys:
        others = _group(line) & ~(1 << line)
        if others & _low:
            return 0
        if others & _high:
            return 1
    return 1 if _pull[gpio] == 2 else 0


_irqs = {}  # gpio -> [pin, handler, trigger, last level]


def _drive(gpio, level):
    """Set the level an output drives (and keep _low and _high: an open drain drives only
    0). A keypad row's change moves every column a pressed key joins it to, and their
    interrupts fire then, as on the chip (a scan with a key held raises edges of its own).
    Else a column's last level could be one a scan drove, and the change that followed at
    rest would raise no interrupt."""
    global _low, _high
    line = _line[gpio]
    if line == 0xFF:
        _out[gpio] = level
        return
    changed = _out[gpio] != level
    _out[gpio] = level
    bit = 1 << line
    drives = _mode[gpio] == 3 or (_mode[gpio] == 7 and not level)
    _low = _low & ~bit | (bit if drives and not level else 0)
    _high = _high & ~bit | (bit if drives and level else 0)
    if changed and _irqs and line < 4 and _ch.keys >> 4 * line & 0xF:  # a key down in this row
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
