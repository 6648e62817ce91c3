"""A user's own recordings, one WAV file a word (<id>.wav), made into a voice bank."""
import wave
from pathlib import Path

import numpy as np

from croupier.voice import bank, pcm
from croupier.voice.defaults import inventory

# PCM sample widths the wave module reads, as numpy types (8-bit WAV is unsigned).
SAMPLE_TYPES = {1: np.uint8, 2: np.dtype("<i2"), 4: np.dtype("<i4")}


def read_wav(path: Path):
    """(mono float samples, rate) of a PCM WAV file of 8, 16, 24 or 32 bits, any channels and
    rate; ValueError naming the file when it is not one."""
    try:
        with wave.open(str(path), "rb") as wav:
            width, channels, rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
            raw = wav.readframes(wav.getnframes())
    except (wave.Error, EOFError) as exc:  # the module says "not a WAVE file", "unknown format: 3" ...
        raise ValueError("%s is not a PCM WAV file (%s)" % (path, str(exc) or "it ends in its header")) from None
    if len(raw) % (width * channels):  # its sound stops inside a frame: a copy cut short
        raise ValueError("%s is cut short: its sound ends inside a frame of %d bytes" % (path, width * channels))
    if width == 3:  # 24-bit: widen each sample to 32 bits, its low byte zero
        frames = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3)
        raw = np.concatenate([np.zeros((len(frames), 1), np.uint8), frames], axis=1).tobytes()
        width = 4
    if width not in SAMPLE_TYPES or not rate:
        raise ValueError("%s is a WAV file of %d-byte samples at %d Hz: croupier reads 8, 16, 24 and 32-bit PCM"
                         % (path, width, rate))
    samples = np.frombuffer(raw, dtype=SAMPLE_TYPES[width]).astype(np.float64)
    if width == 1:
        samples -= 128.0
    return samples.reshape(-1, channels).mean(axis=1), rate


def bank_from(folder: Path, lang: str) -> bytes:
    """The bank (origin RECORDED) of `lang`'s words from folder/<id>.wav; ValueError listing
    every word without a file, or naming a file that is no usable WAV (nothing is written)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError("%s is not a folder of WAV files" % folder)
    words = inventory(lang)
    missing = [word for word in words if not (folder / (word + ".wav")).is_file()]
    if missing:
        raise ValueError("%s lacks %d of the %d %s words: %s" % (
            folder, len(missing), len(words), lang, " ".join(word + ".wav" for word in missing)))
    entries = []
    for word in words:
        sound = pcm.to_pcm(*read_wav(folder / (word + ".wav")))
        if not sound:
            raise ValueError("%s is silent" % (folder / (word + ".wav")))
        entries.append((word, sound))
    return bank.write(entries, origin=bank.RECORDED)
