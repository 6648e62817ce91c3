"""What a flash image holds, read through the virtual board's own block device and littlefs
on the unix port (image_dump.py), for the tests that look inside an image."""
import os
import subprocess
from pathlib import Path

from croupier.sim import toolchain

DUMP = Path(__file__).with_name("image_dump.py")


def read_files(image) -> dict:
    """{path on the board: bytes} of every file in the image; directories map to None.
    RuntimeError when the image does not mount."""
    proc = subprocess.run([*toolchain.unix_port().command, str(DUMP), str(image)], capture_output=True,
                          text=True, timeout=60,
                          env=dict(os.environ, MICROPYPATH=str(toolchain.board_modules())))
    if proc.returncode:
        raise RuntimeError("%s does not mount: %s" % (image, proc.stderr.strip()[-500:]))
    files = {}
    for line in proc.stdout.splitlines():
        kind, name, *data = line.split(" ")
        files[name] = bytes.fromhex(data[0]) if kind == "F" else None
    return files
