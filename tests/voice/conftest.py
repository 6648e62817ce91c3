"""Fixtures of the voice tests."""
import pytest

from wavs import tone, write_wav


@pytest.fixture
def recordings(tmp_path):
    """make(lang, **wav options) -> a folder with a short WAV of every word of `lang`, each word
    its own pitch."""
    from croupier.voice.defaults import inventory

    def make(lang, folder=None, **options):
        folder = folder or tmp_path / ("recordings-" + lang)
        folder.mkdir(exist_ok=True)
        rate = options.pop("rate", 8000)
        for i, word in enumerate(inventory(lang)):
            write_wav(folder / (word + ".wav"), tone(300 + 20 * i, rate, seconds=0.008, silence=0.01), rate=rate,
                      **options)
        return folder

    return make
