"""Speech from libespeak-ng (the espeakng-loader wheel), through ctypes, as the box's PCM.

espeak-ng keeps state from one utterance to the next (its voice source runs on), so the same
word said twice in a process differs a little; a fresh process saying the same texts in the
same order gives the same samples. render() therefore runs each batch in a new interpreter
(`python -m croupier.voice.synth LANG WPM`: texts as JSON on stdin, for each a u32 byte count
and its 16-bit samples at espeak's rate on stdout), and croupier.voice.pcm makes them the
box's format: the same texts give the same bytes.
"""
import ctypes
import json
import os
import struct
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from croupier.voice import LANGUAGES, check_language  # noqa: F401 (synth.LANGUAGES: the voices it speaks)

# A little quicker than espeak-ng's 175: a total is said before the next card comes, and the
# English words fit 300 KB (280,005 bytes at 190; 303,511 at 175).
WORDS_PER_MINUTE = 190
AUDIO_OUTPUT_SYNCHRONOUS = 2  # espeak_AUDIO_OUTPUT: synthesize in the caller's thread
POS_CHARACTER = 1             # espeak_POSITION_TYPE
CHARS_UTF8 = 1                # espeak_Synth flags
ESPEAK_RATE = 1               # espeak_PARAMETER
EE_OK = 0
SYNTH_TIMEOUT = 120           # seconds for one batch (a bank of words takes about 1 s)
LENGTH = struct.Struct("<I")
_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


class SynthError(OSError):
    """espeak-ng cannot run here or refused: the message says which (an OSError: the machine lacks
    something, and commands report it in one line)."""


def _loader():
    try:
        import espeakng_loader
    except ImportError:
        raise SynthError("the speech synthesizer is not installed: pip install espeakng-loader") from None
    return espeakng_loader


def version() -> str:
    """The synthesizer as a cache key: the wheel's version (it carries espeak-ng and its data)."""
    _loader()
    return "espeakng-loader " + metadata.version("espeakng-loader")


def render(lang: str, texts):
    """[PCM bytes] of each text said in the voice of `lang`, in the box's format. ValueError
    for an unknown language or a text that makes no sound; SynthError when espeak-ng fails."""
    import numpy as np  # in the parent only: the child starts quicker without

    from croupier.voice import pcm

    texts = list(texts)
    check_language(lang)
    _loader()
    if not texts:  # an empty roster's bank: nothing to say, no interpreter to start
        return []
    package_root = str(Path(__file__).resolve().parents[2])  # the folder holding croupier/
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "croupier.voice.synth", lang, str(WORDS_PER_MINUTE)],
                          input=json.dumps(texts).encode(), capture_output=True, env=env, timeout=SYNTH_TIMEOUT)
    if proc.returncode:
        raise SynthError("espeak-ng failed: %s" % proc.stderr.decode(errors="replace").strip()[-500:])
    out, at, sounds = proc.stdout, 0, []
    rate = LENGTH.unpack_from(out, at)[0]
    at += LENGTH.size
    for text in texts:
        size = LENGTH.unpack_from(out, at)[0]
        samples = np.frombuffer(out, dtype="<i2", count=size // 2, offset=at + LENGTH.size)
        at += LENGTH.size + size
        sound = pcm.to_pcm(samples, rate)
        if not sound:
            raise ValueError("%r makes no sound in the voice %r" % (text, lang))
        sounds.append(sound)
    return sounds


def _speak_all(lang, words_per_minute, texts, out):
    """In the child: espeak-ng's rate, then each text's samples, to the binary stream `out`."""
    loader = _loader()
    lib = ctypes.CDLL(loader.get_library_path())
    lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
    lib.espeak_Synth.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                 ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
    rate = lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, loader.get_data_path().encode(), 0)
    if rate <= 0:
        raise SystemExit("espeak-ng did not start (data at %s)" % loader.get_data_path())
    chunks = []

    def take(wav, count, _events):
        if count > 0:
            chunks.append(ctypes.string_at(wav, 2 * count))
        return 0  # go on

    callback = _CALLBACK(take)
    lib.espeak_SetSynthCallback(callback)
    if lib.espeak_SetVoiceByName(lang.encode()) != EE_OK:
        raise SystemExit("espeak-ng has no voice %r" % lang)
    lib.espeak_SetParameter(ESPEAK_RATE, words_per_minute, 0)
    out.write(LENGTH.pack(rate))
    for text in texts:
        raw = text.encode("utf-8")
        chunks.clear()
        if lib.espeak_Synth(raw, len(raw) + 1, 0, POS_CHARACTER, 0, CHARS_UTF8, None, None) != EE_OK:
            raise SystemExit("espeak-ng could not say %r" % text)
        sound = b"".join(chunks)
        out.write(LENGTH.pack(len(sound)) + sound)


if __name__ == "__main__":
    _speak_all(sys.argv[1], int(sys.argv[2]), json.load(sys.stdin), sys.stdout.buffer)
