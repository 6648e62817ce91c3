# Differential test: the same 500 random games (tests/rules/randplay.py, a shared xorshift
# PRNG) played by CPython in-process and by the MicroPython unix port; every game's summary
# (setup, inputs, final state as canonical JSON, CRC of every step's canonical dump) must be
# byte for byte identical.
import subprocess

import randplay
from croupier.rules.canon import dumps
from rules_mp import RULES_TESTS, micropython_command, micropython_env, run_micropython

GAMES = 500
SCRIPT = RULES_TESTS / "randplay.py"


def steps_on_cpython(seed):
    steps = []
    randplay.play_game(seed, show=steps.append)
    return steps


def first_difference(seed, binary):
    """The first step of game seed where the two interpreters disagree (for the report)."""
    micro = run_micropython(SCRIPT, seed, 1, "steps", binary=binary).stdout.splitlines()
    for index, (ours, theirs) in enumerate(zip(steps_on_cpython(seed), micro)):
        if ours != theirs:
            return "step %d:\n  CPython     %s\n  MicroPython %s" % (index, ours, theirs)
    return "no step differs; the summaries do"


def test_500_random_games_identical_on_cpython_and_micropython(micropython):
    # Start MicroPython first so both interpreters play at the same time.
    micro = subprocess.Popen(micropython_command(SCRIPT, 0, GAMES, binary=micropython),
                             env=micropython_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        ours = [dumps(randplay.play_game(seed)) for seed in range(GAMES)]
        out, err = micro.communicate(timeout=240)
    finally:
        micro.kill()
        micro.wait()
    theirs = out.splitlines()
    assert micro.returncode == 0, err
    assert len(theirs) == GAMES, err
    for seed, (mine, other) in enumerate(zip(ours, theirs)):
        assert mine == other, "game %d differs at %s" % (seed, first_difference(seed, micropython))
    finished = sum('"over":true' in line for line in ours)
    assert finished == GAMES  # every game was played to its end
