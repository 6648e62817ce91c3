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

# Prints "=path hex" for every file of the bank folder: a bank's header, table and keys (the
# first 8 bytes of a file that is no bank).
_HEADS_SCRIPT = """
import os, binascii
try:
    _names = os.listdir(%r)
except OSError:
    _names = ()
for _n in _names:
    with open(%r + '/' + _n, 'rb') as _f:
        _h = _f.read(8)
        _end = len(_h)
        if _end == 8 and _h[:4] == b'VOX1':
            _end += 8 * _h[6]
            for _i in range(_h[6]):
                _f.seek(_end)
                _k = _f.read(1)
                if not _k:
                    break
                _end += 1 + _k[0]
        _f.seek(0)
        print('=' + %r + '/' + _n + ' ' + binascii.hexlify(_f.read(_end)).decode())
"""


def recorded(port) -> dict:
    """{path (voice/fr.vox, ...): its keys} of the word banks on the board that hold a user's
    own recordings: they are the user's, never replaced by the synthesized voice."""
    folder = "/" + BANK_FOLDER
    out = Mpremote(port).run("exec", _HEADS_SCRIPT % (folder, folder, BANK_FOLDER))
    found = {}
    for line in out.splitlines():
        if line.startswith("="):
            path, _, head = line[1:].rpartition(" ")
            try:
                data = bytes.fromhex(head)
                if path in ALL - {NAMES} and bank.origin(data) == bank.RECORDED:
                    found[path] = bank.keys(data)[0]
            except (bank.BankError, ValueError):
                pass  # not a bank: the synthesized voice replaces it
    return found


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
