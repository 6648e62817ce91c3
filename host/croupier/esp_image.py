"""Is this file a MicroPython image for the ESP32? Checked with esptool's own image parser
before anything touches the board.

Accepted, written at the flash offset where the ESP32's ROM boots from (0x1000):
- one ESP32 image (magic 0xE9, built for the ESP32, checksum and SHA-256 digest valid);
- a merged image, as MicroPython's ESP32_GENERIC downloads are: the bootloader image first,
  the partition table at flash 0x8000 and the app where its table says (typically 0x10000),
  each checked;
- the same merged image padded from flash 0x0 (0xFF up to 0x1000): written at 0x0.

The MicroPython release an app holds is read from its banner when it carries one.
"""
import io
import re
import struct

BOOT_OFFSET = 0x1000        # where the ESP32's ROM looks for the bootloader
TABLE_OFFSET = 0x8000       # where the bootloader looks for the partition table
TABLE_SIZE = 0xC00
ENTRY = struct.Struct("<2sBBII16sI")
ENTRY_MAGIC = b"\xaa\x50"
MD5_MAGIC = b"\xeb\xeb"
APP_TYPE = 0
# MicroPython's banner, also its sys.version (py/mpconfig.h MICROPY_BANNER_NAME_AND_VERSION,
# v1.22.0..v1.28.0): "MicroPython v1.23.0 on 2024-06-02". Its ESP32 builds leave the app
# descriptor's version empty (ports/esp32/boards/sdkconfig.base: CONFIG_APP_EXCLUDE_PROJECT_VER_VAR).
BANNER = re.compile(rb"MicroPython (?:\(with v2\.0 preview\) )?v(\d+\.\d+\.\d+[\w.+-]*) on \d{4}-\d\d-\d\d")


class ImageError(ValueError):
    """Why a file is not a MicroPython image the ESP32 can boot."""


class Checked:
    """A valid image: its bytes, where it goes in flash and what it holds (for the user):
    `version`, the MicroPython release its banner names ("1.23.0"), None without one."""

    def __init__(self, data, offset, parts, version):
        self.data, self.offset, self.parts, self.version = data, offset, parts, version

    def describe(self):
        return "%s, %d bytes at 0x%x" % (" + ".join(self.parts), len(self.data), self.offset)


def _chip_name(chip_id):
    from esptool.targets import CHIP_DEFS

    names = [rom.CHIP_NAME for rom in CHIP_DEFS.values() if getattr(rom, "IMAGE_CHIP_ID", None) == chip_id]
    return names[0] if names else "chip id %d" % chip_id


def check_app_image(data, where):
    """esptool's parse of the valid ESP32 image at the start of `data`, else ImageError(reason)."""
    from esptool.bin_image import ESP32FirmwareImage
    from esptool.loader import ESPLoader
    from esptool.util import FatalError

    if not data:
        raise ImageError("%s is empty" % where)
    if data[0] != ESPLoader.ESP_IMAGE_MAGIC:
        raise ImageError("%s is no ESP32 image: it starts with 0x%02x, not the image magic 0x%02x"
                         % (where, data[0], ESPLoader.ESP_IMAGE_MAGIC))
    try:
        image = ESP32FirmwareImage(io.BytesIO(data))
    except TypeError:  # esptool's read of the checksum byte found the file's end
        raise ImageError("%s is cut short before its checksum" % where) from None
    except (FatalError, RuntimeError, struct.error) as exc:
        raise ImageError("%s is a damaged ESP32 image: %s" % (where, exc)) from None
    if image.chip_id != ESP32FirmwareImage.ROM_LOADER.IMAGE_CHIP_ID:
        raise ImageError("%s is built for the %s, not the ESP32" % (where, _chip_name(image.chip_id)))
    if not image.segments:
        raise ImageError("%s holds no segments" % where)
    if image.checksum != image.calculate_checksum():
        raise ImageError("%s fails its checksum (stored 0x%02x, computed 0x%02x): the file is damaged"
                         % (where, image.checksum, image.calculate_checksum()))
    if not image.append_digest:
        raise ImageError("%s carries no SHA-256 digest to check it by" % where)
    if len(image.stored_digest) < 32:
        raise ImageError("%s is cut short before its SHA-256 digest" % where)
    if image.stored_digest != image.calc_digest:
        raise ImageError("%s fails its SHA-256 digest: the file is damaged" % where)
    return image


def banner_version(image):
    """The MicroPython release named by the banner in a parsed image's segments, or None."""
    for segment in image.segments:
        match = BANNER.search(segment.data)
        if match:
            return match.group(1).decode("ascii")
    return None


def app_offset(table, where):
    """The flash offset of the first app partition in a partition table, else ImageError."""
    for start in range(0, len(table) - ENTRY.size + 1, ENTRY.size):
        magic, kind, _, offset, _, _, _ = ENTRY.unpack_from(table, start)
        if magic == ENTRY_MAGIC:
            if kind == APP_TYPE:
                return offset
            continue
        if magic == MD5_MAGIC or table[start:start + 2] == b"\xff\xff":
            break
        raise ImageError("%s: the partition table at 0x%x is damaged (entry %d)" % (where, TABLE_OFFSET, start // ENTRY.size))
    raise ImageError("%s: the partition table at 0x%x has no app partition" % (where, TABLE_OFFSET))


def check_image(data, name="the image"):
    """Checked(data, flash offset, parts) for a MicroPython image, else ImageError(reason)."""
    offset = 0
    if data[:BOOT_OFFSET] == b"\xff" * BOOT_OFFSET and len(data) > BOOT_OFFSET:
        offset = BOOT_OFFSET  # padded from flash 0x0: the bootloader follows at 0x1000
    body = data[offset:]
    first = check_app_image(body, "%s (at flash 0x%x)" % (name, BOOT_OFFSET))
    table_at = TABLE_OFFSET - BOOT_OFFSET
    if len(body) <= table_at:
        if offset:
            raise ImageError("%s is padded from flash 0x0 but holds no partition table at 0x%x" % (name, TABLE_OFFSET))
        return Checked(data, BOOT_OFFSET, ["ESP32 image"], banner_version(first))
    if first.data_length + 32 > table_at:  # the image and its SHA-256 digest
        raise ImageError("%s: its first image runs into the partition table at 0x%x" % (name, TABLE_OFFSET))
    app_at = app_offset(body[table_at:table_at + TABLE_SIZE], name)
    app = check_app_image(body[app_at - BOOT_OFFSET:], "%s: the app (at flash 0x%x)" % (name, app_at))
    return Checked(data, BOOT_OFFSET - offset, ["bootloader", "partition table", "app at 0x%x" % app_at],
                   banner_version(app))


def read_image(path):
    """Checked for the file at `path`, else ImageError naming it and the reason."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError("cannot read the MicroPython image %s: %s" % (path, exc.strerror or exc)) from None
    return check_image(data, str(path))
