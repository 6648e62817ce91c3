# asyncio.ThreadSafeFlag as an idle ESP32 waits on one: asleep until an interrupt. The unix
# port's poll calls a flag's ioctl every millisecond instead (it has no file descriptor): 2 %
# of a host core, more than the whole chip at pace. Every change that can raise an interrupt
# (a key contact, for the pin IRQs) comes on the side channel, so a waiting flag sleeps on that
# socket, runs the IRQ handlers the changes trigger and sleeps again unless one set the flag.
# One task at a time can sleep on it: a second waiting flag looks at its state each ms, as
# asyncio's poll does, and leaves the messages to the sleeper, which they wake.
import _sim_channel as ch


def install():
    """Once the flash is mounted: asyncio is frozen into the port, found on its sys.path."""
    import asyncio
    from asyncio import core

    class ThreadSafeFlag(asyncio.ThreadSafeFlag):  # extmod/asyncio/event.py's, but wait()
        async def wait(self):
            while True:
                asleep = id(ch._sock) in core._io_queue.map  # another flag's task sleeps on it
                if not asleep:
                    ch.poll()
                for _ in (0,):  # a jump: the VM runs the callbacks micropython.schedule queued
                    pass
                if self.state:
                    break
                wait = 1 if asleep else ch.due_in(1)
                if wait > 0:  # a held key change: its pin interrupt is due then
                    await asyncio.sleep_ms(wait)
                else:
                    yield core._io_queue.queue_read(ch._sock)
            self.state = 0

    asyncio.ThreadSafeFlag = ThreadSafeFlag
