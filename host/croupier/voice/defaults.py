"""The synthesized voices: one bank a language of the firmware's words (croupier.words, the
board's own module, in its order), said as host/croupier/voice/lexicon.py writes them; and banks of
player names. The word banks are built once per (inventory, lexicon, synthesizer, converter)
and cached, as the firmware build is."""
import hashlib
from pathlib import Path

from croupier import words
from croupier.build import cached_build, file_hash
from croupier.paths import cache_dir
from croupier.voice import bank, check_language, synth

# The converter's own code, and the code that lays out the cached folder, is part of the
# cache key: a change to it makes new banks.
CONVERTER = ("bank.py", "defaults.py", "pcm.py", "synth.py")
BANK_FOLDER = "voice"  # on the board, and in the cached folder that mirrors it


def inventory(lang: str):
    """The word ids of `lang`, in the bank's order; ValueError for a language the box lacks."""
    check_language(lang)
    return words.inventory(lang)


def texts(lang: str):
    """What the synthesizer says for each word of inventory(lang); ValueError naming the words
    the lexicon has no text for."""
    from croupier.voice.lexicon import SPOKEN

    ids = inventory(lang)
    missing = [word for word in ids if word not in SPOKEN.get(lang, {})]
    if missing:
        raise ValueError("the lexicon has no %s text for: %s" % (lang, ", ".join(missing)))
    return [SPOKEN[lang][word] for word in ids]


def word_bank(lang: str) -> bytes:
    """The synthesized bank of `lang`'s words (origin SYNTHESIZED), built now."""
    return bank.write(list(zip(inventory(lang), synth.render(lang, texts(lang)))))


def names_bank(names, lang: str) -> bytes:
    """A bank keyed by the player names, each said in the voice of `lang`."""
    return bank.write(list(zip(names, synth.render(lang, names))))


def bank_path(lang: str) -> str:
    """Where the bank of `lang` lives, relative to the board's root."""
    return "%s/%s.vox" % (BANK_FOLDER, lang)


def _key() -> str:
    from croupier.voice.lexicon import SPOKEN

    digest = hashlib.sha256(synth.version().encode())
    for lang in synth.LANGUAGES:
        for word in inventory(lang):
            digest.update(b"\0%s\0%s" % (word.encode(), SPOKEN.get(lang, {}).get(word, "").encode()))
    for name in CONVERTER:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:16]


def default_banks() -> Path:
    """A cached folder holding voice/fr.vox and voice/en.vox: the synthesized word banks."""
    def fill(work):
        (work / BANK_FOLDER).mkdir()
        for lang in synth.LANGUAGES:
            (work / bank_path(lang)).write_bytes(word_bank(lang))
        return {bank_path(lang): file_hash(work / bank_path(lang)) for lang in synth.LANGUAGES}

    target = cache_dir("voice") / _key()
    cached_build(target, fill)
    return target
