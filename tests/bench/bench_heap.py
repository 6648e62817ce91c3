"""Firmware heap figures (docs/benchmarks.md, "Heap"), all on the virtual board (MicroPython
unix port, 64-bit: GC blocks of 32 bytes, 8-byte pointers), firmware compiled as deployed:

1. import cost of each firmware module (heap held after `import` and gc.collect());
2. heap in use after boot (the App built, its tasks running, the splash gone);
3. heap held by a whole game's data: controller + journal + rules, no UI (cards are
   constants of the code run, so no heap string per card);
4. the smallest heap that plays a whole Lobo 77 and a whole BASTA game with the whole
   firmware running: keys injected over the link (keypad queue, UI, controller, journal,
   rules, `play` events), the final state checked against CPython's engine.

    .venv/bin/python tests/bench/bench_heap.py [--skip-games] [--firmware DIR]

--firmware measures another firmware tree, e.g. an older commit for a before/after:
    git archive REV firmware | tar -x -C /tmp/old && ... --firmware /tmp/old/firmware

The smallest heap at which the firmware suite passes is found by running the suite itself
at a given heap: `CROUPIER_TEST_HEAP=124k .venv/bin/python -m pytest -c tests/pytest.ini
tests/firmware` (docs/benchmarks.md, "Heap").
"""
import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from bench_firmware_ui import smallest_heap  # noqa: E402
from fwlink import frames_on, wait_for_boot  # noqa: E402
from ui_run import game_keys, random_game, setup_keys  # noqa: E402
from croupier.build import build_firmware  # noqa: E402
from croupier.deploy import Mpremote  # noqa: E402
from croupier.sim import VirtualBoard, toolchain  # noqa: E402

FIRMWARE = True  # what the boards install: the current build, or a staging folder (--firmware)
MEASURE_HEAP = "1m"  # roomy: the figures are what the firmware holds, not what it is given
# (module, label): imported in this order, each figure what that import adds. The games are
# dropped again after measuring, as only the game being played is loaded on the board.
MODULES = [
    ("croupier", "croupier (VERSION)"),
    ("croupier.rules", "rules (engine + registry)"),
    ("croupier.rules.canon", "rules.canon"),
    ("croupier.rules.lobo77", "rules.lobo77"),
    ("croupier.rules.basta", "rules.basta"),
    ("croupier.rules.maumau", "rules.maumau (+ cards)"),
    ("croupier.rules.factors", "rules.factors"),
    ("croupier.rules.duo", "rules.duo"),
    ("croupier.ssd1306", "ssd1306"),
    ("croupier.keys", "keys"),
    ("croupier.buzzer", "buzzer"),
    ("croupier.journal", "journal"),
    ("croupier.controller", "controller"),
    ("croupier.link", "link"),
    ("croupier.ui.draw", "ui.draw"),
    ("croupier.ui.root", "ui.root (+ what it imports)"),
    ("croupier.app", "app (+ what it imports)"),
]

IMPORTS = r'''
import gc, sys
def held():
    gc.collect()
    return gc.mem_alloc()
for name in %r:
    before = held()
    try:
        __import__(name)
    except ImportError as e:
        print("COST", name, -1)
        continue
    print("COST", name, held() - before)
    if name.startswith("croupier.rules.") and name != "croupier.rules.canon":
        for mod in [m for m in sys.modules if m.startswith(name) or m == "croupier.rules.cards"]:
            del sys.modules[mod]
        rules = sys.modules["croupier.rules"]
        for attr in ("lobo77", "basta", "maumau", "factors", "duo", "cards"):
            if hasattr(rules, attr):
                delattr(rules, attr)
import boards
board = boards.load()
before = held()
fb = board.display()
print("COST display-object", held() - before)
'''

GAME_DATA = r'''
import gc
from croupier.journal import Journal
from croupier.controller import Controller
c = Controller(Journal("/heap-bench"))
c.new(%r, %r, {})
gc.collect()
before = gc.mem_alloc()
for card in %r:
    c.play(card)
gc.collect()
print("HELD", gc.mem_alloc() - before)
'''

AFTER_BOOT = r'''
import asyncio, gc, boards
from croupier import app
a = app.App(boards.load())
async def probe():
    await asyncio.sleep_ms(2500)  # past the splash: the menu is drawn
    gc.collect()
    print("FREE", gc.mem_free())
    a.failed.set()
async def both():
    asyncio.create_task(probe())
    await a.main()
asyncio.run(both())
'''


