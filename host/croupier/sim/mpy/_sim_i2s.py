# machine.I2S for the virtual board: ports/esp32/machine_i2s.c with extmod/machine_i2s.c
# (v1.23.0 .. v1.28.0). The DMA memory is the supervisor's (host croupier/sim/audio.py): a
# write goes there whole, and the supervisor says when it is wholly in DMA memory; only then
# does a blocking write return or a non-blocking one's handler get scheduled.
import micropython
from micropython import const, schedule
import struct

import _sim_channel as _ch
from machine import Pin

_i2s_on = bytearray(10)  # rate (u32), bits, channels (u8), DMA bytes (u32): the supervisor's DMA
_PART = 32768  # a write goes to the supervisor in parts of at most this many bytes


class I2S:
    """TX only: readinto() and the asyncio stream are not modelled."""
    RX = const(1)  # I2S_DIR_RX (ESP-IDF i2s_types.h)
    TX = const(2)  # I2S_DIR_TX
    MONO = const(0)
    STEREO = const(1)
    _ports = [None, None]  # MP_STATE_PORT(machine_i2s_obj): one object an id, ids below I2S_NUM_AUTO

    def __new__(cls, id, **kwargs):  # mp_machine_i2s_make_new_instance: made again, it is deinit'ed
        if not 0 <= id < 2:
            raise ValueError("invalid id")
        if I2S._ports[id] is None:
            I2S._ports[id] = self = object.__new__(cls)
            self._id, self._mode, self._handler = id, 0, None  # mode 0: off (deinit'ed or never on)
            # the handlers of the writes sent and not yet scheduled, oldest first: the first
            # _sent - _waiting are in DMA memory, the other _waiting (2 at most) are not
            self._handlers, self._first, self._sent, self._waiting = [None] * 3, 0, 0, 0
        return I2S._ports[id]

    def __init__(self, id, **kwargs):
        self.init(**kwargs)

    def init(self, *, sck, ws, sd, mck=None, mode, bits, format, rate, ibuf):
        self.deinit()  # first, as the port does: a bad argument leaves the port off
        if mck is not None:  # the ESP32 port has no MICROPY_PY_MACHINE_I2S_MCK
            raise TypeError("extra keyword arguments given")
        for pin in (sck, ws, sd):
            Pin(pin)  # machine_pin_get_id: a Pin or a GPIO number, else "invalid pin"
        if mode not in (1, 2):
            raise ValueError("invalid mode")
        if bits not in (16, 32):
            raise ValueError("invalid bits")
        if format not in (0, 1):
            raise ValueError("invalid format")
        if rate <= 0:  # the port leaves it to ESP-IDF: taken as its clock setup's error
            raise OSError(-258, "ESP_ERR_INVALID_ARG")
        self._mode, self._handler = mode, None  # io_mode BLOCKING
        if mode == 2:  # get_dma_buf_count: ibuf // (256 frames * frame bytes) buffers, 2 at least
            frame = bits // 8 * (format + 1)  # (v1.24.0's MAX(..., 2); v1.23.0 failed below 2)
            struct.pack_into("<IBBI", _i2s_on, 0, rate, bits, format + 1, max(2, ibuf // (256 * frame)) * 256 * frame)
            _ch.send(74, self._id, 10)  # 'J'
            _ch.write(_i2s_on)

    def deinit(self):
        if self._mode:  # i2s_del_channel: what the DMA memory holds is never played
            if self._handler and self._waiting:  # i2s_channel_disable ends the write the
                self._waiting -= 1  # port's task copies, which then schedules its handler
            self._drop(0)
            self._mode = 0

    def irq(self, handler):
        if handler is not None and not callable(handler):
            raise ValueError("invalid callback")
        if handler is None and self._handler:  # irq_update deletes the task and its queue:
            self._drop(0x80)  # the writes not yet in DMA memory are lost
        self._handler = handler  # NON_BLOCKING while set

    def _drop(self, keep_dma):
        self._flush()  # (the handlers of the writes already in DMA memory are scheduled)
        self._sent = self._waiting = 0
        if self._mode == 2:
            _ch.request(79, self._id | keep_dma, 0, None)  # 'O': no 'A' for them after the reply

    def write(self, buf):
        if not self._mode:  # v1.24.0+: check_esp_err on the deleted channel
            raise OSError(-258, "ESP_ERR_INVALID_ARG")
        if self._mode != 2:
            raise OSError(1)  # EPERM: extmod's stream write on an RX port
        n = _nbytes(buf)
        if not n or self._waiting == 2:  # the task copies one, its queue holds one:
            return n  # xQueueSend(..., 0) drops this one
        self._handlers[(self._first + self._sent) % 3] = self._handler
        self._sent += 1
        self._waiting += 1
        if n != len(buf):  # an array of wider items: the channel counts bytes
            buf = bytes(buf)
        for at in range(0, n, _PART):
            part = memoryview(buf)[at:at + _PART] if n > _PART else buf
            _ch.send(80, self._id | (0x80 if at + _PART >= n else 0), len(part))  # 'P'
            _ch.write(part)
        if not self._handler:  # blocking: until it is in DMA memory
            while self._waiting:
                _ch.wait()
            self._flush()
        return n

    def _done(self):
        """The oldest waiting write is wholly in DMA memory (or was dropped: the supervisor's
        word was on its way). Taken in as key changes are (a pin read, idling, a flag's wait),
        and the poll() that took it schedules the handler: once, as it runs on every pin read."""
        if self._waiting:
            self._waiting -= 1
            _ch.on_polled = _i2s_polled

    def _flush(self):
        """Schedule the handlers of the writes in DMA memory (the port's task does it as each
        goes in), never within the emulation's own exchanges with the supervisor."""
        while self._sent > self._waiting:
            handler = self._handlers[self._first]
            self._first, self._sent = (self._first + 1) % 3, self._sent - 1
            if handler:
                try:
                    schedule(handler, self)  # mp_sched_schedule(callback, self)
                except RuntimeError:
                    pass  # the queue is full: mp_sched_schedule drops it too

    @staticmethod
    def shift(*, buf, bits, shift):
        """Each sample shifted arithmetically in place, kept to its bits as C's int16_t/int32_t."""
        if bits not in (16, 32):
            raise ValueError("invalid bits")
        if isinstance(buf, (bytes, str)):
            raise TypeError("object with buffer protocol required")  # mp_get_buffer_raise(MP_BUFFER_RW)
        _shift(buf, _nbytes(buf) // (bits // 8) * (bits // 16), bits, shift)


def _nbytes(buf):
    """The buffer's length in bytes (len() counts an array's items)."""
    if isinstance(buf, (bytes, bytearray)) or not len(buf):
        return len(buf)
    return len(buf) * len(bytes(buf[:1]))


@micropython.viper
def _shift(buf, words: int, bits: int, by: int):
    """extmod/machine_i2s.c machine_i2s_shift() over `words` 16-bit words of buf (this host
    is little-endian and 64-bit: a sample is sign-extended from its top bit)."""
    p = ptr16(buf)
    top = 64 - bits
    i = 0
    while i < words:
        v = int(p[i])
        if bits == 32:
            v = v | int(p[i + 1]) << 16
        v = (v << top) >> top
        if by >= 0:
            v = v << by
        else:
            v = v >> (0 - by)
        p[i] = v
        if bits == 32:
            p[i + 1] = v >> 16
        i += bits >> 4


def _i2s_polled():
    """After the board took a write's 'A' in: the I2S handlers now due (an off port has none)."""
    _ch.on_polled = None
    for port in I2S._ports:
        if port:
            port._flush()


_ch.on_i2s = lambda id: I2S._ports[id]._done()
