# asyncio.ThreadSafeFlag as an idle ESP32 waits on one: asleep until an interrupt. The unix
# port's poll calls a flag's ioctl every millisecond instead (it has no file descriptor): 2 %
# of a host core, more than the whole chip at pace. Every change that can raise an interrupt
# (a key contact, an I2S write taken into DMA) comes on the side channel, so a waiting flag
# sleeps on that socket, runs the IRQ handlers the changes trigger and sleeps again unless one
# set the flag. asyncio lets one task wait on a stream: the flags waiting meanwhile are parked
# (as an Event's tasks), and set() wakes a flag's task wherever it waits. It may, as handlers
# run here only where the board takes messages in (_sim_channel.poll), never within asyncio's
# own loop: as a task's code does.
import _sim_channel as ch


def install():
    """Once the flash is mounted: asyncio is frozen into the port, found on its sys.path."""
    import asyncio
    from asyncio import core

    parked = []  # the flags whose tasks wait while another task sleeps on the socket

    def wake(queue):
        while queue.peek():
            core._task_queue.push(queue.pop())

    class ThreadSafeFlag(asyncio.ThreadSafeFlag):  # extmod/asyncio/event.py's, but wait()
        def __init__(self):
            super().__init__()
            self.waiting = core.TaskQueue()  # its task, parked
            self.sleeper = None  # its task, asleep on the socket

        def set(self):
            self.state = 1
            asleep = core._io_queue.map.get(id(ch._sock))
            if self.sleeper is not None and asleep and asleep[0] is self.sleeper:
                core._io_queue.remove(self.sleeper)  # the handler ran in another task's poll
                core._task_queue.push(self.sleeper)
            wake(self.waiting)

        async def wait(self):
            try:
                while True:
                    ch.poll()
                    for _ in (0,):  # a jump: the VM runs the callbacks micropython.schedule queued
                        pass
                    if self.state:
                        break
                    wait = ch.due_in(1)
                    if wait > 0:  # a held key change: its pin interrupt is due then
                        await asyncio.sleep_ms(wait)
                    elif id(ch._sock) in core._io_queue.map:  # another task sleeps on it
                        parked.append(self)
                        self.waiting.push(core.cur_task)
                        core.cur_task.data = self.waiting
                        try:
                            yield
                        finally:
                            parked.remove(self)
                    else:
                        self.sleeper = core.cur_task
                        yield core._io_queue.queue_read(ch._sock)
            finally:
                self.sleeper = None
                if parked and id(ch._sock) not in core._io_queue.map:  # leaving the socket:
                    wake(parked[0].waiting)  # a parked task takes it over
            self.state = 0

    asyncio.ThreadSafeFlag = ThreadSafeFlag
