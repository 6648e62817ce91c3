"""The DS3231 model of the virtual board, at its registers."""
import datetime

from croupier.sim.ds3231 import DS3231, OSF, STATUS, cell_of


class Clock:
    """The host clock, moved by the test."""

    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def registers_of(when):
    """What a clock setting the module writes for a UTC datetime (24-hour mode)."""
    def bcd(n):
        return (n // 10) << 4 | n % 10
    return bytes([0x00, bcd(when.second), bcd(when.minute), bcd(when.hour), when.isoweekday(),
                  bcd(when.day), bcd(when.month) | (0x80 if when.year >= 2100 else 0), bcd(when.year % 100)])


def test_a_new_module_has_stopped_and_counts_from_2000(tmp_path):
    clock = Clock(5_000.0)
    rtc = DS3231(tmp_path / "rtc", clock=clock)
    assert rtc.stopped
    rtc.write(bytes([0x00]))
    assert rtc.read(7) == bytes([0, 0, 0, 6, 1, 1, 0])  # Saturday 2000-01-01 00:00:00
    clock.now += 61
    rtc.write(bytes([0x00]))
    assert rtc.read(2) == bytes([0x01, 0x01])
    assert not (tmp_path / "rtc").exists(), "nothing is kept until the module is written"


def test_set_time_counts_on_across_power_and_runs(tmp_path):
    cell = cell_of(tmp_path / "flash.img")
    assert cell.name == "flash.img.rtc"
    clock = Clock(1_000.0)
    rtc = DS3231(cell, clock=clock)
    when = datetime.datetime(2099, 12, 31, 23, 59, 58, tzinfo=datetime.timezone.utc)
    rtc.write(registers_of(when))
    rtc.write(bytes([STATUS, 0x00]))
    assert not rtc.stopped and rtc.now() == when.timestamp()
    clock.now += 3  # the board off; the cell keeps the offset
    again = DS3231(cell, clock=clock)
    assert not again.stopped
    again.write(bytes([0x00]))
    later = when + datetime.timedelta(seconds=3)  # into the next century: its bit is set
    assert again.read(7) == registers_of(later)[1:]


def test_osf_is_cleared_only_by_writing_it_zero(tmp_path):
    rtc = DS3231(tmp_path / "rtc", clock=Clock(0.0))
    rtc.write(bytes([STATUS, OSF | 0x08]))
    assert rtc.stopped
    rtc.write(bytes([STATUS, 0x08]))
    assert not rtc.stopped
    rtc.write(bytes([STATUS, OSF]))
    assert not rtc.stopped, "writing 1 to OSF does nothing"
    rtc.write(bytes([STATUS]))
    assert rtc.read(1) == bytes([0x00])


def test_twelve_hour_mode_and_the_register_pointer(tmp_path):
    rtc = DS3231(tmp_path / "rtc", clock=Clock(0.0))
    rtc.write(bytes([0x00, 0x30, 0x15, 0x40 | 0x20 | 0x11, 0x03, 0x14, 0x07, 0x26]))  # 11 PM
    assert rtc.now() == datetime.datetime(2026, 7, 14, 23, 15, 30, tzinfo=datetime.timezone.utc).timestamp()
    rtc.write(bytes([0x02]))
    assert rtc.read(1) == bytes([0x40 | 0x20 | 0x11]), "read back in the mode it was set in"
    rtc.write(bytes([0x11]))
    assert rtc.read(3) == bytes([25, 0, 0x30]), "temperature, then the pointer wraps to 0x00"
