"""The voice banks on a board: which ones a user recorded, and putting banks there.

Everything goes through croupier.deploy (mpremote, only what differs, verified, then a reset
and hello): the firmware is interrupted for the copy, and its journal and game are kept as
through any reset.
"""
import tempfile
from pathlib import Path

from croupier.build import file_hash
from croupier.deploy import Mpremote, deploy
from croupier.link import open_serial
from croupier.voice import bank
from croupier.voice.defaults import BANK_FOLDER, bank_path
from croupier.voice.synth import LANGUAGES

NAMES = BANK_FOLDER + "/names.vox"
ALL = frozenset([NAMES] + [bank_path(lang) for lang in LANGUAGES])

# Prints "=path header-hex" for every file of the bank folder.
_HEADERS_SCRIPT = """
import os, binascii
try:
    _names = os.listdir(%r)
except OSError:
    _names = ()
for _n in _names:
    with open(%r + '/' + _n, 'rb') as _f:
        print('=' + %r + '/' + _n + ' ' + binascii.hexlify(_f.read(%d)).decode())
"""


def recorded(port) -> list:
    """The paths (voice/fr.vox, ...) of the word banks on the board that hold a user's own
    recordings: they are the user's, never replaced by the synthesized voice."""
    folder = "/" + BANK_FOLDER
    out = Mpremote(port).run("exec", _HEADERS_SCRIPT % (folder, folder, BANK_FOLDER, bank.HEADER.size))
    found = []
    for line in out.splitlines():
        if line.startswith("="):
            path, _, head = line[1:].rpartition(" ")
            try:
                if path in ALL and bank.origin(bytes.fromhex(head)) == bank.RECORDED:
                    found.append(path)
            except (bank.BankError, ValueError):
                pass  # not a bank: the synthesized voice replaces it
    return sorted(found)


def put(port, banks: dict, progress=None):
    """Put {board path: bank bytes} on the board (only those that differ), leaving its other
    voice banks as they are; -> croupier.deploy's report."""
    open_serial(port).close()  # a missing, busy or non-serial port is said as every command says it
    with tempfile.TemporaryDirectory(prefix="croupier-voice-") as folder:
        manifest = {}
        for path, data in banks.items():
            (Path(folder) / path).parent.mkdir(parents=True, exist_ok=True)
            (Path(folder) / path).write_bytes(data)
            manifest[path] = file_hash(Path(folder) / path)
        return deploy(port, Path(folder), manifest, progress=progress, keep=ALL - set(banks))
