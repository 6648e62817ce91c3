"""Which ESP32-WROOM-32 GPIO may do what: the checks every pin of the pin map must pass.

Sources: ESP32 datasheet (section "Strapping Pins", "Pin Description"), the
ESP32-WROOM-32 datasheet (pins 6-11 wired to the module's SPI flash) and the ESP32-WROVER-E
datasheet (GPIO16 and 17 wired to its PSRAM).
"""

# GPIO numbers that exist on the ESP32 (there is no 20, 24 or 28-31 on the WROOM-32).
EXISTING = frozenset(range(40)) - {20, 24, 28, 29, 30, 31}
# Input only: no output driver and no internal pull-up or pull-down.
INPUT_ONLY = frozenset(range(34, 40))
# Wired to the module's SPI flash: touching them crashes the chip.
FLASH = frozenset(range(6, 12))
# Wired to the PSRAM on ESP32-WROVER modules; free GPIOs on a WROOM-32.
WROVER_PSRAM = frozenset({16, 17})
# Sampled at reset to pick boot mode, flash voltage, boot log and SDIO timing.
STRAPPING = frozenset({0, 2, 5, 12, 15})
# UART0 carries the REPL and the Croupier protocol over the USB bridge.
CONSOLE = {1: "U0TXD (REPL/protocol)", 3: "U0RXD (REPL/protocol)"}

MODES = ("i2c", "i2s", "out", "pwm", "in", "in_pullup")
DRIVEN_MODES = frozenset({"i2c", "i2s", "out", "pwm"})  # need an output driver (I2S: transmit, as master)
PULLED_UP_MODES = frozenset({"in_pullup"})  # need the internal pull-up


def problems(pinmap):
    """Every reason a pin of `pinmap` does not suit its use; an empty list when all is well."""
    found = []
    used = {}
    for s in pinmap.signals:
        name, gpio, mode = s["signal"], s["gpio"], s["mode"]
        where = "%s (GPIO%d)" % (name, gpio)
        if gpio in used:
            found.append("%s: GPIO%d is already used by %s" % (name, gpio, used[gpio]))
        used.setdefault(gpio, name)
        if gpio not in EXISTING:
            found.append("%s: there is no GPIO%d on an ESP32-WROOM-32" % (name, gpio))
            continue
        if mode not in MODES:
            found.append("%s: unknown mode %r (one of %s)" % (where, mode, ", ".join(MODES)))
        if gpio in FLASH:
            found.append("%s: GPIO6-11 belong to the module's SPI flash" % where)
        if gpio in WROVER_PSRAM and "WROVER" in pinmap.module.upper():
            found.append("%s: GPIO16-17 belong to the PSRAM of an %s" % (where, pinmap.module))
        if gpio in CONSOLE:
            found.append("%s: GPIO%d is %s" % (where, gpio, CONSOLE[gpio]))
        if gpio in INPUT_ONLY and mode in DRIVEN_MODES:
            found.append("%s: GPIO34-39 are input only, they cannot drive %r" % (where, mode))
        if gpio in INPUT_ONLY and mode in PULLED_UP_MODES:
            found.append("%s: GPIO34-39 have no internal pull-up" % where)
        if gpio in STRAPPING and not _filled(s.get("strapping")):
            found.append("%s: strapping pin; say in a 'strapping' field why it is safe here" % where)
        if mode == "i2c" and not _filled(s.get("pull_up")):
            found.append("%s: I2C line without a 'pull_up' field naming its pull-up" % where)
    return found


def _filled(text):
    return isinstance(text, str) and bool(text.strip())
