# A microsecond clock for the benchmarks that measure on both interpreters.
import sys
import time

if sys.implementation.name == "micropython":
    def now_us():
        return time.ticks_us()

    def elapsed_us(start):
        return time.ticks_diff(time.ticks_us(), start)
else:
    def now_us():
        return int(time.perf_counter() * 1e6)

    def elapsed_us(start):
        return now_us() - start
