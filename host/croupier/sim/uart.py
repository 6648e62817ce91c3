"""The ESP32's console receive path, as every virtual board has it.

The REPL UART runs at 115200 baud 8N1. Its 128-byte hardware FIFO interrupts at 120 bytes
or after a byte's time of silence, and the handler moves what it holds into the port's
stdin ring, dropping each byte that does not fit (the newest are lost) and turning each
Ctrl-C into a KeyboardInterrupt instead (ports/esp32/uart.c uart_irq_handler,
RXFIFO_FULL_THR = SOC_UART_FIFO_LEN - 8, RXFIFO_RX_TIMEOUT = 10 bit periods; v1.22.0 ..
v1.28.0). The ring is `stdin_ringbuf_array[260]` (ports/esp32/mphalport.c), and a py/ringbuf
keeps one slot empty: 259 bytes. On the virtual board the console pty is the ring; the
supervisor is the FIFO and its interrupt (croupier.sim.relay).
"""

BAUD = 115200
RING = 259
FIFO = 128
BATCH = FIFO - 8


class Fifo:
    """The UART's receive FIFO: bytes in as the line delivers them, out in the interrupt's batches."""

    def __init__(self):
        self._bytes = bytearray()
        self._quiet_at = None  # host clock (s) when the line will have been silent a byte's time

    def arrive(self, data: bytes, received_at: float, byte_time: float):
        """data's last byte is in by received_at (s); byte_time: one byte's time on the line."""
        self._bytes += data
        self._quiet_at = received_at + byte_time

    def due(self, now: float) -> bool:
        """Whether the interrupt has fired: a batch's worth, or silence since the last byte."""
        return len(self._bytes) >= BATCH or bool(self._bytes) and now >= self._quiet_at

    def wait(self, now: float):
        """Seconds until the silence interrupt; None when the FIFO is empty."""
        return max(0.0, self._quiet_at - now) if self._bytes else None

    def take(self) -> bytes:
        """What the interrupt moves: all the FIFO holds."""
        out, self._bytes = bytes(self._bytes), bytearray()
        return out

    def __len__(self):
        return len(self._bytes)
