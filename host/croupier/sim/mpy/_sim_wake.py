# asyncio on the virtual board. First, asyncio.ThreadSafeFlag as an idle ESP32 waits on one:
# asleep until an interrupt. The unix port's poll cannot sleep on a flag (it has no file
# descriptor), so it calls the flag's ioctl every millisecond: 2 % of a host core, more than
# the whole chip at pace. On the virtual board every change that can raise an interrupt (a
# key contact, for the pin IRQs) arrives on the side channel, so a waiting flag sleeps on
# that socket instead, takes the changes in (machine schedules the IRQ handlers they
# trigger), runs the handlers and goes back to sleep unless one of them set the flag. Then,
# paced, the host's price of waking from a long sleep (below).
from time import ticks_diff, ticks_ms

import _sim_channel as ch

# asyncio's sleeps on a paced board. A sleep of LONG_SLEEP_MS or more leaves the host's
# caches and page tables cold: its wake-up costs the host 40-108 µs of CPU on the build VM
# for sleeps of 10-20 ms (tests/bench/bench_serial_rx.py; 117-162 µs before the heap was
# touched at boot, _sim_heap), where the chip's FreeRTOS wake-up costs a few µs. The pacer
# gives every wake-up back pace.WAKE_NS (a wake-up from poll: 15 µs); the board reports
# more for such a sleep's wake-up, short of the lowest cost measured, as emulation time. A
# sleep a pacer stop stretched past its timeout is a resume, which the pace's calibration
# covers: nothing more for it.
_LONG_SLEEP_MS = 10
_LONG_WAKE_EXTRA_US = 25  # 40 µs in all: never more than such a wake-up costs

_queue = None  # asyncio's I/O queue, once installed
_sleep_ms = None  # and its sleep
_wait = None  # and its wait for I/O or the next timer (dt: ms, -1 for no timer)


def _run_scheduled():
    for _ in (0,):  # a jump: the VM runs the callbacks micropython.schedule queued
        pass


class ThreadSafeFlag:
    def __init__(self):
        self.state = 0

    def set(self):
        self.state = 1

    def clear(self):
        self.state = 0

    async def wait(self):
        while True:
            ch.take_in()
            _run_scheduled()
            if self.state:
                break
            due = ch.held_ms()
            if due < 0:
                yield _queue.queue_read(ch._sock)
            else:  # a key change waits its turn (_sim_channel): look again when it is due
                await _sleep_ms(due)
        self.state = 0


def _wait_io_event(dt):
    start = ticks_ms()
    _wait(dt)
    slept = ticks_diff(ticks_ms(), start)
    if slept >= _LONG_SLEEP_MS and (dt < 0 or slept <= dt + 2):
        ch.credit(_LONG_WAKE_EXTRA_US)


def install():
    """Once the flash is mounted: asyncio is frozen into the port, found on its sys.path."""
    global _queue, _sleep_ms, _wait
    import asyncio
    from asyncio import core

    _queue = core._io_queue
    _sleep_ms = asyncio.sleep_ms
    asyncio.ThreadSafeFlag = ThreadSafeFlag
    if ch._paced:
        _wait = _queue.wait_io_event
        _queue.wait_io_event = _wait_io_event
