"""Key mashing on the virtual board: every registered press handled, in order.

--keys keys of whole 4-player Lobo 77 games (an undo and a redo, a long press, now and then)
pressed on the emulated matrix at a fast player's pace without waiting for the screen:
presses of 80-250 ms, and for a share of them the next key goes down before this one is up
(rollover), or goes down and up while this one is held: presses count in the order the keys
went down. Each game's journal must hold the inputs typed, in typed order; the keypad's
counts (`hello`'s keys) must show every registered press handled and none refused. Exits
non-zero when a registered press is lost or out of order, or the firmware crashed.

    .venv/bin/python tests/bench/bench_mash.py [--keys 2000] [--pace none esp32] [--seed 1]
                                               [--micropython-version 1.28]

A game in which the keypad registered fewer presses than were made (a tap that came and went
while a paced chip was busy, as on a real box) cannot be compared with what was typed: it
is counted and reported, not judged.
"""
import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from board_journal import crash_report, journal_matches_state, read_journal  # noqa: E402
from fwlink import frames_on  # noqa: E402
from ui_run import HOLD_MS, card_keys, random_game  # noqa: E402

from croupier.sim import VirtualBoard  # noqa: E402
from croupier.sim.board import RELEASES  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PRESS_MS = (80, 250)  # a player's presses, short of the firmware's 600 ms hold
GAP_MS = (60, 150)  # between a key's release and the next key going down
ROLLOVER = 0.25  # share of presses whose next key goes down before their release, by ...
OVERLAP_MS = (20, 60)  # ... this long, and at least ...
DOWN_APART_MS = 40  # ... this long after they went down
NESTED = 0.1  # share of presses whose next key goes down and up while they are held, ...
NESTED_DOWN_MS = (40, 80)  # ... going down this long after them (still a short press)
# At most two keys are down at once: three at the corners of a rectangle ghost a fourth.
UNDO = 0.1  # share of quiet cards followed by an undo and a redo (a long press)
SETTLED_S = 60  # the most a board may take to handle the presses registered


def mash_game(seed):
    """A whole 4-player Lobo 77 game by keys, now and then an undo and a redo after a card
    nothing was announced for: -> (keys, the journal records they make: (kind, card))."""
    cards, _, effects = random_game("lobo77", 4, {}, seed=seed)
    rng = random.Random(seed)
    keys, records = [], []
    for card, found in zip(cards, effects):
        keys += card_keys("lobo77", card).split()
        records.append(("play", card))
        if found:
            keys.append("ok")  # closes the announcement
        elif rng.random() < UNDO:
            keys += ["undo", "undo!"]
            records += [("undo", None), ("redo", None)]
    return keys, records


def schedule(keys, rng):
    """Key changes for keys ("undo!": a long press) as a fast player types them: -> ([(ms
    from the start, key, down)], presses whose next key went down before their release,
    of those the ones released after the next key (nested)). A key is not pressed again
    within GAP_MS of its release (a shorter lift is a bounce, not a press)."""
    names = [key.rstrip("!") for key in keys]
    longs = [key.endswith("!") for key in keys]
    held = [HOLD_MS if long else rng.randint(*PRESS_MS) for long in longs]
    changes, up_of = [], {}
    down_at, before_up = 0, -GAP_MS[0]  # this press; the release of the press before it
    for i, name in enumerate(names):
        up_at = down_at + held[i]
        following = names[i + 1] if i + 1 < len(keys) else None
        # the next key goes down once the press before this one is up (two keys down at
        # most), and not within GAP_MS of its own last release
        earliest = max(before_up, up_of.get(following, before_up)) + GAP_MS[0]
        mode = "apart"
        if following not in (None, name) and not longs[i]:
            mode = rng.choices(("rollover", "nested", "apart"), (ROLLOVER, NESTED, 1 - ROLLOVER - NESTED))[0]
        if mode == "nested" and not longs[i + 1]:
            next_down = max(down_at + rng.randint(*NESTED_DOWN_MS), earliest)
            up_at = max(up_at, next_down + held[i + 1] + rng.randint(*OVERLAP_MS))
        elif mode == "rollover":
            next_down = max(up_at - rng.randint(*OVERLAP_MS), down_at + DOWN_APART_MS, earliest)
        else:
            next_down = max(up_at + rng.randint(*GAP_MS), earliest)
        changes += [(down_at, name, True), (up_at, name, False)]
        up_of[name] = up_at
        down_at, before_up = next_down, up_at
    presses = sorted((changes[k][0], changes[k + 1][0]) for k in range(0, len(changes), 2))
    overlapped = sum(1 for (_, up), (down, _) in zip(presses, presses[1:]) if down < up)
    nested = sum(1 for (_, up), (_, next_up) in zip(presses, presses[1:]) if next_up < up)
    return sorted(changes, key=lambda c: c[0]), overlapped, nested


def type_on(vb, changes):
    """Make the key changes on the board's matrix at their times (late ones at once, in order)."""
    start = time.monotonic()
    for at_ms, key, down in changes:
        wait = start + at_ms / 1000 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        (vb.key_down if down else vb.key_up)(key)


