"""Real ESP32 images for the flash tests, built with esptool's own image classes (no blobs).

app_image(): one ESP32 image (magic 0xE9, checksum, SHA-256 digest), as esptool's elf2image
writes it. merged_image(): what MicroPython's ESP32_GENERIC download is, laid out from flash
0x1000: a bootloader image, the partition table at 0x8000 and the app at 0x10000.
"""
import struct

from esptool.bin_image import ELFSection, ESP32FirmwareImage, ESP32S3FirmwareImage

BOOT_OFFSET = 0x1000
TABLE_OFFSET = 0x8000
APP_OFFSET = 0x10000


def app_image(image_class=ESP32FirmwareImage, fill=0x5A, flash_mapped=True):
    """The bytes of a valid image: code in IRAM, data in DRAM, and (an app) code mapped from flash."""
    image = image_class()
    image.entrypoint = 0x40080400
    image.segments = [ELFSection(b".iram0.text", 0x40080000, bytes([fill]) * 2048, 0),
                      ELFSection(b".dram0.data", 0x3FFB0000, bytes(range(256)), 0)]
    if flash_mapped:
        image.segments.append(ELFSection(b".flash.text", 0x400D0020, bytes([fill ^ 0xFF]) * 4096, 0))
    return image.save(None)


def partition_table(app_offset=APP_OFFSET):
    """nvs, phy_init and the factory app, as ESP-IDF writes them (32-byte entries, 0xFF after)."""
    entries = [(1, 2, 0x9000, 0x6000, b"nvs"), (1, 1, 0xF000, 0x1000, b"phy_init"),
               (0, 0, app_offset, 0x1F0000, b"factory")]
    table = b"".join(struct.pack("<2sBBII16sI", b"\xaa\x50", kind, sub, offset, size, name, 0)
                     for kind, sub, offset, size, name in entries)
    return table + b"\xff" * (0xC00 - len(table))


def place(parts, start=BOOT_OFFSET):
    """{flash offset: bytes} laid out from flash `start`, 0xFF in the gaps."""
    out = bytearray()
    for offset in sorted(parts):
        out += b"\xff" * (offset - start - len(out)) + parts[offset]
    return bytes(out)


def merged_image(app=None, table=None, bootloader=None):
    return place({BOOT_OFFSET: bootloader or app_image(flash_mapped=False), TABLE_OFFSET: table or partition_table(),
                  APP_OFFSET: app or app_image()})
