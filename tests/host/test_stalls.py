"""A board stalled at random moments loses nothing (docs/protocol.md, "The window").

While the host tools talk to a virtual board, a seeded thread stops the board's interpreter
(SIGSTOP) for 0.1-3 s at random moments and continues it: a flash erase, a collection or a
debugger on a real chip. Over more than 500 requests, through the commands a user runs
(part of `croupier hil --port`, `croupier console` with a piped script, the `key` requests
`croupier mirror` sends for typed keys, `croupier sync`), no byte may overflow the board's
emulated receive path, every command must complete with the state the rules engine gives
(the HIL suite's own checks, for its part), and nothing may be played twice.
"""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from croupier.commands.demo import script_game
from croupier.link import connect
from croupier.rules import new_game

PLAYERS = ["Ana", "Ben", "Cleo"]
STALL_S = (0.1, 3.0)  # how long the board is stopped
GAP_S = (0.2, 1.5)  # how long it runs between two stops
STALLS = 10  # the fewest stops while the tools talk
# The HIL suite's tests of keys (short and long presses, sent as `key` requests over --port)
# and of requests (a full window pipelined): ~7 s of the whole suite's ~27 s unstalled, as
# the stalls stretch the run about threefold.
HIL_TESTS = "test_lobo77 or test_undo or pipelined"
HIL_TIMEOUT_S = 20  # a request or a wait of the suite may meet several stalls in a row


class Staller(threading.Thread):
    """Stops the board at seeded random moments until told to end; counts the stalls."""

    def __init__(self, vb, seed):
        super().__init__(daemon=True)
        self.vb, self.rng, self.stalls = vb, random.Random(seed), 0
        self._end = threading.Event()

    def run(self):
        while not self._end.wait(self.rng.uniform(*GAP_S)):
            self.stall(self.rng.uniform(*STALL_S))
            self.stalls += 1

    def stall(self, seconds):
        """Stop the (unpaced) board's interpreter for `seconds`, as a chip busy in a flash
        erase or a collection; the line keeps delivering into the receive path."""
        with self.vb._lock:  # the interpreter of now: a reset may replace it
            proc = self.vb._proc
            if proc is None:
                return
            os.kill(proc.pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            with self.vb._lock:
                if self.vb._proc is proc:
                    os.kill(proc.pid, signal.SIGCONT)

    def end(self):
        self._end.set()
        self.join()


def expected_state(cards):
    engine = new_game("lobo77", PLAYERS)
    for card in cards:
        engine.play(card)
    return engine.state()


def croupier(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "croupier.cli"] + list(args), input=stdin,
                          capture_output=True, text=True, timeout=600)


class Counted:
    """A Link whose calls are counted."""

    def __init__(self, link):
        self.link, self.requests = link, 0

    def call(self, cmd, **args):
        self.requests += 1
        return self.link.call(cmd, **args)


def play_by_keys(link, cards):
    """Each card typed as its digits and `ok`, one `key` request a key, as mirror sends them;
    returns once the board's key task has handled them all."""
    for card in cards:
        for key in card + "#":
            link.call("key", key={"#": "ok"}.get(key, key))
    deadline = time.monotonic() + 60
    while True:
        keys = link.call("hello")["keys"]
        if keys["handled"] == keys["registered"] or time.monotonic() > deadline:
            return
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1])
def test_a_board_stalled_at_random_moments_loses_nothing(tmp_path, seed):
    from croupier.sim import VirtualBoard

    games = [script_game("lobo77", PLAYERS, seed=seed * 100 + i) for i in range(12)]
    piped, keyed, sent = games[:5], [[c for c in g if c.isdigit()] for g in games[5:7]], games[7:]
    with VirtualBoard() as vb:
        vb.wait_boot(timeout=20)
        staller = Staller(vb, seed)
        staller.start()
        try:
            # `croupier hil` on the fresh board: it holds nothing the suite would refuse to risk
            done = croupier("hil", "--port", vb.port, "-k", HIL_TESTS, "--timeout", str(HIL_TIMEOUT_S))
            assert done.returncode == 0 and "result:      PASS" in done.stdout, done.stdout[-4000:] + done.stderr
            # `croupier console` with a piped script: new games and their cards.
            script = "".join("new lobo77 %s\n%s" % (" ".join(PLAYERS), "".join("play %s\n" % c for c in g))
                             for g in piped)
            done = croupier("console", "--port", vb.port, stdin=script)
            assert done.returncode == 0, done.stderr
            requests = script.count("\n")
            with connect(vb.port) as raw:
                link = Counted(raw)
                hil_seq = link.call("hello")["acked"]  # the suite acknowledged its records: no sync stores them
                for cards in keyed:  # typed on the laptop's keyboard, as `croupier mirror` sends it
                    link.call("new", game="lobo77", players=PLAYERS)
                    play_by_keys(link, cards)
                for cards in sent:  # a script's requests: cards played, undone and redone
                    link.call("new", game="lobo77", players=PLAYERS)
                    for card in cards:
                        link.call("play", card=card)
                        if card is not cards[-1]:  # a game over takes no undo
                            link.call("undo")
                            link.call("redo")
                        link.call("state")
                while staller.stalls < STALLS:  # a fast host: ask on until the board was stopped enough
                    assert link.call("state")["state"] == expected_state(sent[-1])
                last_seq = link.call("hello")["last_seq"]
                requests += link.requests
            db = tmp_path / "games.sqlite3"
            done = croupier("sync", "--port", vb.port, "--db", str(db))
            assert done.returncode == 0, done.stderr
        finally:
            staller.end()
        assert requests >= 500, requests
        assert vb.rx_overflow == 0
    with sqlite3.connect(str(db)) as con:
        seqs = [row[0] for row in con.execute("SELECT seq FROM records ORDER BY seq")]
        finals = [json.loads(row[0]) for row in con.execute("SELECT final_state FROM games ORDER BY game_id")]
    assert seqs == list(range(hil_seq + 1, last_seq + 1))  # every record once
    assert finals == [expected_state(cards) for cards in piped + keyed + sent]  # nothing played twice
