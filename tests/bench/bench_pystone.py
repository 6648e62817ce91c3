"""The pace's calibration (docs/virtual-board.md, "Pace"; docs/benchmarks.md, "Pace
calibration"): the figures behind croupier.sim.pace's constants, measured on this machine.

1. micropython-pystone-lowmem on the unix port at full speed, per second of the
   interpreter's CPU time (the fastest of several runs), and the factor that makes it
   score 1,300 (ESP32_FACTOR);
2. what one stop and continue costs the interpreter, slicing a pystone run into
   back-to-back slices of 100 µs (RESUME_NS);
3. pystone on a paced board: pystones/s, and per second of the budget it got.

    .venv/bin/python tests/bench/bench_pystone.py
"""
import os
import signal
import subprocess
import time

from croupier.sim import pace, pystone, toolchain

TARGET = 1300
SLICE_S = 100e-6
LOOPS = 3000


def resume_cost():
    """µs of CPU one SIGSTOP/SIGCONT costs: a sliced run's CPU time less an unsliced one's,
    per slice (fastest of three each)."""
    def run(sliced):
        env = dict(os.environ, MICROPYPATH=str(pystone.source().parent))
        proc = subprocess.Popen([toolchain.micropython(), "-c", "import pystone_lowmem as p; p.pystones(%d)" % LOOPS],
                                env=env, stdout=subprocess.DEVNULL)
        slices = 0
        if sliced:
            os.kill(proc.pid, signal.SIGSTOP)
        while True:
            if sliced:
                os.kill(proc.pid, signal.SIGCONT)  # a zombie takes signals too: no race with its end
                time.sleep(SLICE_S)
                os.kill(proc.pid, signal.SIGSTOP)
                slices += 1
            pid, _, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = 0
                return usage.ru_utime + usage.ru_stime, slices
            if not sliced:
                time.sleep(0.001)

    pace._realtime()  # exact slices where allowed, as the pacer's own
    whole = min(run(False)[0] for _ in range(3))
    costs = []
    for _ in range(3):
        cpu, slices = run(True)
        costs.append((cpu - whole) / max(1, slices) * 1e6)
    return min(costs)


def main():
    rate = pystone.cpu_rate(loops=100000)
    print("- unpaced: %d pystones per CPU-second -> factor %.0f for %d (ESP32_FACTOR = %.0f)"
          % (rate, rate / TARGET, TARGET, pace.ESP32_FACTOR))
    print("- one stop and continue costs the interpreter %.0f µs of CPU (RESUME_NS = %d µs)"
          % (resume_cost(), pace.RESUME_NS / 1000))
    result = pystone.run_on_board("esp32")
    print("- paced board: %d pystones/s, %d per second of budget used (%.0f%% of its budget)"
          % (result["pystones"], result["per_budget"], 100 * result["cpu_share"]))
    print("- host load (1 min): %.2f on %d cores" % (os.getloadavg()[0], os.cpu_count()))


if __name__ == "__main__":
    main()
