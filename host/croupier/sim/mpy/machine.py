# `machine` for the virtual board: the ESP32 port's API (names, signatures and constants
# as in micropython-esp32-stubs; no method the port lacks), emulated at the bus. Pins read
# the keypad matrix (_sim_matrix). I2C transfers, PWM changes and resets go to the
# supervisor over the side channel; I2C takes its real bus time at the configured frequency.
# I2S is _sim_i2s's.
from micropython import const
import struct
import time
from time import ticks_ms

import _sim_channel as _ch
from _sim_matrix import _check_irqs, _drive, _irqs, _level, _mode, _out, _pull

PWRON_RESET = const(1)
HARD_RESET = const(2)
WDT_RESET = const(3)
DEEPSLEEP_RESET = const(4)
SOFT_RESET = const(5)

_GPIO = (0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25, 26, 27, 32,
         33, 34, 35, 36, 37, 38, 39)  # ESP32-WROOM-32 GPIOs (6-11 drive the flash)
_reset_cause = int(_ch.env("RESET_CAUSE", "1"))
_uid = bytes(int(h, 16) for h in _ch.env("UID", "24:0a:c4:00:00:01").split(":"))
_rtc_offset = int(_ch.env("RTC", "0"))  # seconds added to the host clock
_cpu_hz = 160000000
_polled_at = -1  # ticks_ms of the last pin read that took key changes in


class Pin:
    # ports/esp32/machine_pin.c (v1.23.0): init, value, on, off, irq, no mode() or pull();
    # toggle() only from v1.25.0, after the oldest release the firmware supports
    IN = const(1)
    OUT = const(3)
    OPEN_DRAIN = const(7)
    PULL_DOWN = const(1)
    PULL_UP = const(2)
    IRQ_RISING = const(1)
    IRQ_FALLING = const(2)

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        if isinstance(id, Pin):
            id = id._id
        if id not in _GPIO:
            raise ValueError("invalid pin")
        self._id = id
        self.init(mode, pull, value=value, drive=drive)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        gpio = self._id
        if value is not None:
            _drive(gpio, 1 if value else 0)
        if mode != -1 and mode is not None:
            if mode not in (1, 3, 7):
                raise ValueError("invalid pin mode")
            if mode != 1 and gpio >= 34:
                raise ValueError("pin can only be input")
            _mode[gpio] = mode
            _drive(gpio, _out[gpio])  # what the pin drives on the keypad lines follows its mode
        if pull != -1:
            if pull not in (None, 1, 2):
                raise ValueError("invalid pull")
            _pull[gpio] = pull or 0

    def value(self, x=None):
        global _polled_at
        if x is None:
            now = ticks_ms()
            if now != _polled_at:  # take key changes in first; they come in whole ms
                _polled_at = now
                _ch.poll()
            return _level(self._id)
        _drive(self._id, 1 if x else 0)

    __call__ = value

    def on(self):
        _drive(self._id, 1)

    def off(self):
        _drive(self._id, 0)

    def irq(self, handler=None, trigger=3, *, priority=1, wake=None, hard=False):
        """Handlers are scheduled (micropython.schedule) when the key state changes the
        pin's level; the board takes key changes in when it reads a pin (once a ms) or waits."""
        if handler is None:
            _irqs.pop(self._id, None)
        else:
            _irqs[self._id] = [self, handler, trigger, _level(self._id)]
        _ch.on_keys = _check_irqs if _irqs else None  # no irqs: key changes allocate nothing

    def __repr__(self):
        return "Pin(%d)" % self._id


def _pin_id(pin):
    return pin._id if isinstance(pin, Pin) else int(pin)


