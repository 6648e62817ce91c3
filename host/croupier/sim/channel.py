"""The supervisor's side of the side channel (the board's side is mpy/_sim_channel.py).

Board -> host: a header [kind, arg, len_lo, len_hi] and len payload bytes (for 'Q' the
length is the number of bytes asked for, and no payload follows).
Host -> board: 4-byte messages [kind, b1, b2, b3].
"""
import struct

# machine.reset_cause() on the ESP32 (ports/esp32/modmachine.c, v1.23.0): a board starts with one
PWRON_RESET, HARD_RESET, SOFT_RESET = 1, 2, 5

# board -> host
HELLO = ord("S")  # the board waits for a REPLY: by then it has the keys and any armed cut
BOOTED = ord("B")  # serial input may flow
FORMATTED = ord("F")  # the flash did not mount and was formatted
I2C_WRITE = ord("I")  # arg: address; payload: the bytes
I2C_READ = ord("Q")  # arg: address; len: bytes wanted -> REPLY
TONE = ord("T")  # arg: GPIO; payload: freq u32, duty_u16 u16
FLASH_WRITE = ord("W")  # one prog or erase is about to happen; len: µs the chip's flash is busy
POWER_CUT = ord("X")  # the armed power cut is due: stop the interpreter now
RESET = ord("H")  # machine.reset()
RTC_SET = ord("D")  # payload: the RTC's offset from the host clock, ASCII seconds
I2S_ON = ord("J")  # arg: I2S id; payload: rate u32, bits u8, channels u8, DMA bytes u32
I2S_WRITE = ord("P")  # arg: I2S id, +0x80 on a write's last part; payload: its samples
I2S_OFF = ord("O")  # arg: I2S id, +0x80 to keep what is in DMA -> REPLY once dropped

# host -> board
KEYS = ord("K")
ARM_CUT = ord("C")
REPLY = ord("R")
I2S_DONE = ord("A")  # i2s_done(): a write is wholly in DMA memory
NO_PAYLOAD = (I2C_READ, HELLO, FLASH_WRITE, I2S_OFF)


class Decoder:
    """Splits the board's byte stream into (kind, arg, length, payload) messages."""

    def __init__(self):
        self._buf = bytearray()

    def feed(self, data: bytes):
        self._buf += data
        messages = []
        while len(self._buf) >= 4:
            kind, arg, length = self._buf[0], self._buf[1], self._buf[2] | self._buf[3] << 8
            size = 0 if kind in NO_PAYLOAD else length
            if len(self._buf) < 4 + size:
                break
            messages.append((kind, arg, length, bytes(self._buf[4:4 + size])))
            del self._buf[:4 + size]
        return messages


LASTED_UNIT_MS = 4  # a key message says how long the state before it lasted, in these units
LASTED_MAX = 255  # ... up to this many (1.02 s: past the firmware's 600 ms long press)


def keys(mask: int, lasted_s: float = 0.0) -> bytes:
    """The key matrix's new state, and how long the state before it lasted on the host."""
    lasted = min(LASTED_MAX, int(lasted_s * 1000 / LASTED_UNIT_MS))
    return bytes((KEYS, mask & 0xFF, mask >> 8 & 0xFF, lasted))


def arm_cut(writes: int, tear: bool) -> bytes:
    if not 0 <= writes < 1 << 23:
        raise ValueError("power cut after 1 to %d writes, not %r" % ((1 << 23) - 1, writes))
    return bytes((ARM_CUT, writes & 0xFF, writes >> 8 & 0xFF, writes >> 16 | (0x80 if tear else 0)))


def reply(status: int, payload: bytes = b"") -> bytes:
    return struct.pack("<BBH", REPLY, status, len(payload)) + payload


def i2s_done(port: int) -> bytes:
    return bytes((I2S_DONE, port, 0, 0))
