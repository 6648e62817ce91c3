"""The screens at key moments, pixel for pixel, against reviewed golden PNGs.

Regenerate (then look at every changed image before committing it):
    .venv/bin/python tests/firmware/test_golden.py
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ui_run import BOOTED, GOLDEN, golden_pixels, image, pixels, run_ui  # noqa: E402

LOBO4 = ("keys", "1 ok ok ok ok")
BASTA3 = ("keys", "2 3 ok ok ok")
MAU3 = ("keys", "3 3 ok ok ok")
FACTORS3 = ("keys", "4 3 ok ok")
FACTORS4 = ("keys", "4 4 ok ok")
DUO = ("keys", "5 ok ok ok ok")
ROSTER = ("roster", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"])

# name -> key script ending on the screen to compare
MOMENTS = {
    "splash": [],
    "game_menu": [BOOTED],
    "players": [BOOTED, ("keys", "1")],
    "names": [ROSTER, BOOTED, ("keys", "1 4")],
    "options": [BOOTED, ("keys", "1 ok ok 1")],
    "who_deals": [ROSTER, BOOTED, ("keys", "1 ok ok ok b")],
    "lobo_play": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok 1 0 ok")],
    "lobo_preview": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok 1 0 ok 3")],
    "lobo_owes_two": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok a")],
    "lobo_one_more": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok a 5 ok")],
    "lobo_end_refused": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok a ok")],
    "big_ones": [ROSTER, BOOTED, LOBO4, ("keys", "1 1 ok ok")],
    "doublet": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok 1 0 ok 3 ok")],
    "bust": [ROSTER, BOOTED, LOBO4, ("keys", "6 6 ok ok 1 1 ok")],
    "round_end": [ROSTER, BOOTED, LOBO4, ("keys", "6 6 ok ok 1 1 ok"), ("tick", 1600)],
    "illegal": [ROSTER, BOOTED, LOBO4, ("keys", "a a")],
    # 8 players, 1 token: P2..P7 swim, P2 pays again and is out
    "swimming_and_out": [ROSTER, BOOTED, ("keys", "1 8 ok 1 1 1 ok ok"),
                         ("keys", "1 1 ok ok " * 6 + "b b 9 ok ok")],
    "winner": [ROSTER, BOOTED, ("keys", "1 2 ok 1 1 1 ok ok 1 1 ok ok 1 1 ok ok 1 1 ok"),
               ("tick", 1600), ("tick", 1600)],
    "history": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok 1 0 ok a 0 ok b menu 1")],
    "play_menu": [ROSTER, BOOTED, LOBO4, ("keys", "menu")],
    # the voice's settings from the game menu: voice turned off, English
    "voice_menu": [BOOTED, ("keys", "6 1 2")],
    "confirm_new": [ROSTER, BOOTED, LOBO4, ("keys", "9 ok menu 2")],
    "basta_play": [ROSTER, BOOTED, BASTA3, ("keys", "c a 3 4 0 ok")],
    "basta_more": [ROSTER, BOOTED, BASTA3, ("keys", "4 0 ok c")],
    "basta_seat": [ROSTER, BOOTED, BASTA3, ("keys", "c a")],
    "basta_over_50": [ROSTER, BOOTED, BASTA3, ("keys", "a 1 ok")],
    # what test_game_on_board.py waits for on the virtual board (no roster there)
    "board_lobo_first_card": [BOOTED, LOBO4, ("keys", "9 ok")],
    "board_illegal": [BOOTED, LOBO4, ("keys", "9 ok a a")],
    # the other three games: Mau-Mau tracker and score pad, the factor race's pad and referee, duo's board
    "maumau_tracker": [ROSTER, BOOTED, MAU3, ("keys", "7 ok 7 ok b a 3")],
    "maumau_suit": [ROSTER, BOOTED, MAU3, ("keys", "a")],
    "maumau_count": [ROSTER, BOOTED, MAU3, ("keys", "c c a 2 ok a c 1 0 ok")],
    "maumau_hand_cards": [ROSTER, BOOTED, MAU3, ("keys", "c c a 2 ok a c 1 0")],
    "maumau_illegal_preview": [ROSTER, BOOTED, MAU3, ("keys", "1 5")],
    "factors_pad": [ROSTER, BOOTED, FACTORS4, ("keys", "a 2 a 3 4 ok 0 ok")],
    "factors_referee_no": [BOOTED, FACTORS3, ("keys", "a 1 c 1 2 ok 3 4 ok 4")],
    "factors_referee_legal": [BOOTED, FACTORS3, ("keys", "a 1 c 1 2 ok 3 4 ok 4 5 ok 1")],
    "duo_board": [ROSTER, BOOTED, DUO, ("keys", "3 ok 2 a 4 ok 1 ok 5 ok 3 ok c a")],
}


def frame(micropython, tmp, name):
    """The framebuffer hex of moment `name` (a MicroPython run of its own, in folder tmp)."""
    return run_ui(micropython, tmp, MOMENTS[name] + [("snap", name)])[-1]["fb"]


@pytest.mark.parametrize("name", sorted(MOMENTS))
def test_screen_matches_golden(micropython, name, tmp_path):
    fb = frame(micropython, tmp_path, name)
    got = pixels(fb)
    want = golden_pixels(name)
    if got != want:
        image(fb).save(tmp_path / (name + ".png"))
        wrong = sum(g != w for gr, wr in zip(got, want) for g, w in zip(gr, wr))
        pytest.fail("%s: %d pixels differ; this run's screen is %s" % (
            name, wrong, tmp_path / (name + ".png")))


def regenerate():
    import tempfile

    from croupier.paths import micropython_binary

    with tempfile.TemporaryDirectory() as tmp:
        for name in MOMENTS:
            (Path(tmp) / name).mkdir()
            image(frame(micropython_binary(), Path(tmp) / name, name)).save(GOLDEN / (name + ".png"))
            print("wrote", GOLDEN / (name + ".png"))


if __name__ == "__main__":
    regenerate()
