# The pace's gauge (croupier.sim.pacer.Gauge): a fixed mix of bytecode, run for ever and paced
# like a busy board, writing one byte to stdout after each unit of work. The host counts the
# units per second of this interpreter's CPU time: how much a paced CPU-second of this host
# does right now, which moves with its load and its caches far more than a steady one's.
# The mix is pystone's kind of work (records, attribute and global access, calls,
# comparisons of short strings, lists of lists), so units stand in for pystones at a fixed
# ratio (pacer.UNITS_PER_PYSTONE).
import sys

STEPS = 40  # steps a unit: tens of µs on a host, several units a paced slice

counter = 0


class Record:
    def __init__(self, link, number):
        self.link = link
        self.number = number
        self.text = "PROGRAM, SOME STRING"


def bump(record, grid, i):
    global counter
    counter = (counter + record.number) & 0xFFFF
    row = grid[i & 7]
    row[i & 15] = counter
    if record.text < "PROGRAM, 2'ND STRING":
        record.number = i
    return row[(i + 1) & 15] + len(row)


def swap(record):
    record.link.number, record.number = record.number, record.link.number
    return record.link


def main():
    out = sys.stdout.buffer
    record = Record(None, 5)
    record.link = Record(record, 3)
    grid = [[0] * 16 for _ in range(8)]
    while True:
        for i in range(STEPS):
            bump(record, grid, i)
            record = swap(record)
        out.write(b".")


main()
