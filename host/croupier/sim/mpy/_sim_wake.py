# asyncio.ThreadSafeFlag as an idle ESP32 waits on one: asleep until an interrupt. The unix
# port's poll cannot sleep on a flag (it has no file descriptor), so it calls the flag's
# ioctl every millisecond: 2 % of a host core, more than the whole chip at pace. On the
# virtual board every change that can raise an interrupt (a key contact, for the pin IRQs)
# arrives on the side channel, so a waiting flag sleeps on that socket instead, takes the
# changes in (machine schedules the IRQ handlers they trigger), runs the handlers and goes
# back to sleep unless one of them set the flag.
import _sim_channel as ch

_queue = None  # asyncio's I/O queue, once installed
_sleep_ms = None  # and its sleep


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
            ch.poll()
            _run_scheduled()
            if self.state:
                break
            wait = ch.due_in(1)
            if wait > 0:  # a held key change: its pin interrupt is due then
                await _sleep_ms(wait)
            else:
                yield _queue.queue_read(ch._sock)
        self.state = 0


def install():
    """Once the flash is mounted: asyncio is frozen into the port, found on its sys.path."""
    global _queue, _sleep_ms
    import asyncio
    from asyncio import core

    _queue = core._io_queue
    _sleep_ms = asyncio.sleep_ms
    asyncio.ThreadSafeFlag = ThreadSafeFlag
