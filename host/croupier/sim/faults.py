"""Faults a test injects into a virtual board (mixed into VirtualBoard): a faulty or slower
serial line, a power cut at a chosen flash write."""
import random

from croupier.sim import channel, uart


class Faults:
    def faults(self, drop=0.0, corrupt=0.0, baud=None, seed=None, direction="both"):
        """Serial line faults: drop/corrupt probabilities per byte, a baud rate (default: the
        UART's into the board and out of a paced one; an unpaced board's output is not held
        back) and a seed, on direction 'both', 'to_board' or 'to_host'."""
        lines = {"both": (self._to_board, self._to_host), "to_board": (self._to_board,),
                 "to_host": (self._to_host,)}
        if direction not in lines:
            raise ValueError("direction must be one of %s" % ", ".join(lines))
        with self._lock:
            for i, line in enumerate(lines[direction]):
                rate = baud if baud is not None else uart.BAUD if line is self._to_board or self.pace else None
                line.configure(drop, corrupt, rate, None if seed is None else seed + i)
        self._wake()

    def cut_power(self, after_writes=None, within=None, seed=None, tear=True):
        """Arm a power cut at the after_writes-th next flash write (prog or erase), or at a
        random one of the next `within` (seeded); tear: that write lands half-done. Armed
        before start(), it counts from power-on; the board stays off until restart().
        -> the write count it will die at."""
        if (after_writes is None) == (within is None):
            raise ValueError("give after_writes or within")
        n = after_writes if within is None else random.Random(seed).randint(1, within)
        if n < 1:
            raise ValueError("after_writes must be at least 1")
        with self._lock:
            self._cut = channel.arm_cut(n, tear)
            self._send(self._cut)
        return n
