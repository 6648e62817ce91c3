# The property-test driver for Mau-Mau, the factor race and two-player sums: hypothesis picks
# the inputs (through randplay_more's per-game choosers), a game-specific check(before, after,
# card, effects) judges every accepted input, and every refused one must change nothing.
from hypothesis import strategies as st

from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps
import randplay_more
from check import retraces
from randplay import Rng

# A list of seeds: each one picks the next input for the game's current state.
CHOICES = st.lists(st.integers(0, 1 << 30), min_size=20, max_size=300)


def effect_kinds(effects, kinds, seats):
    """The kinds of effects, after checking each is a known kind naming a real seat."""
    for e in effects:
        assert e["kind"] in kinds and 0 <= e["seat"] < seats, e
    return [e["kind"] for e in effects]


def active(state):
    return [s for s, p in enumerate(state["players"]) if not p["out"]]


def winners_or_turn(state, ended):
    """Common end-of-game rules: over exactly on game_end; a live game has someone on turn."""
    assert state["over"] == ended
    if state["over"]:
        assert state["winners"] and state["turn"] == state["winners"][0]
    else:
        assert state["winners"] == [] and not state["players"][state["turn"]]["out"]


def play_out(game, players, options, choices, check):
    """Play the chosen inputs; return the game and the state after every accepted input."""
    g = new_game(game, players, options)
    history = [dumps(g.state())]
    choose = randplay_more.INPUTS[game]
    for choice in choices:
        if g.state()["over"]:
            break
        before = g.state()
        card = choose(before, Rng(choice))
        try:
            effects = g.play(card)
        except Illegal:
            assert dumps(g.state()) == history[-1]
            continue
        check(before, g.state(), card, effects)
        history.append(dumps(g.state()))
    return g, history


def undo_redo_retraces(g, history, steps):
    """steps undos walk the history back exactly, as many redos come back to the end, and
    the state is a pure function of setup + inputs."""
    retraces(g, history, steps)
    fresh = new_game(g.setup()["game"], g.setup()["players"], g.setup()["options"])
    for card in g.inputs:
        fresh.play(card)
    assert dumps(fresh.state()) == history[-1] and fresh.round_log() == g.round_log()
