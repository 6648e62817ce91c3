"""Dates at the table: the optional DS3231 clock on the I2C bus, and the [boot, ms] every
record carries whether or not the board knows the time."""
import datetime
import json
import time

from croupier.sim import VirtualBoard
from croupier.sim.ds3231 import DS3231, cell_of
from fwlink import HEAP, frames_on

SET = 1_800_000_000  # 2027-01-15 08:00:00 UTC
LOBO = {"game": "lobo77", "players": ["Ann", "Bob"]}

CONVERSIONS = r'''
import json
from croupier.ds3231 import civil_from_days, days_from_civil
out = []
for days in DAYS:
    y, m, d = civil_from_days(days)
    out.append([y, m, d, days_from_civil(y, m, d)])
print(json.dumps(out))
'''


def test_dates_convert_as_the_calendar_says(mpy):
    """The driver's own calendar arithmetic (the ports differ in time.mktime's epoch)."""
    epoch = datetime.date(1970, 1, 1)
    dates = [datetime.date(2000, 1, 1), datetime.date(2000, 2, 29), datetime.date(2000, 3, 1),
             datetime.date(2024, 2, 29), datetime.date(2026, 12, 31), datetime.date(2099, 12, 31),
             datetime.date(2100, 2, 28), datetime.date(2100, 3, 1), datetime.date(2199, 12, 31)]
    dates += [datetime.date(2000, 1, 1) + datetime.timedelta(days=n) for n in range(0, 73000, 997)]
    days = [(d - epoch).days for d in dates]
    got = json.loads(mpy("DAYS = %r\n" % days + CONVERSIONS))
    assert got == [[d.year, d.month, d.day, n] for d, n in zip(dates, days)]


def new_game_record(frames):
    frames.ok("new", **LOBO)
    return frames.ok("log", **{"from": frames.ok("hello")["last_seq"], "max": 1})["records"][0]


def test_the_clock_module_gives_the_time_at_boot_and_keeps_it_while_off(tmp_path):
    flash = tmp_path / "flash.img"
    with VirtualBoard(flash=flash, heap=HEAP, rtc=True) as vb:
        with frames_on(vb.port, boot=True) as frames:
            assert vb.rtc.stopped, "a new module's oscillator has stopped: its time is unknown"
            assert new_game_record(frames)[1] is None, "no date from a module never set"
            frames.ok("clock", epoch=SET)
            assert not vb.rtc.stopped and abs(vb.rtc.now() - SET) <= 1, "clock sets the module"
            assert frames.call("clock", epoch=900_000_000)["error"] == "bad_args"  # 1998
            assert abs(vb.rtc.now() - SET) <= 1, "a refused date leaves the module as it was"
        vb.power_off()
        vb.wait_off()
        time.sleep(2)
        vb.restart()
        with frames_on(vb.port, boot=True) as frames:
            record = new_game_record(frames)
            assert SET + 2 <= record[1] <= SET + 20, "the module counted on while the board was off"
            assert record[5][0] == frames.boot["boot"] == 2
        vb.hard_reset()
        with frames_on(vb.port, boot=True) as frames:
            assert record[1] <= new_game_record(frames)[1] <= SET + 30, "and through the EN button"
    # another run of the virtual board on the same flash image: the same module, still counting
    with VirtualBoard(flash=flash, heap=HEAP, rtc=True) as vb:
        with frames_on(vb.port, boot=True) as frames:
            assert SET + 2 <= new_game_record(frames)[1] <= SET + 40
    with VirtualBoard(flash=flash, heap=HEAP) as vb:  # the module taken out
        with frames_on(vb.port, boot=True) as frames:
            assert new_game_record(frames)[1] is None


def test_the_board_reads_a_module_set_elsewhere(tmp_path):
    """A module set by another clock, in 12-hour mode: its BCD registers are read at boot."""
    flash = tmp_path / "flash.img"
    module = DS3231(cell_of(flash))
    when = datetime.datetime(2031, 5, 6, 19, 8, 9, tzinfo=datetime.timezone.utc)
    hours_pm = 0x40 | 0x20 | 0x07  # 12-hour mode, PM, 7
    module.write(bytes([0x00, 0x09, 0x08, hours_pm, 0x02, 0x06, 0x05, 0x31]))
    module.write(bytes([0x0F, 0x00]))  # clear OSF, as a setting clock does
    with VirtualBoard(flash=flash, heap=HEAP, rtc=True) as vb:
        with frames_on(vb.port, boot=True) as frames:
            stamp = new_game_record(frames)[1]
    assert when.timestamp() <= stamp <= when.timestamp() + 30


