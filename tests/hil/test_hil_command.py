"""`croupier hil` end to end: on a fresh virtual board, on a board started separately (the
real-board subset, over --port) and on a firmware with one rule broken."""
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from croupier.paths import firmware_dir

SUITE_TIMEOUT = 240  # seconds for one whole `croupier hil` run
SIDE_CHANNEL = "needs the virtual board's side channel"


def croupier(*args, timeout=SUITE_TIMEOUT):
    """Run the installed command line as a user would; (exit status, output)."""
    proc = subprocess.run([sys.executable, "-m", "croupier.cli", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout + proc.stderr


def outcomes(junit):
    """{test name: (outcome, skip message, side-channel property)} from a JUnit XML report."""
    found = {}
    if not Path(junit).is_file():
        return found  # the run ended before any test (the board did not come up)
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = "%s::%s" % (case.get("classname"), case.get("name"))
        outcome, message = "passed", None
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is not None:
                outcome, message = tag, node.get("message")
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        found[name] = (outcome, message, props.get("virtual_board"))
    return found


@pytest.fixture
def headless_board(tmp_path):
    """`croupier sim --headless --link PATH` started separately, as a person would."""
    link = tmp_path / "board"
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--link", str(link)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not link.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("croupier sim --headless did not create %s: %s" % (link, proc.communicate(timeout=10)[0]))
        time.sleep(0.1)
    yield link
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


# One test for both runs: the run over --port is checked against the virtual board's
# (a 70 s run, which a fixture would repeat on each pytest-xdist worker that needs it).
def test_the_suite_passes_on_a_fresh_virtual_board_and_its_real_board_subset_over_port(headless_board, tmp_path):
    virtual = tmp_path / "virtual"
    status, output = croupier("hil", "--junitxml", str(virtual / "junit.xml"), "--transcripts", str(virtual / "logs"))
    on_virtual = outcomes(virtual / "junit.xml")
    assert status == 0, output[-6000:]
    assert "result:      PASS" in output, output[-3000:]
    assert on_virtual and all(outcome == "passed" for outcome, _, _ in on_virtual.values()), \
        [name for name, r in on_virtual.items() if r[0] != "passed"]
    assert any(side for _, _, side in on_virtual.values()), "some tests use the side channel"
    assert len(list((virtual / "logs").glob("*.log"))) == len(on_virtual), "one serial transcript per test"

    status, output = croupier("hil", "--port", str(headless_board), "--junitxml", str(tmp_path / "junit.xml"))
    assert status == 0, output[-6000:]
    on_port = outcomes(tmp_path / "junit.xml")
    assert set(on_port) == set(on_virtual), "the same suite runs over --port"
    skipped = {name for name, (outcome, _, _) in on_port.items() if outcome == "skipped"}
    marked = {name for name, (_, _, side) in on_virtual.items() if side}
    assert skipped == marked, "exactly the side-channel tests are skipped on a real board"
    assert all(message.startswith(SIDE_CHANNEL) for outcome, message, _ in on_port.values() if outcome == "skipped")
    assert all(outcome == "passed" for name, (outcome, _, _) in on_port.items() if name not in marked)


def test_a_firmware_that_does_not_charge_doublets_fails_naming_the_rule(tmp_path):
    broken = tmp_path / "firmware"
    shutil.copytree(firmware_dir(), broken, ignore=shutil.ignore_patterns("__pycache__"))
    rules = broken / "croupier" / "rules" / "lobo77.py"
    source = rules.read_text()
    assert source.count("DOUBLETS = (11, 22, 33, 44, 55, 66)") == 1, "the rule to break has moved: update this test"
    rules.write_text(source.replace("DOUBLETS = (11, 22, 33, 44, 55, 66)", "DOUBLETS = ()"))

    status, output = croupier("hil", "--firmware", str(broken), "-k", "lobo77")
    assert status != 0, "the suite must fail on a firmware that charges no doublets:\n" + output[-3000:]
    assert "result:      FAIL" in output
    assert "last bytes received from the board" in output, "a failure quotes what the board sent last"
    failures = [line for line in output.splitlines() if line.startswith("  failed:")]
    assert failures and any("doublet" in line and "rules.md 1.3" in line for line in failures), \
        "the summary must point at the doublet rule:\n" + output[-4000:]


# -- a user's games survive the suite ---------------------------------------------------------
USER_PLAYERS = ["Uma", "Ugo", "Ulla"]
USER_ROSTER = ["Uma", "Ugo", "Ulla", "Uwe"]
SAFETY_TESTS = "clock_stamps or ack_and_roster or test_sync or setup_from_the_keypad"  # clock, acks, roster, a game left


def users_game(port):
    """A game in progress, three cards, never synced, and a roster: what a user leaves on a board."""
    from croupier.link import connect

    with connect(port) as link:
        link.call("roster", names=USER_ROSTER)
        link.call("new", game="lobo77", players=USER_PLAYERS)
        for card in ("10", "9", "5"):
            link.call("play", card=card)
        return link.hello(), link.call("log", **{"from": 0})["records"], link.call("state")["state"]


def test_a_board_holding_a_users_unsynced_game_is_refused_and_left_alone(headless_board, tmp_path):
    from croupier.link import connect

    hello, records, state = users_game(str(headless_board))
    user_db = tmp_path / "user.db"
    status, output = croupier("hil", "--port", str(headless_board), "-k", SAFETY_TESTS, "--db", str(user_db))
    assert status == 4, output[-3000:]
    assert output == ("croupier hil: the board on %s holds 4 journal records no database has acknowledged and an "
                      "unfinished lobo77 game of Uma, Ugo, Ulla, which the suite would abandon and acknowledge: run "
                      "`croupier sync --port %s` (and finish the game) first, or pass --force to save them into %s "
                      "before the tests\n" % (headless_board, headless_board, user_db)), output[-3000:]
    assert "_pytest" not in output, "one plain line, not pytest's exit banner"
    # pytest run directly with the plugin meets the same refusal, from the plugin's own check
    status, output = pytest_directly("--port", str(headless_board), "-k", SAFETY_TESTS, "--hil-db", str(user_db))
    assert status == 4 and "4 journal records no database has acknowledged" in output, output[-3000:]
    assert not user_db.exists(), "a refusal writes no database"
    with connect(str(headless_board)) as link:
        assert link.call("log", **{"from": 0})["records"] == records and link.call("state")["state"] == state, \
            "the refused run left the journal and the game as they were"
        assert link.hello()["acked"] == 0 and link.call("get_roster")["names"] == USER_ROSTER


def pytest_directly(*args):
    """pytest with the plugin and the packaged suite, without `croupier hil`; (exit status, output)."""
    from croupier.hil import PLUGIN, SUITE_DIR

    proc = subprocess.run([sys.executable, "-m", "pytest", str(SUITE_DIR), "-p", PLUGIN, "-p", "no:cacheprovider",
                           "-c", os.devnull, "--rootdir", str(SUITE_DIR), "-q", *args],
                          capture_output=True, text=True, timeout=SUITE_TIMEOUT, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_missing_port_and_a_file_that_is_no_port_are_said_in_one_line(tmp_path):
    status, output = croupier("hil", "--port", str(tmp_path / "ttyUSB9"))
    assert (status, output) == (3, "croupier hil: there is no serial port %s: is the board plugged in? "
                                   "(`croupier ports` lists the ports)\n" % (tmp_path / "ttyUSB9"))
    (tmp_path / "notes.txt").write_text("not a board")
    status, output = croupier("hil", "--port", str(tmp_path / "notes.txt"), "--force")
    assert status == 3 and output.startswith("croupier hil: %s is not a serial device (it is a file)"
                                             % (tmp_path / "notes.txt")) and "_pytest" not in output, output
    assert (tmp_path / "notes.txt").read_text() == "not a board"


def test_forced_the_suite_saves_the_users_game_first_and_puts_the_board_back(headless_board, tmp_path):
    from croupier.link import connect
    from croupier.store import Store

    hello, records, _ = users_game(str(headless_board))
    user_db = tmp_path / "user.db"
    status, output = croupier("hil", "--port", str(headless_board), "-k", SAFETY_TESTS, "--force", "--db", str(user_db))
    assert status == 0 and "result:      PASS (4 passed" in output, output[-6000:]
    assert "--force: saved 4 journal records no database has acknowledged and an unfinished lobo77 game" in output, \
        output[-3000:]
    assert "set the clock to the host's time" in output and "put the roster back (Uma, Ugo, Ulla, Uwe)" in output
    with Store(user_db) as store:
        assert store.records(hello["device"], hello["log_epoch"]) == records, "the user's records were saved first"

    with connect(str(headless_board)) as link:
        after = link.hello()
        assert after["acked"] == after["last_seq"] > hello["last_seq"], "the run acknowledged its own records"
        state = link.call("state")["state"]
        assert state is None or state["over"], "no test game is left in progress: %r" % state
        assert link.call("get_roster")["names"] == USER_ROSTER, "the roster is put back"
        link.call("new", game="basta", players=USER_PLAYERS)  # the user plays on: stamped with the host's time
        stamp = link.call("log", **{"from": after["last_seq"] + 1})["records"][0][1]
        assert abs(stamp - time.time()) < 120, "the board's clock is the host's again, not the suite's: %r" % stamp
    status, output = croupier("sync", "--port", str(headless_board), "--db", str(user_db))
    assert status == 0, output
    with Store(user_db) as store:
        players = sorted(tuple(p["name"] for p in g["final_state"]["players"]) for g in store.games())
    assert players == [tuple(USER_PLAYERS)] * 2, "only the user's two games are in the user's database: %r" % players
