"""The VOX1 bank format: what is written reads back, and a damaged file is refused in one line."""
import struct

import pytest

from croupier.voice import bank


def test_a_bank_reads_back_its_keys_sounds_and_origin_in_order():
    entries = [("quarante", b"\x01\x00\x02\x00"), ("Cléo", b"\xff\x7f" * 3), ("et", b"")]
    data = bank.write(entries, origin=bank.RECORDED)
    assert bank.read(data) == (bank.RECORDED, entries)
    assert bank.origin(data[:bank.HEADER.size]) == bank.RECORDED


def test_the_layout_is_the_one_the_firmware_reads():
    data = bank.write([("un", b"\x10\x00"), ("deux", b"\x20\x00\x30\x00")])
    assert data[:8] == b"VOX1" + struct.pack("<HBB", 8000, 2, 0)
    keys_at = 8 + 8 * 2
    pcm_at = keys_at + (1 + 2) + (1 + 4)
    assert struct.unpack_from("<IIII", data, 8) == (pcm_at, 2, pcm_at + 2, 4)  # absolute start, length in bytes
    assert data[keys_at:pcm_at] == b"\x02un\x04deux"
    assert data[pcm_at:] == b"\x10\x00\x20\x00\x30\x00"


@pytest.mark.parametrize("entries,origin,says", [
    ([("a", b"\x00")], 0, "not whole 16-bit samples"),
    ([("a", b""), ("a", b"")], 0, "distinct"),
    ([("", b"")], 0, "1 to 255"),
    ([("a", b"")], 2, "origin"),
    ([("w%d" % i, b"") for i in range(256)], 0, "at most 255"),
])
def test_what_the_format_cannot_hold_is_refused(entries, origin, says):
    with pytest.raises(bank.BankError, match=says):
        bank.write(entries, origin)


def test_the_keys_are_read_from_the_head_of_a_bank_alone():
    data = bank.write([("un", b"\x10\x00" * 400), ("quatre-vingts", b"\x20\x00" * 400)], bank.RECORDED)
    end = 8 + 8 * 2 + 3 + 14
    assert bank.keys(data[:end]) == (["un", "quatre-vingts"], end)  # what the board sends of it
    with pytest.raises(bank.BankError, match="cut short"):
        bank.keys(data[:end - 1])


def test_a_damaged_bank_is_refused_in_one_line():
    good = bank.write([("un", b"\x10\x00" * 4), ("deux", b"\x20\x00" * 4)])
    for bad, says in [(b"RIFF" + good[4:], "not a voice bank"), (good[:5], "not a voice bank"),
                      (good[:20], "cut short"), (good[:-2], "outside"),
                      (good[:4] + struct.pack("<H", 16000) + good[6:], "rate 16000")]:
        with pytest.raises(bank.BankError, match=says) as err:
            bank.read(bad)
        assert "\n" not in str(err.value)
