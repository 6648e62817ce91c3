"""Random key mashing (long presses included) never crashes the firmware and never breaks
the rules: the device's state is always what the rules engine gives for its own inputs,
and the journal rebuilds it after a power cycle.

`make test` mashes a few thousand keys into the UI on the unix port, and a few hundred real
key presses (long ones included) into the whole firmware on the virtual board; the full run (>= 20,000 keys over several seeds,
result in docs/benchmarks.md) is this file as a script:
    .venv/bin/python tests/firmware/test_mash.py --keys 5000 --seeds 1 2 3 4 5
"""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from board_journal import crash_report, journal_matches_state  # noqa: E402
from ui_run import LONG_GAME_HEAP, press_keys, run_ui, wait_until  # noqa: E402

from croupier.rules import new_game  # noqa: E402

# logical key -> weight: mostly typing, with every other key in the mix
WEIGHTS = {"0": 4, "1": 6, "2": 5, "3": 4, "4": 4, "5": 4, "6": 4, "7": 3, "8": 3, "9": 3,
           "ok": 14, "a": 6, "b": 6, "c": 6, "undo": 8, "menu": 3}
HOLD = 0.06  # share of long presses
CHECK_EVERY = 250  # keys between two state checks


def mash_script(seed, count):
    rng = random.Random(seed)
    names, weights = zip(*sorted(WEIGHTS.items()))
    script, chunk = [("tick", 1500)], []
    for i in range(1, count + 1):
        key = rng.choices(names, weights)[0]
        chunk.append(key + "!" if rng.random() < HOLD else key)
        if rng.random() < 0.02:  # now and then the player pauses: news and messages expire
            script += [("keys", " ".join(chunk)), ("tick", rng.choice((300, 1600, 2500)))]
            chunk = []
        if i % CHECK_EVERY == 0 or i == count:
            script += [("keys", " ".join(chunk)), ("snap", "k%d" % i)]
            chunk = []
    return script + [("reboot",), ("tick", 1500), ("snap", "rebooted")]


def check_rules(snap):
    """The device state equals the rules engine's replay of the device's inputs, and the
    invariants of docs/rules.md hold in it."""
    state, setup = snap["state"], snap["setup"]
    if state is None:
        return
    replay = new_game(setup["game"], setup["players"], setup["options"])
    for card in snap["inputs"]:
        replay.play(card)
    assert replay.state() == state, snap["snap"]
    players = state["players"]
    if setup["game"] not in ("lobo77", "basta"):
        return  # the other games' own invariants are their tests' business
    if setup["game"] == "lobo77":
        start = setup["options"]["tokens"]
        assert all(0 <= p["tokens"] <= start for p in players)
        assert all(p["tokens"] == 0 for p in players if p["out"])
        assert len(state["winners"]) == (1 if state["over"] else 0)
    else:
        limit = setup["options"]["limit"]
        assert all(0 <= p["penalties"] <= limit for p in players)
        assert state["over"] == (max(p["penalties"] for p in players) == limit)
    if not state["over"]:
        assert not players[state["turn"]]["out"]


def mash(micropython, tmp_path, seed, count):
    """Mash count keys; return (snaps, games seen, cards accepted at the checks)."""
    snaps = run_ui(micropython, tmp_path, mash_script(seed, count), timeout=600,
                   heap=LONG_GAME_HEAP)
    for snap in snaps:
        check_rules(snap)
    assert snaps[-1]["snap"] == "rebooted"
    before = snaps[-2]["state"]
    if before is None or before["over"]:
        assert snaps[-1]["state"] is None and snaps[-1]["screen"] == "ListScreen"
    else:  # the journal rebuilt the unfinished game exactly
        assert snaps[-1]["state"] == before and snaps[-1]["screen"] == "Play"
    games = {(s["setup"]["game"], len(s["setup"]["players"])) for s in snaps if s["setup"]}
    return snaps, games


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_mashing_keys_never_crashes_nor_breaks_the_rules(micropython, tmp_path, seed):
    snaps, games = mash(micropython, tmp_path, seed, 3000)
    assert len(snaps) == 3000 // CHECK_EVERY + 1
    assert any(s["inputs"] for s in snaps if s["state"]), "mashing should play some cards"


def test_mashing_the_board_keypad_keeps_firmware_and_journal_sound(vb, link):
    rng = random.Random(99)
    names, weights = zip(*sorted(WEIGHTS.items()))
    keys = " ".join(rng.choices(names, weights)[0] + ("!" if rng.random() < HOLD else "")
                    for _ in range(150))
    press_keys(vb, "1 ok ok ok ok " + keys)  # start a game, then mash
    wait_until(lambda: link.ok("state"), 10, "the firmware to answer")
    assert crash_report(vb) is None, crash_report(vb)
    assert journal_matches_state(link)


def main():
    import argparse
    import tempfile
    import time

    from croupier.paths import micropython_binary

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=5000, help="keys per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = parser.parse_args()
    total = 0
    for seed in args.seeds:
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            snaps, games = mash(micropython_binary(), Path(tmp), seed, args.keys)
        total += args.keys
        cards = max((len(s["inputs"]) for s in snaps if s["inputs"]), default=0)
        print("seed %d: %d keys, no crash, rules hold at %d checks; games %s; longest input "
              "list %d cards; %.1f s" % (seed, args.keys, len(snaps), sorted(games), cards,
                                        time.monotonic() - started))
    print("total: %d keys over %d seeds, all passed" % (total, len(args.seeds)))


if __name__ == "__main__":
    main()
