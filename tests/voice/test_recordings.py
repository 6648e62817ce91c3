"""A user's WAV files made into a bank: any PCM format, silence trimmed, every word required."""
import numpy as np
import pytest

from wavs import tone, write_wav
from croupier.voice import bank, pcm
from croupier.voice.defaults import inventory
from croupier.voice.recordings import bank_from, read_wav


@pytest.mark.parametrize("width,channels,rate", [(1, 2, 44100), (2, 1, 8000), (2, 2, 48000), (3, 1, 22050),
                                                 (4, 1, 16000), (2, 1, 6000)])
def test_every_pcm_format_gives_the_same_sound(tmp_path, width, channels, rate):
    reference = pcm.to_pcm(tone(440, 8000, seconds=0.2), 8000)
    path = write_wav(tmp_path / "a.wav", tone(440, rate, seconds=0.2, silence=0.3), rate, width, channels)
    sound = np.frombuffer(pcm.to_pcm(*read_wav(path)), dtype="<i2").astype(float)
    ref = np.frombuffer(reference, dtype="<i2").astype(float)
    # the 0.3 s of silence on each side is trimmed: the ends differ by where the fade crosses the threshold
    assert abs(len(sound) - len(ref)) <= pcm.MARGIN
    n = min(len(sound), len(ref))
    shift = int(np.argmax(np.correlate(sound[:n], ref[:n], "full"))) - (n - 1)
    assert abs(shift) <= pcm.MARGIN // 2
    a, b = sound[max(0, shift):n + min(0, shift)], ref[max(0, -shift):n - max(0, shift)]
    assert np.corrcoef(a, b)[0, 1] > 0.98


def test_recordings_make_a_bank_of_the_users_own_origin(recordings):
    folder = recordings("fr", width=1, channels=2, rate=44100)
    origin, entries = bank.read(bank_from(folder, "fr"))
    assert origin == bank.RECORDED and [key for key, _ in entries] == list(inventory("fr"))
    assert all(sound for _, sound in entries)


def test_missing_words_are_listed_in_one_line_and_nothing_is_made(recordings):
    folder = recordings("en")
    gone = sorted(inventory("en"))[:2]
    for word in gone:
        (folder / (word + ".wav")).unlink()
    with pytest.raises(ValueError) as err:
        bank_from(folder, "en")
    message = str(err.value)
    assert "\n" not in message and message.endswith(" ".join(w + ".wav" for w in inventory("en") if w in gone))
    assert "lacks 2 of the %d en words" % len(inventory("en")) in message


def test_a_file_that_is_no_pcm_wav_is_named(recordings):
    folder = recordings("fr")
    word = inventory("fr")[3]
    (folder / (word + ".wav")).write_bytes(b"ID3\x03 an mp3 renamed")
    with pytest.raises(ValueError, match="%s is not a PCM WAV file" % (folder / (word + ".wav"))):
        bank_from(folder, "fr")
    write_wav(folder / (word + ".wav"), np.zeros(800))
    with pytest.raises(ValueError, match="is silent"):
        bank_from(folder, "fr")


@pytest.mark.parametrize("width,channels,cut", [(2, 1, 1), (2, 2, 2), (3, 1, 1), (1, 2, 1)])
def test_a_file_cut_short_is_named(recordings, width, channels, cut):
    # an interrupted copy leaves a WAV whose sound stops inside a frame
    folder = recordings("fr", width=width, channels=channels)
    path = folder / (inventory("fr")[3] + ".wav")
    path.write_bytes(path.read_bytes()[:-cut])
    with pytest.raises(ValueError, match="%s is cut short" % path):
        bank_from(folder, "fr")


def test_an_empty_file_is_named(recordings):
    folder = recordings("fr")
    path = folder / (inventory("fr")[3] + ".wav")
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"%s is not a PCM WAV file \(\w" % path):
        bank_from(folder, "fr")
