"""The chip's time for work a virtual board did at full speed (docs/benchmarks.md, "At the
ESP32's pace"): the interpreter's CPU time (VirtualBoard.work) less what its emulated reads,
writes and wake-ups cost the host, x the pace's factor (pystone per CPU-second here over the
chip's score), plus those reads and writes at the chip's cost and the bus and flash times.
"""
import functools
import os
import subprocess
import tempfile

from croupier.sim import pace, pystone, toolchain
from croupier.sim.board import SIM_HEAP

# What an emulated read or write costs the chip, in C: a 128-byte littlefs cache line read
# from SPI flash (esp_partition_read: ~13 µs of transfer at 40 MHz on two lines, plus the
# command and the cache guard), or bytes handed to the UART driver. An estimate.
CHIP_IO_US = 20
PYSTONE_LOOPS = 30000  # a run: about 0.3 s of the unix port's CPU time


def chip_parts(vb, before: dict, after: dict) -> dict:
    """The chip's times (ms) for the work unpaced board vb did between two readings of
    vb.work(): 'cpu' (its CPU time less its read and write system calls and wake-ups at
    their host cost, emulation_ns, x factor), 'io' (those reads and writes at
    CHIP_IO_US; a chip's wake-up, a task switch of a few µs, counts as nothing), 'flash',
    'bus'; and what 'cpu' leaves out: 'io_calls', 'runs' (wake-ups), 'emulation' (x factor)."""
    rate, emulation = factor(vb), emulation_ns(vb)
    calls, runs = after["io_calls"] - before["io_calls"], after["runs"] - before["runs"]
    emulated_ns = calls * emulation["io_call"] + runs * emulation["wake"]
    cpu_ns = max(0, after["cpu_ns"] - before["cpu_ns"] - emulated_ns)
    return {"cpu": cpu_ns / 1e6 * rate, "io": calls * CHIP_IO_US / 1e3,
            "flash": (after["flash_us"] - before["flash_us"]) / 1e3, "bus": (after["bus_us"] - before["bus_us"]) / 1e3,
            "io_calls": calls, "runs": runs, "emulation": emulated_ns / 1e6 * rate}


def chip_ms(parts: dict) -> float:
    """The chip's time (ms) for the work chip_parts took apart: its times summed."""
    return sum(parts[part] for part in ("cpu", "io", "flash", "bus"))


_READS = """import _sim_flash
f = _sim_flash.Flash(%r)
buf = bytearray(128)
read = f.readblocks
for i in range(%d):
    read(i & 15, buf, i * 128 & 4095)
"""
_WAKES = """import time
for i in range(%d):
    time.sleep_us(20)
"""


def factor(vb) -> float:
    """Host CPU time x factor = the ESP32's time for the same bytecode on board vb's heap."""
    return _factor(vb.heap + SIM_HEAP)


@functools.lru_cache(maxsize=None)
def _factor(heap) -> float:
    return cpu_rate(heap) / pace.ESP32.pystones  # about a second of pystone, once a process


def cpu_rate(heap) -> float:
    """Pystones per second of CPU time of the unix port at full speed, with a board's heap
    (bytes: a smaller one collects more often, as the chip's does)."""
    code = "import pystone_lowmem as p; p.pystones(%d)"
    return PYSTONE_LOOPS / extra_cpu_seconds(code % 0, code % PYSTONE_LOOPS, heap, pystone.source().parent, 3, 5)


def emulation_ns(vb) -> dict:
    """Host CPU ns the emulation costs board vb: 'io_call', one read or write system call
    (every one of a board's is the emulation's: its flash, console, side channel), as the
    board's flash read of a 128-byte cache line, its commonest (a sync makes about 5 a
    journal record); 'wake', one wake-up of the interpreter from a sleep or a wait (the
    kernel's switch and the caches it leaves cold)."""
    return _emulation_ns(vb.heap + SIM_HEAP)


@functools.lru_cache(maxsize=None)
def _emulation_ns(heap) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".img") as image:
        image.write(b"\xff" * 16 * 4096)
        image.flush()
        return {"io_call": _cost_ns(_READS % (image.name, 0), _READS % (image.name, 200000), 200000, heap),
                "wake": _cost_ns(_WAKES % 0, _WAKES % 5000, 5000, heap)}


def _cost_ns(idle, busy, count, heap, runs=3) -> float:
    """Host CPU ns of one of the `count` things `busy` does beyond `idle`, measured as
    cpu_rate measures (extra_cpu_seconds), the fastest of `runs`."""
    return extra_cpu_seconds(idle, busy, heap, toolchain.board_modules(), runs, runs) / count * 1e9


def extra_cpu_seconds(idle, busy, heap, path, starts, runs) -> float:
    """The unix port's CPU time to run code `busy` less that of code `idle` (its start-up),
    with `heap` bytes of heap and MICROPYPATH `path`: the fastest of `starts` runs of idle and
    of `runs` of busy. CPU time, so other processes of a busy host only ever slow a run
    (through the caches they share), never enter it."""
    def cpu_seconds(code):
        proc = subprocess.Popen([*toolchain.unix_port().command, "-X", "heapsize=%d" % heap, "-c", code],
                                env=dict(os.environ, MICROPYPATH=str(path)), stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = status
        if status:
            raise toolchain.SimError("the unix port failed on a calibration (status %d)" % status)
        return usage.ru_utime + usage.ru_stime

    start_up = min(cpu_seconds(idle) for _ in range(starts))
    return min(cpu_seconds(busy) - start_up for _ in range(runs))

