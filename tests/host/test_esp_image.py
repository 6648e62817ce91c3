"""croupier.esp_image: which files `flash --micropython` accepts as MicroPython for the ESP32,
with esptool's own image parser, and the reason for every refusal."""
import os

import pytest

from esp32_images import APP_OFFSET, BOOT_OFFSET, TABLE_OFFSET, app_image, merged_image, partition_table
from esptool.bin_image import ESP32S3FirmwareImage
from croupier.esp_image import ImageError, check_image


def flipped(data, at):
    out = bytearray(data)
    out[at] ^= 0x01
    return bytes(out)


def test_one_esp32_image_is_written_at_0x1000():
    checked = check_image(app_image())
    assert (checked.offset, checked.parts) == (BOOT_OFFSET, ["ESP32 image"])


def test_a_merged_image_is_checked_part_by_part_and_written_at_0x1000():
    data = merged_image()
    checked = check_image(data)
    assert checked.offset == BOOT_OFFSET and checked.data == data
    assert checked.parts == ["bootloader", "partition table", "app at 0x%x" % APP_OFFSET]


def test_a_merged_image_padded_from_0x0_is_written_at_0x0():
    checked = check_image(b"\xff" * BOOT_OFFSET + merged_image())
    assert checked.offset == 0


@pytest.mark.parametrize("data,reason", [
    (b"\x13" + os.urandom(64 * 1024 - 1), "is no ESP32 image: it starts with 0x13, not the image magic 0xe9"),
    (b"", "is empty"),
    (b"\xe9" + os.urandom(4095), "ESP32 image"),
    (app_image(ESP32S3FirmwareImage), "is built for the ESP32-S3, not the ESP32"),
    (flipped(app_image(), 100), "fails its checksum"),
    (flipped(app_image(), len(app_image()) - 1), "fails its SHA-256 digest"),
    (app_image()[:-40], "is cut short before its checksum"),
    (app_image()[:-10], "is cut short before its SHA-256 digest"),
    (app_image()[:1000], "damaged ESP32 image: End of file reading segment"),
], ids=["random", "empty", "magic-then-random", "esp32s3", "checksum", "digest", "no-checksum", "no-digest", "truncated"])
def test_anything_else_is_refused_with_the_reason(data, reason):
    with pytest.raises(ImageError) as refused:
        check_image(data, "x.bin")
    assert reason in str(refused.value) and "x.bin" in str(refused.value), str(refused.value)


def test_a_merged_image_needs_its_table_and_a_valid_app():
    no_app = partition_table()[:64] + b"\xff" * (0xC00 - 64)  # nvs and phy_init only
    with pytest.raises(ImageError, match="has no app partition"):
        check_image(merged_image(table=no_app))
    with pytest.raises(ImageError, match="partition table at 0x8000 is damaged"):
        check_image(merged_image(table=b"\x12\x34" * 0x600))
    bad_app = flipped(merged_image(), APP_OFFSET - BOOT_OFFSET + 200)
    with pytest.raises(ImageError, match=r"the app \(at flash 0x10000\) fails its checksum"):
        check_image(bad_app)
    elsewhere = merged_image(table=partition_table(app_offset=0x20000))
    with pytest.raises(ImageError, match=r"the app \(at flash 0x20000\) is empty"):
        check_image(elsewhere)
    assert TABLE_OFFSET - BOOT_OFFSET < len(merged_image())