class I2C:
    """The I2C bus: I2C(0) defaults to SCL 18 / SDA 19, I2C(1) to SCL 25 / SDA 26. Its devices
    (the OLED, and the DS3231 when fitted) answer when the bus runs on their SDA/SCL pins; the
    supervisor plays them. extmod/machine_i2c.c (v1.23.0): no deinit(), and init() only on
    SoftI2C (a hardware bus raises OSError)."""

    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % id)
        self._bus((18, 25)[id] if scl is None else scl, (19, 26)[id] if sda is None else sda, freq)

    def _bus(self, scl, sda, freq):
        if freq <= 0:
            raise ValueError("freq must be positive")
        self._freq = freq
        self._on_bus = _pin_id(sda) == _OLED_SDA and _pin_id(scl) == _OLED_SCL

    def scan(self):
        return list(_DEVICES) if self._on_bus else []

    def _check(self, addr):
        if not (self._on_bus and addr in _DEVICES):
            raise OSError(19)  # ENODEV: nobody acknowledged the address

    def _bus_time(self, n):
        time.sleep_us((n + 1) * 9 * 1000000 // self._freq)  # 9 clocks a byte, address too

    def writeto(self, addr, buf, stop=True):  # allocates nothing, as the chip's C
        self._check(addr)
        n = len(buf)
        _ch.send(73, addr, n)  # 'I'
        _ch.write(buf)
        self._bus_time(n)
        return n

    def writevto(self, addr, vector, stop=True):
        self._check(addr)
        n = sum(len(buf) for buf in vector)
        _ch.send(73, addr, n)
        for buf in vector:
            _ch.write(buf)
        self._bus_time(n)
        return n

    def readfrom_into(self, addr, buf, stop=True):
        self._check(addr)
        if _ch.request(81, addr, len(buf), buf):  # 'Q'
            raise OSError(19)
        self._bus_time(len(buf))

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self.writevto(addr, (memaddr.to_bytes(addrsize // 8, "big"), buf))

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        self.writeto(addr, memaddr.to_bytes(addrsize // 8, "big"), False)
        self.readfrom_into(addr, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize=addrsize)
        return bytes(buf)


class SoftI2C(I2C):
    def init(self, scl, sda, *, freq=400000, timeout=50000):
        self._bus(scl, sda, freq)

    __init__ = init


_OLED_SDA, _OLED_SCL, _OLED_ADDR = [int(n) for n in _ch.env("I2C", "21,22,60").split(",")]
_DEVICES = (_OLED_ADDR,) + tuple(int(n) for n in _ch.env("I2C_MORE", "").split(",") if n)


_tone = bytearray(6)  # freq (u32), duty_u16 (u16): one PWM change for the tone log


class PWM:
    def __init__(self, dest, *, freq=-1, duty_u16=-1, duty_ns=-1, invert=False):
        self._pin = Pin(dest, Pin.OUT)
        self._freq = 5000
        self._duty = 32768
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=-1, duty_u16=-1, duty_ns=-1, invert=False):
        if freq != -1:
            if not 1 <= freq <= 40000000:
                raise ValueError("frequency must be from 1Hz to 40MHz")
            self._freq = freq
        if duty_u16 == -1 and duty_ns != -1:
            duty_u16 = min(65535, duty_ns * self._freq * 65535 // 1000000000)
        if duty_u16 != -1:
            if not 0 <= duty_u16 <= 65535:
                raise ValueError("duty_u16 must be from 0 to 65535")
            self._duty = duty_u16
        self._log(self._duty)

    def freq(self, value=None):
        return self._freq if value is None else self.init(freq=value)

    def duty_u16(self, value=None):
        return self._duty if value is None else self.init(duty_u16=value)

    def duty_ns(self, value=None):
        return self._duty * 1000000000 // (65535 * self._freq) if value is None else self.init(duty_ns=value)

    def deinit(self):
        self._log(0)

    def _log(self, duty):
        struct.pack_into("<IH", _tone, 0, self._freq, duty)
        _ch.send(84, self._pin._id, 6)  # 'T'
        _ch.write(_tone)


class RTC:
    """The real-time clock: the host's clock plus the offset set here. It keeps running
    through soft and hard resets, as the ESP32's RTC does."""

    def __init__(self, id=0, *, datetime=None):
        if datetime is not None:
            self.datetime(datetime)

    def init(self, datetime):  # ports/esp32/machine_rtc.c (v1.23.0): the date is required
        self.datetime(datetime)

    def datetime(self, datetimetuple=None):
        global _rtc_offset
        if datetimetuple is None:
            t = time.localtime(time.time() + _rtc_offset)
            return (t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0)
        d = tuple(datetimetuple) + (0,) * (8 - len(datetimetuple))
        _rtc_offset = int(time.mktime((d[0], d[1], d[2], d[4], d[5], d[6], 0, 0)) - time.time())
        offset = str(_rtc_offset).encode()
        _ch.send(68, 0, len(offset))  # 'D' kept by the supervisor across resets
        _ch.write(offset)


def unique_id():
    return _uid


def reset():
    _ch.die(72)  # 'H': the supervisor restarts the board (a software reset)


def soft_reset():
    raise SystemExit


def reset_cause():
    return _reset_cause


def freq(hz=None):
    global _cpu_hz
    if hz is None:
        return _cpu_hz
    if hz not in (20000000, 40000000, 80000000, 160000000, 240000000):
        raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
    _cpu_hz = hz


def idle():
    _ch.poll()


from _sim_i2s import I2S  # noqa: E402,F401 (after Pin, which it checks its pins with)
