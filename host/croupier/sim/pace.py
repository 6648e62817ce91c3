"""Pace: the ESP32's profile. The factor is how many times slower than this host's unix port
the chip runs bytecode: pystone per CPU-second here over the chip's score at the clock the
firmware sets (240 MHz); tests/bench/chiptime.py computes the chip's time with it, and
croupier.sim.pacer throttles a board with throttle_factor (docs/virtual-board.md, "Pace").
"""
from collections import namedtuple

# micropython-pystone-lowmem on an ESP32 at 240 MHz: public figures of 1,075-1,661
# pystones/s; the pace aims at their middle.
CHIP_PYSTONES = 1300
NOT_REALTIME = ("pacer not real-time: a busy host may run the board fast "
                "(allow real-time priority: docs/virtual-board.md, Pace)")


class Profile(namedtuple("Profile", "name pystones throttle_factor page_us byte_first_us byte_us erase_us")):
    """A chip: its pystone score, the throttle's factor, and its flash timing (µs): a page
    program of 256 bytes at most, the first byte and each further one of a short program,
    a 4 KiB sector erase."""

    def flash_timing(self) -> str:
        """The flash figures as the board side reads them (CROUPIER_SIM_FLASH_US)."""
        return ",".join("%d" % (us * 10) for us in self[3:])


# A throttled CPU-second does less work than a steady one (each stop leaves the host's caches
# cold for the next slice): the throttle's factor is the one at which pystone on a paced
# board scores the chip's CHIP_PYSTONES (tests/bench/bench_pystone.py), below the factor.
ESP32_THROTTLE = 74.0
# ESP32-WROOM-32 at 240 MHz with 4 MB SPI NOR flash: Winbond W25Q32JV datasheet, typical:
# page program tPP 0.4 ms, byte program tBP1 30 µs + tBP2 2.5 µs per further byte, 4 KB
# sector erase tSE 45 ms.
ESP32 = Profile("esp32", CHIP_PYSTONES, ESP32_THROTTLE, page_us=400, byte_first_us=30, byte_us=2.5, erase_us=45000)


def profile(name):
    """'esp32' -> ESP32; None or 'none' -> None (full speed); else ValueError."""
    if name in (None, "none"):
        return None
    if name != ESP32.name:
        raise ValueError("pace must be one of none, esp32; not %r" % (name,))
    return ESP32
