# Differential test for Mau-Mau, the factor race and two-player sums: the same random games
# (tests/rules/randplay_more.py) on CPython and on MicroPython give byte-identical summaries,
# every step included (the trail CRC).
import functools

import randplay_more
from croupier.rules.canon import dumps
from rules_mp import RULES_TESTS, run_micropython

GAMES = 60  # about 20 of each game; a few seconds on MicroPython


@functools.lru_cache(maxsize=1)
def played_on_cpython():
    return [randplay_more.play_game(seed) for seed in range(GAMES)]


def test_random_games_of_the_other_three_are_identical_on_micropython():
    result = run_micropython(RULES_TESTS / "randplay_more.py", 0, GAMES, timeout=120)
    assert result.returncode == 0, result.stderr
    theirs = result.stdout.splitlines()
    assert len(theirs) == GAMES
    for seed, summary in enumerate(played_on_cpython()):
        assert dumps(summary) == theirs[seed], \
            "game %d differs; compare: randplay_more.py %d 1 steps" % (seed, seed)


def test_the_random_games_cover_every_game_and_reach_their_end():
    summaries = played_on_cpython()
    assert {s["setup"]["game"] for s in summaries} == set(randplay_more.GAMES)
    assert all(s["state"]["over"] for s in summaries)
    assert any(len(s["setup"]["players"]) < len(s["state"]["players"]) for s in summaries)
