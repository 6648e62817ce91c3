"""The synthesized voices: every word of the firmware's inventory, in the box's format, the
same bytes each time."""
import numpy as np
import pytest

from croupier.voice import bank, pcm, synth
from croupier.voice.defaults import bank_path, default_banks, inventory, names_bank, texts, word_bank


@pytest.mark.parametrize("lang", synth.LANGUAGES)
def test_the_default_bank_says_every_word_of_the_inventory_in_its_order(lang):
    origin, entries = bank.read((default_banks() / bank_path(lang)).read_bytes())
    assert origin == bank.SYNTHESIZED
    assert [key for key, _ in entries] == list(inventory(lang))
    for key, sound in entries:
        samples = np.frombuffer(sound, dtype="<i2")
        assert len(samples) > pcm.RATE // 20, key  # more than 50 ms of speech at 8 kHz
        assert np.abs(samples).max() == round(pcm.PEAK * 32767), key  # normalised
        # trimmed: the sound starts and ends within the margin of its first and last loud sample
        loud = np.flatnonzero(np.abs(samples) > pcm.SILENCE * np.abs(samples).max())
        assert loud[0] <= pcm.MARGIN and len(samples) - 1 - loud[-1] <= pcm.MARGIN, key


def test_a_bank_is_the_same_bytes_each_time_it_is_built():
    assert word_bank("fr") == word_bank("fr") == (default_banks() / bank_path("fr")).read_bytes()


def test_names_are_said_in_the_chosen_voice_keyed_by_the_name():
    french = names_bank(["Ana", "Cléo"], "fr")
    origin, entries = bank.read(french)
    assert origin == bank.SYNTHESIZED and [key for key, _ in entries] == ["Ana", "Cléo"]
    assert all(len(sound) > pcm.RATE // 20 for _, sound in entries)
    assert names_bank(["Ana", "Cléo"], "fr") == french
    assert names_bank(["Ana", "Cléo"], "en") != french


def test_every_word_has_a_text_to_say():
    for lang in synth.LANGUAGES:
        assert len(texts(lang)) == len(inventory(lang)) and all(t.strip() for t in texts(lang))


def test_an_unknown_language_is_one_line():
    with pytest.raises(ValueError, match="the voice's language is one of fr, en, not 'de'"):
        synth.render("de", ["hallo"])
    with pytest.raises(ValueError, match="not 'de'"):
        inventory("de")


def test_the_low_pass_keeps_speech_and_removes_what_8_khz_cannot_carry():
    rate = 22050
    t = np.arange(rate) / rate
    kept = pcm.resample(np.sin(2 * np.pi * 1000 * t), rate)[800:-800]
    removed = pcm.resample(np.sin(2 * np.pi * 5000 * t), rate)[800:-800]  # would alias to 3 kHz
    assert len(pcm.resample(t, rate)) == pcm.RATE
    assert 0.99 < np.abs(kept).max() < 1.01
    assert np.abs(removed).max() < 0.001
