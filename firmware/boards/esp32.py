# ESP32 DevKitC (ESP32-WROOM-32). The pin numbers are hardware/pins.json's, written as
# literals because the board has no JSON to spare at boot; a host test compares the two.
from micropython import const

NAME = "esp32"

PIN_SDA = const(21)
PIN_SCL = const(22)
KEY_ROWS = (32, 33, 25, 26)  # R1..R4, pulled low one at a time (open drain)
KEY_COLS = (27, 14, 4, 18)  # C1..C4, inputs with pull-ups
PIN_BUZZER = const(23)
I2C_ADDR = const(60)
I2C_FREQ = const(400000)
RTC_ADDR = const(104)  # the optional DS3231 real-time clock, on the OLED's bus
PIN_I2S_SCK = const(19)  # the optional MAX98357A amplifier: bit clock (BCLK)
PIN_I2S_WS = const(17)  # word select (LRC)
PIN_I2S_SD = const(13)  # data out (DIN)
KEY_LABELS = ("1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C", "*", "0", "#", "D")

JOURNAL_DIR = "/journal"
SETTINGS = "/settings"  # croupier.settings: the voice, its language and volume
VOICE_DIR = "/voice"  # the voice banks: fr.vox, en.vox, names.vox (croupier voice, flash)
_bus = []  # the one I2C bus, made at its first use


def i2c():
    """The hardware I2C bus the OLED and the real-time clock share."""
    if not _bus:
        from machine import I2C, Pin

        _bus.append(I2C(0, scl=Pin(PIN_SCL), sda=Pin(PIN_SDA), freq=I2C_FREQ))
    return _bus[0]


def display():
    """The SSD1306 OLED on the I2C bus."""
    from croupier.ssd1306 import SSD1306

    return SSD1306(i2c(), I2C_ADDR)


def rtc():
    """The DS3231 real-time clock module when one is fitted (it answers on the bus), else None;
    a board without one never loads its driver."""
    bus = i2c()
    try:
        bus.readfrom(RTC_ADDR, 1)  # any register: only whether the address is acknowledged
    except OSError:
        return None
    from croupier.ds3231 import DS3231

    return DS3231(bus, RTC_ADDR)


def keypad():
    """The 4x4 key matrix, scanned row by row."""
    from machine import Pin
    from croupier.keys import Keypad

    # Open drain: an idle row floats instead of driving high, so two keys held in one
    # column never short a high row to the low row being scanned.
    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in KEY_ROWS]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in KEY_COLS]
    return Keypad(rows, cols, KEY_LABELS)


def buzzer():
    """The piezo buzzer behind a transistor on a PWM pin."""
    from machine import Pin
    from croupier.buzzer import Buzzer

    return Buzzer(Pin(PIN_BUZZER, Pin.OUT, value=0))


def i2s(rate, ibuf):
    """The I2S output to the optional MAX98357A amplifier: 16-bit mono at rate, ibuf bytes
    of DMA memory (croupier.speaker says why that many)."""
    from machine import I2S, Pin

    return I2S(0, sck=Pin(PIN_I2S_SCK), ws=Pin(PIN_I2S_WS), sd=Pin(PIN_I2S_SD), mode=I2S.TX,
               bits=16, format=I2S.MONO, rate=rate, ibuf=ibuf)


def speaker(playing=None, values=None):
    """The speaker's player when the voice is on and its language's bank is on the flash,
    else None: a box without a voice loads none of it (nor the words). playing: the player
    made before, given the settings as they are now and returned. values: the settings the
    voice menu just stored (None: read them from the flash)."""
    import os

    try:
        os.stat(VOICE_DIR)
    except OSError:
        return None  # no voices on this box: nothing read, nothing loaded
    if values is None:
        import croupier
        from croupier import settings

        values = settings.load(SETTINGS)
        croupier.drop_module("croupier.settings")  # the voice menu loads it again when shown
    if not values["voice"]:
        return None
    try:
        os.stat("%s/%s.vox" % (VOICE_DIR, values["lang"]))
    except OSError:
        return None
    if playing is not None:
        playing.configure(values["lang"], values["volume"])
        return playing
    from croupier.speaker import Speaker

    return Speaker(i2s, VOICE_DIR, values["lang"], values["volume"])


_device_id = None


def unique_id():
    """The chip's factory MAC as lowercase hex: the device id of the protocol's `hello`.
    Worked out once: built-in modules are not kept in sys.modules, so each import of one
    inside a function searches the filesystem (littlefs lookups at every `hello`)."""
    global _device_id
    if _device_id is None:
        from machine import unique_id as chip_id
        from binascii import hexlify

        _device_id = hexlify(chip_id()).decode()
    return _device_id
