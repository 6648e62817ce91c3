"""What the box's speaker should play: the synthesized banks' recordings of words, at the
default volume, with silence left out (the recording keeps the pauses between announcements;
every sample that is not silence must be the expected word's)."""
from array import array

from croupier.voice import bank
from croupier.voice.defaults import BANK_FOLDER, default_banks

SHIFT = 1  # volume 2 of 3, the default: each sample shifted right once (croupier.speaker)


def recordings(lang):
    """word id -> its PCM in the board's bank of lang."""
    _, entries = bank.read((default_banks() / BANK_FOLDER / (lang + ".vox")).read_bytes())
    return dict(entries)


def voiced(pcm, shift=0):
    """The samples of pcm (16-bit) that are not silence, each shifted right by shift."""
    samples = array("h", pcm)
    return array("h", [s >> shift for s in samples if s >> shift])


def said(words, lang="fr"):
    """What the speaker plays for words, silence left out."""
    found = recordings(lang)
    return voiced(b"".join(found[w] for w in words), SHIFT)
