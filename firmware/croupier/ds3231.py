# The DS3231 real-time clock: an optional module on the OLED's I2C bus whose coin cell keeps
# the date while the board is off, so games played away from the laptop still get theirs.
# Time lives in registers 0x00-0x06 as BCD (seconds, minutes, hours, weekday, date,
# month with the century bit, year), kept in UTC here. The status register's OSF bit says the
# oscillator stopped (a new module, a flat cell): its time is then unknown until set again.
# The dates are converted with integer arithmetic of our own: the ports disagree on the
# epoch of time.mktime (1970 on the unix port, 2000 on bare-metal ones).
from micropython import const

ADDR = const(0x68)
_STATUS = const(0x0F)
_OSF = const(0x80)
_H12 = const(0x40)  # hours register: 12-hour mode (another clock may have set it so)
_PM = const(0x20)
# A reading before 2024 was never set: a module without OSF (a DS1307, as in the Wokwi
# simulator) counts from 2000 after a new cell. Better no date than a wrong one.
_SET_AFTER = const(1704067200)


class DS3231:
    def __init__(self, i2c, addr=ADDR):
        self._i2c = i2c
        self._addr = addr
        self._regs = bytearray(7)

    def now(self):
        """Unix seconds (UTC), or None while the time is unknown (the oscillator stopped, or
        a date before 2024)."""
        if self._i2c.readfrom_mem(self._addr, _STATUS, 1)[0] & _OSF:
            return None
        r = self._regs
        self._i2c.readfrom_mem_into(self._addr, 0, r)
        hours = r[2]
        if hours & _H12:
            hour = _bcd(hours & 0x1F) % 12 + (12 if hours & _PM else 0)
        else:
            hour = _bcd(hours & 0x3F)
        year = 2000 + _bcd(r[6]) + (100 if r[5] & 0x80 else 0)
        days = days_from_civil(year, _bcd(r[5] & 0x1F), _bcd(r[4] & 0x3F))
        epoch = ((days * 24 + hour) * 60 + _bcd(r[1] & 0x7F)) * 60 + _bcd(r[0] & 0x7F)
        return epoch if epoch >= _SET_AFTER else None

    def set(self, epoch):
        """Set the clock to Unix seconds epoch (from 2000 to 2199) and clear OSF."""
        days, seconds = divmod(epoch, 86400)
        year, month, day = civil_from_days(days)
        if not 2000 <= year < 2200:
            raise ValueError("a DS3231 holds years 2000 to 2199")
        r = self._regs
        r[0] = _to_bcd(seconds % 60)
        r[1] = _to_bcd(seconds // 60 % 60)
        r[2] = _to_bcd(seconds // 3600)  # 24-hour mode
        r[3] = (days + 3) % 7 + 1  # 1 = Monday (1970-01-01 was a Thursday)
        r[4] = _to_bcd(day)
        r[5] = _to_bcd(month) | (0x80 if year >= 2100 else 0)
        r[6] = _to_bcd(year % 100)
        self._i2c.writeto_mem(self._addr, 0, r)
        status = self._i2c.readfrom_mem(self._addr, _STATUS, 1)[0]
        self._i2c.writeto_mem(self._addr, _STATUS, bytes((status & ~_OSF,)))


def _bcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


def _to_bcd(n):
    return (n // 10) << 4 | n % 10


def days_from_civil(year, month, day):
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    if month <= 2:
        year -= 1
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days):
    """(year, month, day) of the date days after 1970-01-01."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day
