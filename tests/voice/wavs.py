"""WAV files for the voice tests, written with the stdlib as a user's recorder would."""
import wave

import numpy as np


def tone(freq=440.0, rate=8000, seconds=0.05, silence=0.0):
    """A tone burst of `seconds` at `rate`, between `silence` seconds of silence on each side;
    float samples in -0.5..0.5."""
    t = np.arange(int(rate * seconds)) / rate
    pad = np.zeros(int(rate * silence))
    return np.concatenate([pad, 0.5 * np.sin(2 * np.pi * freq * t) * np.hanning(len(t)), pad])


def write_wav(path, samples, rate=8000, width=2, channels=1):
    """samples (floats in -1..1) as a PCM WAV of `width` bytes a sample, the same on each channel."""
    ints = np.round(np.asarray(samples) * (2 ** (8 * width - 1) - 1)).astype(np.int64)
    ints = np.repeat(ints, channels)  # interleaved: each frame holds one sample per channel
    if width == 1:
        raw = (ints + 128).astype(np.uint8).tobytes()  # 8-bit WAV is unsigned
    elif width == 3:
        raw = ints.astype("<i4").view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
    else:
        raw = ints.astype("<i%d" % width).tobytes()
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(width)
        wav.setframerate(rate)
        wav.writeframes(raw)
    return path