def board_exec(vb, code, timeout=60):
    """Run code in the board's raw REPL (soft reset first: main.py does not run)."""
    return Mpremote(vb.port).run("soft-reset", "exec", code, timeout=timeout)


def import_costs():
    """{module: bytes} and the bytes in use after boot, on a board with MEASURE_HEAP."""
    with VirtualBoard(heap=MEASURE_HEAP, firmware=FIRMWARE) as vb:
        vb.wait_boot(timeout=20)
        out = board_exec(vb, IMPORTS % ([name for name, _ in MODULES],))
        costs = {}
        for line in out.splitlines():
            if line.startswith("COST "):
                _, name, size = line.split()
                costs[name] = int(size)
        free = [int(line.split()[1]) for line in board_exec(vb, AFTER_BOOT).splitlines()
                if line.startswith("FREE ")]
    in_use = toolchain.bare_free(toolchain.unix_port().command, toolchain.heap_bytes(MEASURE_HEAP)) - free[0]
    return costs, in_use


def game_data(game, count, seed):
    """Bytes the controller, journal and rules hold after a whole game (no UI, no link)."""
    cards, _, _ = random_game(game, count, {}, seed)
    players = ["P%d" % (i + 1) for i in range(count)]
    with VirtualBoard(heap=MEASURE_HEAP, firmware=FIRMWARE) as vb:
        vb.wait_boot(timeout=20)
        out = board_exec(vb, GAME_DATA % (game, players, cards))
    return len(cards), [int(line.split()[1]) for line in out.splitlines()
                        if line.startswith("HELD ")][0]


def game_fits(game, count, options, seed):
    """fits(heap) -> True when the whole firmware plays the game to the engine's end."""
    cards, engine, effects = random_game(game, count, options, seed)
    keys = (setup_keys(game, count, options) + " " + game_keys(game, cards, effects)).split()
    expected = engine.state()

    def fits(heap):
        with VirtualBoard(heap=heap, firmware=FIRMWARE) as vb, frames_on(vb.port) as link:
            try:
                wait_for_boot(link, timeout=20)
                time.sleep(2.0)  # the splash
                for key in keys:
                    inject(link, key)
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    state = link.call("state")
                    if state.get("ok") and state["state"] == expected:
                        break
                    time.sleep(0.2)
                else:
                    return False
            except AssertionError:  # no boot, no answer: out of memory
                return False
            return b"Error" not in vb.output()

    return fits, len(cards)


def inject(link, key):
    """Press one logical key through the link's `key` command, waiting while the queue is
    full; AssertionError when the firmware does not take it."""
    for _ in range(200):
        answer = link.call("key", key=key)
        if answer.get("ok"):
            return
        if answer.get("error") != "busy":
            raise AssertionError(answer)
        time.sleep(0.02)
    raise AssertionError("key queue stayed full")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-games", action="store_true", help="only the import figures")
    parser.add_argument("--firmware", type=Path, help="firmware tree to measure instead")
    args = parser.parse_args()
    if args.firmware:
        global FIRMWARE
        FIRMWARE = build_firmware(args.firmware)
    costs, in_use = import_costs()
    print("### import cost (virtual board, heap %s)\n" % MEASURE_HEAP)
    print("| module | heap held (bytes) |\n|---|---|")
    for name, label in MODULES + [("display-object", "display object (board.display())")]:
        size = costs.get(name)
        print("| %s | %s |" % (label, "not present" if size is None or size < 0 else size))
    print("\nheap in use after boot (App built, tasks running, menu shown): %d bytes" % in_use)
    if args.skip_games:
        return
    print("\n### heap held by a whole game's data (controller + journal + rules)\n")
    for game in ("lobo77", "basta"):
        cards, held = game_data(game, 4, 1)
        print("- %s, 4 players, seed 1, %d cards: %d bytes" % (game, cards, held))
    print("\n### smallest heap for a whole game (keys over the link, whole firmware)\n")
    for game, count, options, seed in (("lobo77", 4, {}, 1), ("basta", 4, {}, 1)):
        fits, cards = game_fits(game, count, options, seed)
        kb = smallest_heap(fits, 48, 512, step_kb=4)
        print(json.dumps({"game": game, "players": count, "cards": cards, "seed": seed,
                          "smallest_heap_kb": kb}))


if __name__ == "__main__":
    main()
