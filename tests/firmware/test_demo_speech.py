"""`croupier demo --audio-out FILE.wav` (the issue's "done when"): the WAV holds, in order, the
recordings of every word the box says for each card of the demo's scripted Lobo 77 game,
played at the table's pace so that no announcement is cut."""
import wave

from croupier import words
from croupier.cli import main
from croupier.commands.demo import LOBO_PLAYERS, SEED, script_game
from croupier.rules import new_game
from spoken import said, voiced


def lobo_announcements():
    """The words of each card's announcement in the demo's Lobo 77 game (no recorded
    names: a seat is said "joueur deux")."""
    game = new_game("lobo77", LOBO_PLAYERS)
    for card in script_game("lobo77", LOBO_PLAYERS, seed=SEED):
        before = game.state()
        effects = game.play(card)
        ended = [e for e in effects if e["kind"] == "round_end"]
        reached = game.round_log()[-1][2] if ended else None
        spoken = []
        for item in words.announce("fr", before, game.state(), effects, reached):
            spoken += words.seat_words("fr", item) if isinstance(item, int) else [item]
        yield card, spoken


def test_the_demo_records_every_lobo_word_in_order(tmp_path, capsys):
    out = tmp_path / "demo.wav"
    assert main(["demo", "--dir", str(tmp_path / "demo"), "--audio-out", str(out)]) == 0
    assert "speech recorded: %s" % out in capsys.readouterr().out
    with wave.open(str(out)) as wav:
        assert (wav.getframerate(), wav.getsampwidth(), wav.getnchannels()) == (8000, 2, 1)
        heard = voiced(wav.readframes(wav.getnframes())).tobytes()
    at = 0
    for card, spoken in lobo_announcements():
        for word in spoken:
            samples = said([word]).tobytes()
            found = heard.find(samples, at)
            while found >= 0 and found % 2:  # a match must start on a sample
                found = heard.find(samples, found + 1)
            assert found >= 0, "card %s: %r not heard after %.2f s of speech" % (card, word, at / 16000)
            at = found + len(samples)
