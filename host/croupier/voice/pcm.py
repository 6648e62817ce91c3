"""Sound of any rate to what the box plays: 16-bit mono PCM at RATE, silence trimmed, peak
normalised. Pure numpy in float64, in a fixed order: the same samples give the same bytes."""
import numpy as np

from croupier.voice.bank import RATE

PEAK = 0.89          # of full scale (-1 dBFS): loud, with room for the DAC's filter overshoot
SILENCE = 0.03       # of the peak (-30 dB): quieter ends are trimmed
MARGIN = RATE // 100  # 10 ms kept around the sound, so a soft onset or decay is not cut
CUTOFF = 0.45        # of the lower rate: the low-pass stays clear of the new Nyquist frequency
ZEROS = 16           # zero crossings of the windowed sinc on each side (its length)
KAISER_BETA = 8.0    # about 80 dB of stop-band rejection
BLOCK = 2048         # outputs computed together


def resample(samples, rate: int):
    """float samples at `rate` -> float samples at RATE, through a windowed-sinc low-pass at
    CUTOFF of the lower rate (no aliasing when decimating, no images when interpolating).
    Output n sits at input position n * rate / RATE: its whole part and its fraction (one of
    RATE / gcd phases, whose kernels are computed once) in exact integers."""
    samples = np.asarray(samples, dtype=np.float64)
    if rate == RATE or not len(samples):
        return samples
    cutoff = CUTOFF * min(rate, RATE) / rate  # cycles per input sample
    half = int(np.ceil(ZEROS / (2 * cutoff)))  # taps on each side, in input samples
    step = np.gcd(rate, RATE)
    phases = np.arange(RATE // step) * step / RATE  # the fractions of an input sample outputs fall at
    offset = np.arange(1 - half, half + 1)[None, :] - phases[:, None]
    kernels = 2 * cutoff * np.sinc(2 * cutoff * offset)
    kernels *= np.i0(KAISER_BETA * np.sqrt(np.clip(1 - (offset / half) ** 2, 0, None))) / np.i0(KAISER_BETA)
    padded = np.concatenate([np.zeros(half), samples, np.zeros(half + 1)])
    count = len(samples) * RATE // rate
    out = np.empty(count)
    for start in range(0, count, BLOCK):  # a block at a time: a long recording needs little memory
        position = np.arange(start, min(count, start + BLOCK), dtype=np.int64) * rate
        whole, phase = position // RATE, (position % RATE) // step
        out[start:start + len(whole)] = np.einsum("ij,ij->i", padded[whole[:, None] + np.arange(1, 2 * half + 1)],
                                                  kernels[phase])
    return out


def trimmed(samples):
    """The samples from MARGIN before the first one above SILENCE of the peak to MARGIN after
    the last; empty when all are silent."""
    level = np.abs(samples)
    peak = level.max() if len(level) else 0.0
    if peak == 0.0:
        return samples[:0]
    loud = np.flatnonzero(level > SILENCE * peak)
    return samples[max(0, loud[0] - MARGIN):loud[-1] + 1 + MARGIN]


def to_pcm(samples, rate: int) -> bytes:
    """float samples (any scale) at `rate` -> the box's PCM bytes; b"" for silence."""
    sound = trimmed(resample(samples, rate))
    if not len(sound):
        return b""
    sound = sound * (PEAK * 32767 / np.abs(sound).max())
    return np.round(sound).astype("<i2").tobytes()