def test_a_module_that_reads_before_2024_gives_no_date(tmp_path):
    """OSF clear, but the clock counts from 2000: never set (as a DS1307 after a new cell)."""
    flash = tmp_path / "flash.img"
    module = DS3231(cell_of(flash))
    module.write(bytes([0x0F, 0x00]))
    assert not module.stopped and module.now() < 1704067200
    with VirtualBoard(flash=flash, heap=HEAP, rtc=True) as vb:
        with frames_on(vb.port, boot=True) as frames:
            assert new_game_record(frames)[1] is None


def test_records_carry_the_boot_and_the_ms_since_it(board):
    with frames_on(board.port, boot=True) as frames:
        frames.ok("new", **LOBO)
        for card in ("9", "33", "5"):
            frames.ok("play", card=card)
        hello = frames.ok("hello")
        first = frames.ok("log")["records"]
    assert [r[1] for r in first] == [None] * 4, "no clock, no module: no time"
    stamps = [r[5] for r in first]
    assert {boot for boot, _ in stamps} == {hello["boot"]}
    ms = [m for _, m in stamps]
    assert ms == sorted(ms) and ms[-1] <= hello["uptime_ms"], "the same clock as hello's uptime_ms"
    board.hard_reset()
    with frames_on(board.port, boot=True) as frames:
        frames.ok("play", card="2")
        again = frames.ok("hello")
        records = frames.ok("log")["records"]
    assert again["boot"] == hello["boot"] + 1
    assert records[:4] == first, "earlier records keep their stamps"
    boot, ms = records[4][5]
    assert boot == again["boot"] and ms <= again["uptime_ms"], "ms counts from the new boot"


JOURNAL = r'''
import json, time
from ramflash import RamFlash, mount
import croupier.journal as journal
from croupier import journal_sync
from croupier.journal import Journal, write_sealed


PERIOD = time.ticks_add(0, -1) + 1  # of ticks_ms: 2**30 on the ESP32, more on this port


class NearWrap:
    """time for the journal with ticks_ms about to wrap."""
    now = PERIOD - 300

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def time(self):
        return time.time()


mount(RamFlash(blocks=64), fresh=True)
import os
os.mkdir("/flash/j")
with open("/flash/j/00000001.log", "wb") as f:  # as firmware before [boot, ms] wrote it
    write_sealed([1, None, 1, "new", {"game": "lobo77", "players": ["A", "B"], "options": {}}], f.write)
    write_sealed([2, None, 1, "play", "9"], f.write)
clock = NearWrap()
journal.time = clock
j = Journal("/flash/j")
out = {"resume": j.resume()}
clock.now = PERIOD - 100
j.append(1, "play", "5")
clock.now = 50  # wrapped
j.append(1, "play", "2")
out["uptime"] = j.uptime_ms()
out["records"] = journal_sync.records(j, 0, 10)
j = Journal("/flash/j")  # the next boot reads old and new records alike
out["resume_again"] = j.resume()
print(json.dumps(out))
'''


def test_old_records_stay_readable_and_ms_counts_past_the_ticks_wrap(mpy):
    out = json.loads(mpy(JOURNAL))
    assert out["resume"] == [1, {"game": "lobo77", "players": ["A", "B"], "options": {}}, [["play", "9"]]]
    records = out["records"]
    assert [len(r) for r in records] == [5, 5, 6, 6]
    assert [r[5] for r in records[2:]] == [[1, 200], [1, 350]], "ms from the boot, across the wrap"
    assert out["uptime"] == 350
    assert out["resume_again"][2] == [["play", "9"], ["play", "5"], ["play", "2"]]


def test_the_driver_loads_only_on_a_board_with_the_module(tmp_path):
    from croupier.deploy import Mpremote

    loaded = "import sys; print(sorted(m for m in sys.modules if 'ds3231' in m))"
    for fitted, expect in ((False, "[]"), (True, "['croupier.ds3231']")):
        with VirtualBoard(flash=tmp_path / ("%s.img" % fitted), heap=HEAP, rtc=fitted) as vb:
            with frames_on(vb.port, boot=True):
                pass
            assert Mpremote(vb.port).run("resume", "exec", loaded).strip() == expect  # no soft reset
