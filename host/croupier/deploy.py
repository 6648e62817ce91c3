"""Put the firmware onto a board: only the files whose hash differs, verified, then a reset.

Everything on the board goes through stock `mpremote` (a subprocess, as a user would run it);
MicroPython itself is written with `esptool`.
"""
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from croupier.link import LinkError, check_port

MPREMOTE_TIMEOUT = 120  # seconds for one mpremote run (a full copy over 115200 baud fits)
HASH_TIMEOUT = 30       # seconds for hashing the firmware files on the board
# Bytes a second `mpremote fs cp` copies at the least over 115200 baud (it sends each byte of
# a binary file as up to 4 characters): a long copy gets that much more time.
COPY_RATE = 2000
DIR_FLAG = 0x4000       # stat mode bit of a directory on MicroPython

# Prints "=path sha256" for every file under the given top-level names (files or folders).
_HASH_SCRIPT = """
import os, hashlib, binascii
_b = bytearray(512)
def _h(p):
    d = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(_b)
            if not n:
                break
            d.update(memoryview(_b)[:n])
    return binascii.hexlify(d.digest()).decode()
def _walk(p):
    try:
        mode = os.stat(p)[0]
    except OSError:
        return
    if mode & %d:
        for e in list(os.ilistdir(p)):
            _walk(p + '/' + e[0])
    else:
        print('=' + p + ' ' + _h(p))
for _t in %r:
    _walk(_t)
"""

# Creates folders and removes stale files before the copies.
_PREPARE_SCRIPT = """
import os
for _d in %r:
    try:
        os.mkdir(_d)
    except OSError:
        pass
for _f in %r:
    os.remove(_f)
"""


class DeployError(LinkError):
    pass


class Mpremote:
    """Runs `mpremote connect PORT ...` chains against one board."""

    def __init__(self, port):
        self.port = port

    def command(self, *chain):
        return [sys.executable, "-m", "mpremote", "connect", self.port, *chain]

    def run(self, *chain, on_line=None, timeout=MPREMOTE_TIMEOUT):
        """Run one chain; returns stdout. `on_line(line)` sees each output line as it comes."""
        proc = subprocess.Popen(self.command(*chain), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True, bufsize=1)
        watchdog = threading.Timer(timeout, proc.kill)  # a silent, stuck mpremote is killed too
        watchdog.start()
        lines = []
        try:
            for line in proc.stdout:
                lines.append(line)
                if on_line:
                    on_line(line)
            proc.wait()
        finally:
            watchdog.cancel()
            proc.stdout.close()
        out = "".join(lines)
        if proc.returncode != 0:
            why = "took longer than %d s" % timeout if proc.returncode == -signal.SIGKILL else "failed (exit %d)" % proc.returncode
            raise DeployError("mpremote on %s %s:\n%s" % (self.port, why, out.strip()[-2000:]))
        return out

    def hashes(self, tops):
        """{path: sha256 hex} of every file on the board under the top-level names `tops`."""
        script = _HASH_SCRIPT % (DIR_FLAG, sorted(tops))
        try:
            out = self.run("exec", script, timeout=HASH_TIMEOUT)
        except DeployError:
            # mpremote waits forever for a board that dropped its Ctrl-C while booting: once more
            out = self.run("exec", script, timeout=HASH_TIMEOUT)
        found = {}
        for line in out.splitlines():
            if line.startswith("="):
                path, _, digest = line[1:].rpartition(" ")
                found[path] = digest
        return found


def plan(wanted, present, keep=frozenset()):
    """(files to copy, stale files to remove, unchanged count) from {path: hash} maps; the
    board's files in `keep` are neither copied nor removed."""
    copy = sorted(p for p, h in wanted.items() if present.get(p) != h and p not in keep)
    stale = sorted(p for p in present if p not in wanted and p not in keep)
    return copy, stale, len(wanted) - len(copy)


def _folders(paths):
    """Every folder the paths live in, parents first."""
    folders = set()
    for p in paths:
        parts = p.split("/")[:-1]
        folders.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return sorted(folders, key=lambda f: (f.count("/"), f))


class DeployReport:
    def __init__(self):
        self.copied, self.removed, self.unchanged, self.hello = [], [], 0, None


