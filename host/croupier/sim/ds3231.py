"""The DS3231 real-time clock as the I2C bus sees it: a register pointer and 19 registers.

The time registers (BCD, 12- or 24-hour as last written) read the host's clock plus an
offset, latched at each transaction's start. The offset and the oscillator-stop flag live in
a coin-cell file beside the flash image (none yet: OSF set, from 2000-01-01). Alarms and
aging are kept, not simulated; the temperature reads 25.00 degrees C.
"""
import datetime
import json
import time
from pathlib import Path

ADDR = 0x68
REGISTERS = 0x13
TIME_REGISTERS = 7
STATUS, OSF = 0x0F, 0x80
CONTROL = 0x0E
TEMP_MSB = 0x11
Y2000 = 946684800  # 2000-01-01 00:00:00 UTC


def _bcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


def _to_bcd(n):
    return (n // 10) << 4 | n % 10


class DS3231:
    def __init__(self, cell: Path, address=ADDR, clock=time.time):
        """cell: the file that keeps the offset while the board is off; clock: host seconds."""
        self.cell = Path(cell)
        self.address = address
        self._clock = clock
        self.pointer = 0
        self.regs = bytearray(REGISTERS)
        self.regs[CONTROL] = 0x1C  # power-on: INTCN, RS2, RS1
        self.regs[TEMP_MSB] = 25
        self.h12 = False  # the hours register was last written in 12-hour mode
        try:
            kept = json.loads(self.cell.read_text())
            self.offset, osf = float(kept["offset"]), bool(kept["osf"])
        except (OSError, ValueError, KeyError, TypeError):
            self.offset, osf = Y2000 - clock(), True  # a fresh cell: stopped, from 2000
        self.regs[STATUS] = OSF if osf else 0

    def now(self) -> int:
        """The clock's time as Unix seconds."""
        return int(self._clock() + self.offset)

    @property
    def stopped(self) -> bool:
        return bool(self.regs[STATUS] & OSF)

    def write(self, data: bytes):
        """One I2C write transaction to the module (address already matched)."""
        if not data:
            return
        self.pointer = data[0] % REGISTERS
        if len(data) == 1:
            return
        self._latch()
        touched_time = False
        for byte in data[1:]:
            if self.pointer == STATUS:
                byte = (byte & self.regs[STATUS] & OSF) | (byte & 0x7F)  # OSF: clear only
            self.regs[self.pointer] = byte
            touched_time |= self.pointer < TIME_REGISTERS
            self.pointer = (self.pointer + 1) % REGISTERS
        if touched_time:
            self.offset = self._registers_time() - self._clock()
        self._keep()

    def read(self, count: int) -> bytes:
        """One I2C read transaction of count bytes."""
        self._latch()
        out = bytes(self.regs[(self.pointer + i) % REGISTERS] for i in range(count))
        self.pointer = (self.pointer + count) % REGISTERS
        return out

    def _latch(self):
        """The time registers as the clock stands (the chip copies them at each START)."""
        t = datetime.datetime.fromtimestamp(self.now(), datetime.timezone.utc)
        r = self.regs
        r[0], r[1] = _to_bcd(t.second), _to_bcd(t.minute)
        if self.h12:
            r[2] = 0x40 | (0x20 if t.hour >= 12 else 0) | _to_bcd((t.hour + 11) % 12 + 1)
        else:
            r[2] = _to_bcd(t.hour)
        r[3] = t.isoweekday()
        r[4] = _to_bcd(t.day)
        r[5] = _to_bcd(t.month) | (0x80 if t.year >= 2100 else 0)
        r[6] = _to_bcd(t.year % 100)

    def _registers_time(self) -> int:
        """Unix seconds of what the time registers hold."""
        r = self.regs
        self.h12 = bool(r[2] & 0x40)
        if self.h12:
            hour = _bcd(r[2] & 0x1F) % 12 + (12 if r[2] & 0x20 else 0)
        else:
            hour = _bcd(r[2] & 0x3F)
        year = 2000 + _bcd(r[6]) + (100 if r[5] & 0x80 else 0)
        try:
            day = datetime.datetime(year, _bcd(r[5] & 0x1F), _bcd(r[4] & 0x3F), hour,
                                    _bcd(r[1] & 0x7F), _bcd(r[0] & 0x7F), tzinfo=datetime.timezone.utc)
        except ValueError:  # a date that does not exist: the chip counts on from garbage
            return self.now()
        return int(day.timestamp())

    def _keep(self):
        """Write the offset and OSF to the cell file (new file, then rename: never half)."""
        tmp = self.cell.with_name(self.cell.name + ".tmp")
        tmp.write_text(json.dumps({"offset": self.offset, "osf": self.stopped}))
        tmp.replace(self.cell)


def cell_of(flash: Path) -> Path:
    """The offset file of the module fitted to the board with this flash image."""
    return Path(str(flash) + ".rtc")