def settled_counts(link, presses=0):
    """`hello`'s keys once the board has registered `presses` (a paced board may take key
    changes in well after they were typed) and handled every press it registered, or after
    SETTLED_S."""
    deadline = time.monotonic() + SETTLED_S
    while True:
        keys = link.ok("hello")["keys"]
        if keys["registered"] >= presses and keys["handled"] == keys["registered"] or time.monotonic() > deadline:
            return keys
        time.sleep(0.2)


def journal_inputs(link, since):
    """The inputs (play, undo, redo) in the journal after seq `since`, once it is quiet: the
    last key handled may still be on its way into it."""
    def inputs():
        return [(r[3], r[4] if r[3] == "play" else None) for r in read_journal(link, since)
                if r[3] in ("play", "undo", "redo")]

    got = inputs()
    while True:
        time.sleep(1)
        again = inputs()
        if again == got:
            return got
        got = again


def first_difference(got, expected):
    at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
    return "input %d: typed %s, journal %s" % (
        at + 1, expected[at] if at < len(expected) else "nothing",
        got[at] if at < len(got) else "nothing")


def mash(vb, link, count, seed):
    """Mash whole games until at least count keys are pressed: -> dict of the figures, and
    the failures found (a list of lines)."""
    rng = random.Random(seed)
    out = {"keys": 0, "overlapped": 0, "nested": 0, "games": 0, "typed": 0, "journal": 0, "compared": 0,
           "in order": 0, "unseen games": 0}
    failures = []
    first = counts = settled_counts(link)
    while out["keys"] < count:
        out["games"] += 1
        keys, expected = mash_game(seed * 1000 + out["games"])
        changes, overlapped, nested = schedule(keys, rng)
        since = link.ok("hello")["last_seq"]
        link.ok("new", game="lobo77", players=PLAYERS)  # an unfinished game is abandoned
        time.sleep(1)
        type_on(vb, changes)
        after = settled_counts(link, counts["registered"] + len(keys))
        got = journal_inputs(link, since)
        out["keys"] += len(keys)
        out["overlapped"] += overlapped
        out["nested"] += nested
        out["typed"] += len(expected)
        out["journal"] += len(got)
        if after["registered"] - counts["registered"] < len(keys):
            out["unseen games"] += 1  # a press never registered: the game is another one
        else:
            out["compared"] += 1
            if got == expected:
                out["in order"] += 1
            else:
                failures.append("game %d: every press registered, but the journal is not the "
                                "typed inputs in order (%s)" % (out["games"], first_difference(got, expected)))
        counts = after
    for name in ("registered", "handled", "refused"):
        out[name] = counts[name] - first[name]
    if out["handled"] != out["registered"]:
        failures.append("%d registered presses never handled" % (out["registered"] - out["handled"]))
    if out["refused"]:
        failures.append("%d presses lost to a full key queue" % out["refused"])
    if not out["compared"]:
        failures.append("no game had every press registered: the order was never checked")
    out["sound"] = journal_matches_state(link)
    if not out["sound"]:
        failures.append("the journal's replay differs from the device's state")
    crash = crash_report(vb)
    out["crashed"] = crash is not None
    if crash:
        failures.append("the firmware crashed:\n    " + crash.replace("\r", "").replace("\n", "\n    "))
    return out, failures


def run(pace, args):
    with VirtualBoard(pace=pace, micropython_version=args.micropython_version) as vb, \
            frames_on(vb.port, boot=True, timeout=120) as link:
        time.sleep(3)  # past the splash
        started = time.monotonic()
        out, failures = mash(vb, link, args.keys, args.seed)
        seconds = time.monotonic() - started
    print("\n### pace %s: %d keys in %d games (presses of %d-%d ms); %d with the next key down "
          "before their release, %d of them released after it\n" % (
              pace, out["keys"], out["games"], PRESS_MS[0], PRESS_MS[1], out["overlapped"], out["nested"]))
    print("- the keypad registered %d of the %d presses, handled %d of them, refused %d "
          "(full queue)" % (out["registered"], out["keys"], out["handled"], out["refused"]))
    print("- %d inputs typed, %d in the journal; games whose journal is the typed inputs in "
          "typed order: %d of the %d with every press registered (%d with a press never "
          "registered, not compared)" % (out["typed"], out["journal"], out["in order"],
                                         out["compared"], out["unseen games"]))
    print("- %s; journal replay %s; %.0f s" % ("CRASHED" if out["crashed"] else "no crash",
                                               "equals the state" if out["sound"] else "DIFFERS", seconds))
    for line in failures:
        print("- FAILED: " + line)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=2000, help="keys pressed at each pace (at least)")
    parser.add_argument("--pace", nargs="+", default=["none", "esp32"], choices=("none", "esp32"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--micropython-version", default=RELEASES[-1], choices=RELEASES,
                        help="the release whose console the board models")
    args = parser.parse_args()
    print("MicroPython %s, seed %d" % (args.micropython_version, args.seed))
    failed = [pace for pace in args.pace if run(pace, args)]
    if failed:
        raise SystemExit("bench_mash failed at pace %s (the FAILED lines above)" % ", ".join(failed))


if __name__ == "__main__":
    main()
