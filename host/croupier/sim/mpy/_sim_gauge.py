# The pace's gauge (croupier.sim.pacer.Gauge): pystone (micropython-pystone-lowmem, the
# benchmark that defines the chip's speed), run for ever and paced like a busy board,
# writing one byte to stdout after each unit of CROUPIER_GAUGE_PASSES passes. The host
# counts the units per second of this interpreter's CPU time: how many pystones a paced
# CPU-second of this host does right now, which moves with its load and its caches far
# more than a steady one's.
import os
import sys

import _sim_heap
import pystone_lowmem


def main():
    passes = int(os.getenv("CROUPIER_GAUGE_PASSES"))
    _sim_heap.touch()  # before the first unit, which tells the host it has started
    out = sys.stdout.buffer
    while True:
        pystone_lowmem.pystones(passes)
        out.write(b".")


main()
