"""The VOX1 voice bank: one file of keyed sounds (docs/laptop.md, "The box's voice"). The one
writer and the one reader of the format on the laptop; the firmware reads the same layout.

    0  b"VOX1"   4 u16 rate   6 u8 count   7 u8 origin
    8  count x (u32 start, u32 length): start is the absolute offset of the entry's PCM
    then count keys (u8 length, UTF-8), then the PCM; little-endian throughout.
"""
import struct

MAGIC = b"VOX1"
RATE = 8000         # samples a second: 16-bit signed little-endian mono PCM
SYNTHESIZED = 0     # origin: made by croupier from the synthesizer
RECORDED = 1        # origin: a user's own recordings (`croupier voice --from`)
ORIGINS = (SYNTHESIZED, RECORDED)
HEADER = struct.Struct("<4sHBB")
ENTRY = struct.Struct("<II")
MAX_ENTRIES = 255   # count is a u8
MAX_KEY = 255       # a key's length is a u8


class BankError(ValueError):
    """Not a bank this croupier can write or read; the message says what is wrong."""


def write(entries, origin=SYNTHESIZED) -> bytes:
    """The bank of `entries`, a list of (key, PCM bytes) in the bank's order."""
    if origin not in ORIGINS:
        raise BankError("origin must be one of %s, not %r" % (ORIGINS, origin))
    if len(entries) > MAX_ENTRIES:
        raise BankError("a bank holds at most %d sounds, not %d" % (MAX_ENTRIES, len(entries)))
    keys = [key.encode("utf-8") for key, _ in entries]
    for raw in keys:
        if not 0 < len(raw) <= MAX_KEY:
            raise BankError("a bank key is 1 to %d UTF-8 bytes: %r is %d" % (MAX_KEY, raw.decode(), len(raw)))
        if keys.count(raw) > 1:
            raise BankError("bank keys must be distinct: %r is there twice" % raw.decode())
    for key, pcm in entries:
        if len(pcm) % 2:
            raise BankError("the sound of %r is not whole 16-bit samples (%d bytes)" % (key, len(pcm)))
    start = HEADER.size + ENTRY.size * len(entries) + sum(1 + len(k) for k in keys)
    table, offset = [], start
    for _, pcm in entries:
        table.append(ENTRY.pack(offset, len(pcm)))
        offset += len(pcm)
    return b"".join([HEADER.pack(MAGIC, RATE, len(entries), origin), *table,
                     *(bytes((len(k),)) + k for k in keys), *(pcm for _, pcm in entries)])


def origin(head: bytes) -> int:
    """The origin of a bank from its first HEADER.size bytes; BankError if they are not a bank's."""
    if len(head) < HEADER.size:
        raise BankError("not a voice bank: %d bytes, a header has %d" % (len(head), HEADER.size))
    magic, rate, _, found = HEADER.unpack_from(head)
    if magic != MAGIC:
        raise BankError("not a voice bank: it starts with %r, not %r" % (magic, MAGIC))
    if rate != RATE or found not in ORIGINS:
        raise BankError("a voice bank of rate %d and origin %d; this croupier knows rate %d, origins %s"
                        % (rate, found, RATE, ORIGINS))
    return found


def keys(head: bytes):
    """(the keys of a bank, in its order, where its keys end) from its first bytes, which hold
    at least its header, table and keys; BankError if they do not."""
    origin(head)
    count = head[6]
    at = HEADER.size + ENTRY.size * count
    if at > len(head):
        raise BankError("voice bank cut short: its table of %d entries ends past its %d bytes" % (count, len(head)))
    found = []
    for _ in range(count):
        size = head[at] if at < len(head) else 0
        if at + 1 + size > len(head) or not size:
            raise BankError("voice bank cut short or damaged in its keys (entry %d)" % len(found))
        found.append(head[at + 1:at + 1 + size].decode("utf-8", "replace"))
        at += 1 + size
    return found, at


def read(data: bytes):
    """(origin, [(key, PCM bytes), ...]) of a bank, in its order; BankError if it is damaged."""
    names, end = keys(data)
    entries = []
    for i, key in enumerate(names):
        start, length = ENTRY.unpack_from(data, HEADER.size + ENTRY.size * i)
        if start < end or start + length > len(data) or length % 2:
            raise BankError("voice bank entry %r lies outside the file's sound (%d+%d of %d bytes)"
                            % (key, start, length, len(data)))
        entries.append((key, data[start:start + length]))
    return origin(data), entries
