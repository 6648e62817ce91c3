"""The voices on a virtual board: `croupier flash` copies them and keeps a user's recordings,
`croupier voice` puts recordings or the synthesized voice there, `croupier roster` the names."""
import sys
from pathlib import Path

from croupier.cli import main
from croupier.link import connect
from croupier.sim import VirtualBoard
from croupier.voice import bank
from croupier.voice.board import put
from croupier.voice.defaults import bank_path, inventory, names_bank
from croupier.voice.recordings import bank_from
from croupier.voice.synth import LANGUAGES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim"))
from image_files import read_files  # noqa: E402


def voice_files(board):
    """{path: bytes} of the board's /voice folder, read from its flash image."""
    return {path: data for path, data in read_files(board.flash).items() if path.startswith("/voice/")}


def answers(board):
    """Wait until the board's firmware answers (mpremote hangs on a board still booting); its roster."""
    with connect(board.port) as link:
        return link.call("get_roster")["names"]


def test_flash_copies_the_voices_and_never_a_users_recordings(recordings, tmp_path, monkeypatch, capsys):
    # Banks of one sample a word stand in for the synthesized ones: the copy then takes
    # seconds over the board's 115200-baud line, not the minutes of ~460 KB.
    small = tmp_path / "small"
    (small / "voice").mkdir(parents=True)
    for lang in LANGUAGES:
        entries = [(word, i.to_bytes(2, "little")) for i, word in enumerate(inventory(lang))]
        (small / bank_path(lang)).write_bytes(bank.write(entries, bank.SYNTHESIZED))
    monkeypatch.setattr("croupier.voice.defaults.default_banks", lambda: small)
    with VirtualBoard() as board:
        answers(board)
        assert main(["flash", "--port", board.port]) == 0
        synthesized = {"/" + bank_path(lang): (small / bank_path(lang)).read_bytes() for lang in LANGUAGES}
        assert voice_files(board) == synthesized

        own = tmp_path / "mine"
        recordings("fr", folder=own, width=1, channels=2, rate=44100)
        assert main(["voice", "--port", board.port, "--from", str(own)]) == 0
        assert voice_files(board) == dict(synthesized, **{"/voice/fr.vox": bank_from(own, "fr")})
        capsys.readouterr()

        assert main(["flash", "--port", board.port]) == 0
        out = capsys.readouterr().out
        assert "keeping your own recordings in /voice/fr.vox" in out and "0 files copied" in out, out
        assert voice_files(board) == dict(synthesized, **{"/voice/fr.vox": bank_from(own, "fr")})

        assert main(["flash", "--port", board.port, "--no-voice"]) == 0
        assert voice_files(board) == dict(synthesized, **{"/voice/fr.vox": bank_from(own, "fr")})

        assert main(["voice", "--port", board.port, "--default"]) == 0  # both languages
        assert voice_files(board) == synthesized

        # recordings made for a firmware that said one word less: kept, and said
        older = bank.write([(word, b"\x01\x00") for word in inventory("en")[:-1]], bank.RECORDED)
        put(board.port, {"voice/en.vox": older})
        capsys.readouterr()
        assert main(["flash", "--port", board.port]) == 0
        out = capsys.readouterr().out
        assert ("warning: /voice/en.vox was recorded for another firmware (they lack %s), and the box may say "
                "wrong words" % inventory("en")[-1]) in out, out
        assert voice_files(board)["/voice/en.vox"] == older


def test_roster_puts_the_spoken_names_on_the_board_and_flash_keeps_them(voiced_board, capsys):
    answers(voiced_board)
    before = voice_files(voiced_board)
    assert main(["roster", "--port", voiced_board.port, "Ana", "Cléo"]) == 0
    assert "roster on the board: Ana, Cléo" in capsys.readouterr().out
    assert voice_files(voiced_board) == dict(before, **{"/voice/names.vox": names_bank(["Ana", "Cléo"], "fr")})
    assert answers(voiced_board) == ["Ana", "Cléo"], "the roster is there after the copy's restart"

    assert main(["roster", "--port", voiced_board.port, "Ana", "x" * 40]) == 1, "a name the board refuses"
    assert capsys.readouterr().err.startswith("croupier roster: each name ")
    assert answers(voiced_board) == ["Ana", "Cléo"]
    assert voice_files(voiced_board)["/voice/names.vox"] == names_bank(["Ana", "Cléo"], "fr"), "unchanged"

    assert main(["flash", "--port", voiced_board.port]) == 0
    assert "nothing to copy" in capsys.readouterr().out
    assert voice_files(voiced_board)["/voice/names.vox"] == names_bank(["Ana", "Cléo"], "fr"), "kept, not stale"

    assert main(["roster", "--port", voiced_board.port, "--lang", "en", "Ben"]) == 0
    names = voice_files(voiced_board)["/voice/names.vox"]
    assert names == names_bank(["Ben"], "en") and [k for k, _ in bank.read(names)[1]] == ["Ben"]


def test_missing_recordings_are_one_line_and_the_board_is_left_alone(voiced_board, recordings, capsys):
    answers(voiced_board)
    folder = recordings("en")
    word = inventory("en")[-1]
    (folder / (word + ".wav")).unlink()
    before = voice_files(voiced_board)
    assert main(["voice", "--port", voiced_board.port, "--lang", "en", "--from", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err == "croupier voice: %s lacks 1 of the %d en words: %s.wav\n" % (folder, len(inventory("en")), word)
    assert voice_files(voiced_board) == before
