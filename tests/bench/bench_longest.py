"""The longest request at line rate, no key pressed, on boards at the ESP32's pace: each
board boots to its menu, then takes `--requests` `hello`s of LINE_MAX (220) bytes, each sent
as soon as the answer to the one before is in (as tests/firmware/test_at_pace.py does, three times
over). A lost byte shows as a `bad_frame` answer (`id` null) or none. docs/benchmarks.md,
"Longest requests back to back".

    .venv/bin/python tests/bench/bench_longest.py --boards 8 --requests 9
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
from fwlink import HEAP, LINE_MAX, frames_on, longest_hello  # noqa: E402
from ui_run import wait_for_screen  # noqa: E402

from croupier.sim import VirtualBoard  # noqa: E402

BOOT_S = 60  # a paced boot on a busy host
ANSWER_S = 8  # a paced answer to a hello takes well under a second


def answer(link):
    """The next response (events skipped), or None within ANSWER_S."""
    deadline = time.monotonic() + ANSWER_S
    while time.monotonic() < deadline:
        obj = link.read_frame(deadline - time.monotonic())
        if obj is None or "ev" not in obj:
            return obj
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--requests", type=int, default=9, help="per board")
    args = parser.parse_args()
    lost = 0
    for board in range(args.boards):
        with VirtualBoard(heap=HEAP, pace="esp32") as vb:
            vb.wait_boot(timeout=BOOT_S)
            wait_for_screen(vb, "game_menu", timeout=BOOT_S)
            time.sleep(1.0)  # the menu drawn and the heap tidied
            with frames_on(vb.port) as link:
                for rid in range(1, args.requests + 1):
                    overflow = vb.rx_overflow
                    link.send_raw(longest_hello(rid))
                    got = answer(link)
                    if not (got and got.get("id") == rid and got.get("ok") is True):
                        lost += 1
                        print("- board %d, request %d: %s, %d bytes lost" % (
                            board, rid, got.get("error") if got else "no answer",
                            vb.rx_overflow - overflow), flush=True)
                        time.sleep(1.0)  # the rest of the damaged line is answered
                        while link.read_frame(timeout=0.5) is not None:
                            pass
    total = args.boards * args.requests
    print("%d of %d requests of %d bytes answered intact" % (total - lost, total, LINE_MAX))


if __name__ == "__main__":
    main()
