"""The virtual board's serial line (VirtualBoard's line I/O) and its --link symlink.

Into the board: the serial-port pty at 115200 baud (line.Line, with its faults), the UART's
FIFO and the 259-byte ring that is the console pty, counting what overflows
(croupier.sim.uart); a 0x03 becomes the unix port's Ctrl-C signal (toolchain.unix_port). Out:
the board's output, kept for wait_output().
"""
import fcntl
import os
import signal
import struct
import termios
import time

from croupier.sim import toolchain, uart

INTERRUPT = 0x03
OUTPUT_KEPT = 4 << 20  # bytes of board output kept for wait_output()
UNSENT_KEPT = 1 << 20  # bytes waiting for a reader of the serial port; older ones are lost
LINE_TICK = 0.001  # a line with a baud rate moves its bytes this often (not one wake-up per byte)


class SerialRelay:
    """Mixed into VirtualBoard; runs on its I/O thread under its lock."""

    def _take_link(self):
        """Make self.link a symlink to our port; a link to a port that still exists is a
        running board's and is left alone."""
        if self.link.is_symlink() and (not self.link.exists() or self._owns_link()):
            self.link.unlink()  # the port it named is gone (or was given to us again)
        try:
            self.link.symlink_to(self.port)
        except FileExistsError:
            what = ("links to %s, a port still open (a running virtual board's?)" % os.readlink(self.link)
                    if self.link.is_symlink() else "exists and is not a link")
            raise toolchain.SimError("%s %s: choose another --link (or stop that board)" % (self.link, what)) from None

    def _owns_link(self):
        """True when self.link is our symlink: another board's link is never removed."""
        port = getattr(self, "port", None)
        return bool(self.link and port and self.link.is_symlink() and os.readlink(self.link) == port)

    def mark(self) -> int:
        """A position in the board's output stream, for output()/wait_output()."""
        with self._lock:
            return self._output_base + len(self._output)

    def output(self, since=0) -> bytes:
        """What the board printed (before line faults) since a mark()."""
        with self._lock:
            return bytes(self._output[max(0, since - self._output_base):])

    def wait_output(self, pattern: bytes, timeout=10.0, since=0) -> bytes:
        """Wait until the output since a mark contains pattern; -> that output."""
        self._wait(lambda: pattern in self.output(since), timeout,
                   lambda: "board output never showed %r; got %r" % (pattern, self.output(since)[-400:]))
        return self.output(since)

    def wait_sent(self, timeout=10.0):
        """Wait until everything the board printed has crossed the line to the serial port."""
        self._wait(lambda: not (self._to_host.pending() or self._unsent), timeout,
                   lambda: "board output still on its way to the port (%d bytes)" % len(self._unsent))

    def wait_delivered(self, timeout=60.0):
        """Wait until what the relay took from the serial port is in the ring (or lost to it)."""
        self._wait(lambda: not (self._to_board.pending() or len(self._fifo)), timeout,
                   lambda: "serial input still on its way to the board")

    def _pump(self):
        """Move bytes along both lines as far as their timing allows. -> seconds to sleep."""
        now = time.monotonic()
        if self._ready and self._console is not None:
            data = self._to_board.take(now)
            if data:  # in the FIFO once it has crossed
                per_byte = self._to_board.byte_time
                self._fifo.arrive(data, self._to_board.began + len(data) * per_byte, per_byte)
            elif self._rx:
                self._flush_rx()
            if self._fifo.due(now):
                self._to_ring(self._fifo.take())
                self._changed.notify_all()  # for wait_delivered()
        self._unsent += self._to_host.take(now)
        if self._unsent:
            try:
                sent = os.write(self._serial, self._unsent)
                del self._unsent[:sent]
                if not self._unsent:
                    self._changed.notify_all()  # for wait_sent()
            except BlockingIOError:
                del self._unsent[:max(0, len(self._unsent) - UNSENT_KEPT)]
        waits = [w and max(w, LINE_TICK) for w in (self._to_board.wait(now) if self._ready else None,
                                                    self._to_host.wait(now)) if w is not None]
        if len(self._fifo):  # the UART's silence interrupt: one timer, on time
            waits.append(self._fifo.wait(now))
        if self._unsent or self._rx:
            waits.append(0.01)  # a reader is behind: retry soon
        return min(waits) if waits else None

    def _to_ring(self, batch: bytes):
        """The UART interrupt's batch into the ring: what does not fit is lost, the newest first.
        Its Ctrl-Cs schedule one KeyboardInterrupt, as one run of the handler does (the VM
        raises nothing before the handler is done)."""
        data = batch.replace(bytes((INTERRUPT,)), b"")  # never put in the ring (uart.c uart_irq_handler)
        if len(data) < len(batch):
            self._interrupt()
        room = max(0, uart.RING - self._ring_queued() - len(self._rx))
        self.rx_overflow += max(0, len(data) - room)
        self._rx += data[:room]
        self._flush_rx()

    def _interrupt(self):
        """A Ctrl-C, as the UART's interrupt character schedules a KeyboardInterrupt."""
        if not self._proc:
            return
        if self._unix_port.interrupt == signal.SIGINT:  # a port built by hand: one with the GIL
            now = time.monotonic()  # schedules it, and exits on a second one still pending (unix_mphal.c)
            if now - self._last_interrupt <= 0.1:
                return
            self._last_interrupt = now
        os.kill(self._proc.pid, self._unix_port.interrupt)

    def _ring_queued(self):
        """Bytes in the ring (the console's queue): its slave end, opened for a moment, tells."""
        try:
            fd = os.open(self._console_name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return 0  # the interpreter is going away
        try:
            return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
        finally:
            os.close(fd)

    def _flush_rx(self):
        try:
            del self._rx[:os.write(self._console, self._rx)]
        except BlockingIOError:
            pass  # the interpreter is not reading right now
        except OSError:
            self._rx.clear()  # it is going away

    def _on_serial(self):
        try:
            data = os.read(self._serial, 4096)
        except OSError:
            return
        self.received += len(data)
        self._to_board.push(data)

    def _on_console(self):
        try:
            data = os.read(self._console, 4096)
        except OSError:
            data = b""
        if data:
            self._board_output(data)
        else:
            self._on_exit()

    def _board_output(self, data):
        self._output += data
        cut = max(0, len(self._output) - OUTPUT_KEPT)
        del self._output[:cut]
        self._output_base += cut
        self._to_host.push(data)
        self._emit("output", data)
