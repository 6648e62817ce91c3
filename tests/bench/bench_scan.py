"""What one keypad scan costs the virtual board in host CPU, and how much of it the emulation
credits back (docs/virtual-board.md, "The emulation's own code"; docs/benchmarks.md,
"Keypad scan cost").

The firmware's Keypad scans the emulated matrix (machine.Pin, the side channel), paced
reporting on, with one key down and with every key up; then the same scan on pins whose
reads and writes are C calls, what a chip's scan costs in bytecode. The difference less the
credit is the emulation's overcharge. Full speed, warm caches: a scan that begins a paced
slice costs several times as much.

    .venv/bin/python tests/bench/bench_scan.py
"""
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host"))
from croupier.paths import firmware_dir, micropython_binary  # noqa: E402

SCANS = 3000

SCRIPT = """
import os, time
import _sim_channel as ch
ch.connect(os.getenv("SCAN_SOCKET"))
import machine
from boards.esp32 import KEY_ROWS, KEY_COLS, KEY_LABELS
from croupier.keys import Keypad

credited = [0]
report = ch.credit


def counted(us):
    credited[0] += us
    report(us)


ch.credit = counted


def per_scan(keypad):
    credited[0] = 0
    t = time.ticks_us()
    for _ in range(%(scans)d):
        keypad.scan()
    return time.ticks_diff(time.ticks_us(), t) / %(scans)d, credited[0] / %(scans)d


emulated = Keypad([machine.Pin(n, machine.Pin.OPEN_DRAIN, value=1) for n in KEY_ROWS],
                  [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in KEY_COLS], KEY_LABELS)


class Row:
    def __init__(self):
        self.value = {}.get  # a C call taking the level


class Column:
    def __init__(self, down):
        self.value = " ".isdigit if down else "1".isdigit  # a C call: False (low) or True


for label, keys in (("one key down", 1 << 5), ("every key up", 0)):
    ch.keys = keys
    cost, credit = per_scan(emulated)
    native = per_scan(Keypad([Row() for _ in KEY_ROWS], [Column(keys and c == 1) for c in range(4)],
                             KEY_LABELS))[0]
    print("| %%s | %%.1f | %%.1f | %%.1f | %%.1f |" %% (label, cost, credit, native, cost - credit - native))
"""


def serve(listener):
    """The supervisor's side, as far as the script needs it: the start's reply, then reading."""
    side, _ = listener.accept()
    with side:
        while True:
            data = side.recv(4096)
            if not data:
                return
            if data[:1] == b"S":
                side.sendall(b"R\0\0\0")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "side")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(path)
        listener.listen(1)
        threading.Thread(target=serve, args=(listener,), daemon=True).start()
        script = Path(tmp) / "scan.py"
        script.write_text(SCRIPT % {"scans": SCANS})
        env = dict(os.environ, SCAN_SOCKET=path, CROUPIER_SIM_PACED="1",
                   MICROPYPATH=":".join((str(ROOT / "host" / "croupier" / "sim" / "mpy"),
                                         str(firmware_dir()), ".frozen")))
        print("keypad scan, µs of host CPU a scan (%d scans each, full speed, paced reporting)\n" % SCANS)
        print("| keys | emulated pins | of it credited | C-call pins | overcharge |")
        print("|---|---|---|---|---|")
        sys.stdout.flush()
        subprocess.run([micropython_binary(), str(script)], env=env, check=True)


if __name__ == "__main__":
    main()