def deploy(port, staging: Path, manifest: dict, progress=None, keep=frozenset()):
    """Copy what differs from `manifest` ({path: sha256}) out of `staging`, verify, reset, hello.
    The board's files in `keep` (paths like the manifest's) stay as they are, whatever they hold.

    `progress(kind, done, total)` is told about copying as files go over.
    """
    from croupier.link import connect

    manifest = {p: h for p, h in manifest.items() if p not in keep}  # neither copied nor verified
    mp = Mpremote(port)
    tops = {p.split("/")[0] for p in manifest}
    report = DeployReport()
    copy, stale, report.unchanged = plan(manifest, mp.hashes(tops), keep)
    if progress:
        progress("copy", 0, len(copy))
    if copy or stale:
        chain = ["exec", _PREPARE_SCRIPT % (_folders(copy), stale)]
        for rel in copy:
            chain += ["+", "fs", "cp", "-f", str(staging / rel), ":" + rel]
        done = []

        def seen(line):
            if line.startswith("cp "):
                done.append(line)
                if progress:
                    progress("copy", len(done), len(copy))

        size = sum((staging / rel).stat().st_size for rel in copy)
        mp.run(*chain, on_line=seen, timeout=MPREMOTE_TIMEOUT + size / COPY_RATE)
        report.copied, report.removed = copy, stale
        # with nothing copied, the hashes just read are the answer
        after = {p: h for p, h in mp.hashes(tops).items() if p not in keep}
        wrong = sorted(set(after) ^ set(manifest) | {p for p in manifest if after.get(p) != manifest[p]})
        if wrong:
            raise DeployError("after copying, the board's files differ from the build: %s" % ", ".join(wrong))
    mp.run("reset")
    with connect(port) as link:
        report.hello = link.info
    return report


# -- MicroPython itself ----------------------------------------------------------------------
ESPTOOL_TIMEOUT = 300   # seconds for one esptool run (erasing 4 MB takes ~15 s on a real chip)
BLANK_PROBE = 0x1000    # bytes read at flash 0x1000 to tell a blank flash from an installed one


def _esptool(port, *args, timeout=ESPTOOL_TIMEOUT):
    """Run `esptool --port PORT ARGS` (its current command names); stdout, else DeployError."""
    check_port(port)  # esptool opens the port itself, past open_serial's check
    proc = subprocess.run([sys.executable, "-m", "esptool", "--port", port, *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        said = proc.stdout + proc.stderr
        if "Failed to connect to Espressif device" in said:
            raise DeployError("esptool %s: no ESP32 ROM bootloader answers on %s; hold the board's BOOT button "
                              "while esptool connects, or check the port" % (args[0], port))
        raise DeployError("esptool %s on %s failed:\n%s" % (args[0], port, said.strip()[-2000:]))
    return proc.stdout


def chip_in(esptool_output: str):
    """The chip family esptool names (`ESP32`, `ESP32-S3`, ...), or None."""
    match = re.search(r"Detecting chip type\.*\s*(ESP32(?:-[SCH]\d)?)", esptool_output) \
        or re.search(r"Chip (?:is|type:)\s*(ESP32(?:-[SCH]\d)?)", esptool_output)
    return match.group(1).upper() if match else None


def detect_chip(port) -> str:
    """The chip on `port` through its ROM bootloader; an image is for the ESP32 only."""
    out = _esptool(port, "chip-id", timeout=60)
    chip = chip_in(out)
    if not chip:
        raise DeployError("esptool did not say which chip is on %s:\n%s" % (port, out.strip()[-500:]))
    if chip != "ESP32":
        raise DeployError("the board on %s is an %s; Croupier's MicroPython image is for the ESP32" % (port, chip))
    return chip


def flash_is_blank(port) -> bool:
    """True when the flash holds no bootloader at 0x1000 (all 0xFF): nothing to lose there."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="croupier-flash-") as folder:
        dump = Path(folder) / "boot.bin"
        _esptool(port, "read-flash", "0x%x" % BLANK_PROBE, str(BLANK_PROBE), str(dump), timeout=60)
        return dump.read_bytes() == b"\xff" * BLANK_PROBE


def unsynced_records(link, store) -> int:
    """How many journal records on the board no host acknowledged and the database lacks."""
    info = link.hello()
    held = max(store.synced_upto(info["device"], info["log_epoch"]) or 0, info.get("acked", 0))
    return max(0, (info.get("last_seq") or 0) - held)


def write_micropython(port, image):
    """Erase the whole flash and write a checked image (croupier.esp_image.Checked) where it
    belongs; esptool verifies what it wrote by its hash. Returns esptool's words."""
    import tempfile

    out = _esptool(port, "erase-flash")
    with tempfile.TemporaryDirectory(prefix="croupier-flash-") as folder:
        path = Path(folder) / "micropython.bin"
        path.write_bytes(image.data)  # exactly the bytes that were checked
        out += _esptool(port, "write-flash", "--flash-mode", "keep", "--flash-size", "keep",
                        "0x%x" % image.offset, str(path))
    if "Hash of data verified" not in out:
        raise DeployError("esptool did not confirm the hash of what it wrote on %s:\n%s" % (port, out.strip()[-1000:]))
    return out
