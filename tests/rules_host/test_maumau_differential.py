# Differential test for Mau-Mau against the computer: whole games between computer players
# (tests/rules/maumau_selfplay.py: deals, reshuffles and the bots' choices all from seeds) end
# byte for byte alike on CPython and on MicroPython.
import maumau_selfplay
from rules_mp import RULES_TESTS, run_micropython

GAMES = 30  # strengths 1-4 at 2-5 seats; a few seconds on MicroPython


def test_computer_games_are_identical_on_micropython(micropython):
    # A laptop-only game (never on the box's heap): the unix port's default 2 MB heap left a
    # long round's 64 KB move log no room in one run in a few, by where the paths fell.
    result = run_micropython(RULES_TESTS / "maumau_selfplay.py", 0, GAMES, timeout=180,
                             binary=micropython, heap="8m")
    assert result.returncode == 0, result.stderr
    theirs = result.stdout.splitlines()
    assert len(theirs) == GAMES
    for seed in range(GAMES):
        assert maumau_selfplay.summary(seed) == theirs[seed], "game %d differs" % seed


def test_the_computer_games_reach_their_end_over_several_rounds():
    lines = [maumau_selfplay.summary(seed).split() for seed in range(GAMES)]
    assert all(line[3] != "[]" for line in lines)  # a winner every time
    assert max(int(line[1]) for line in lines) > 2
