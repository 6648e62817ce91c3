"""Every device command end to end on the virtual board: real mpremote, pyserial and SQLite."""
import shutil
import time

from esp32_images import merged_image
from journal_records import BASTA, LOBO, device_records
from croupier.build import build_firmware, read_manifest
from croupier.cli import main
from croupier.commands.demo import play_through_link, script_game
from croupier.commands.screenshot import settled_screen
from croupier.deploy import Mpremote, deploy
from croupier.link import connect
from croupier.paths import firmware_dir
from croupier.store import Store

# Runs on the board: where the journal lives, for the tests that wipe or tamper with it.
JOURNAL = "import boards\nJ = boards.load().JOURNAL_DIR\n"


def booted(vboard):
    """Wait until the fresh board's firmware answers: mpremote hangs on a board still booting."""
    with connect(vboard.port):
        pass


def test_deploy_copies_only_changed_files_removes_stale_ones_and_verifies(vboard):
    booted(vboard)
    staging = build_firmware()
    manifest = read_manifest(staging)
    tops = {p.split("/")[0] for p in manifest}
    deploy(vboard.port, staging, manifest)  # the board now holds exactly this build
    board = Mpremote(vboard.port)
    board.run("exec", "f = open('main.py', 'a'); f.write('# older firmware\\n'); f.close()\n"
                      "f = open('croupier/stale.py', 'w'); f.write('x = 1\\n'); f.close()")
    report = deploy(vboard.port, staging, manifest)
    assert (report.copied, report.removed, report.unchanged) == (["main.py"], ["croupier/stale.py"], len(manifest) - 1)
    assert report.hello["proto"] == 2  # reset, and the firmware answers
    assert board.hashes(tops) == manifest
    again = deploy(vboard.port, staging, manifest)
    assert (again.copied, again.removed, again.unchanged) == ([], [], len(manifest))


def test_flash_command_twice_copies_nothing_the_second_time(voiced_board, capsys, tmp_path, monkeypatch):
    # flash builds the firmware tree: pin it, so an edit made meanwhile cannot count as a change
    snapshot = shutil.copytree(firmware_dir(), tmp_path / "firmware")
    monkeypatch.setattr("croupier.build.firmware_dir", lambda: snapshot)
    booted(voiced_board)  # its voices are the build's: flash copies firmware files, not ~500 KB of them
    assert main(["flash", "--port", voiced_board.port]) == 0
    capsys.readouterr()
    mark = voiced_board.mark()
    assert main(["flash", "--port", voiced_board.port]) == 0
    out = capsys.readouterr().out
    # the probe leaves the board at its raw REPL: mpremote's Ctrl-C never meets the firmware
    # starting again, which may take it in as it boots and lose it
    said = voiced_board.output(mark).partition(b"raw REPL; CTRL-B to exit")
    assert said[1] and b"KeyboardInterrupt" not in said[2], said
    assert "0 files copied, 0 stale removed" in out and "board answers: fw" in out
    assert "nothing to copy" in out and "0/0" not in out  # no bar counting nothing


def test_sync_stores_exactly_the_boards_records_once_then_acks(vboard, tmp_path, capsys):
    db = str(tmp_path / "games.sqlite3")
    with connect(vboard.port) as link:
        lobo = script_game("lobo77", LOBO, seed=1)
        play_through_link(link, "lobo77", LOBO, lobo)
        play_through_link(link, "basta", BASTA, script_game("basta", BASTA, seed=1)[:5])
        expected = device_records(link)
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    assert "%d records pulled, %d new, 2 games" % (len(expected), len(expected)) in capsys.readouterr().out
    with Store(db) as store:
        device, epoch = store.db.execute("SELECT device, log_epoch FROM devices").fetchone()
        assert store.records(device, epoch) == expected  # [boot, ms] included
        lobo_game, basta_game = store.games()
        assert (lobo_game["status"], basta_game["status"]) == ("over", "playing")
        assert sum(p["won"] for p in lobo_game["players"]) == 1
        assert len(lobo_game["timeline"]["points"]) == len(lobo) + 1

    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    out = capsys.readouterr().out
    assert "0 records pulled, 0 new" in out and "every record up to seq %d" % expected[-1][0] in out
    with connect(vboard.port) as link:
        link.call("play", card="3")
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    with Store(db) as store:
        newest = store.records(device, epoch)[-1]
        assert store.record_count() == len(expected) + 1
    assert newest[3:5] == ["play", "3"] and abs(newest[1] - time.time()) < 120  # the clock was set


def test_sync_skips_the_records_another_host_acknowledged(vboard, tmp_path, capsys):
    with connect(vboard.port) as link:
        play_through_link(link, "basta", BASTA, script_game("basta", BASTA, seed=2))
        link.call("ack", upto=link.hello()["last_seq"])  # stored elsewhere (or the HIL suite's own)
        acked = link.hello()["acked"]
        play_through_link(link, "lobo77", LOBO, ["9", "2"])
        expected = [r for r in device_records(link) if r[0] > acked]
    db = str(tmp_path / "games.sqlite3")
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    with Store(db) as store:
        device, epoch = store.db.execute("SELECT device, log_epoch FROM devices").fetchone()
        assert store.records(device, epoch) == expected, "only what no host acknowledged is stored"
        assert [g["game"] for g in store.games()] == ["lobo77"]


def test_a_wiped_board_is_a_new_journal_not_an_old_one(vboard, tmp_path, capsys):
    db = str(tmp_path / "games.sqlite3")
    with connect(vboard.port) as link:
        play_through_link(link, "lobo77", LOBO, script_game("lobo77", LOBO, seed=2))
        first_epoch = link.hello()["log_epoch"]
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    Mpremote(vboard.port).run("exec", JOURNAL + "import os\nfor f in os.listdir(J): os.remove(J + '/' + f)", "+", "reset")
    with connect(vboard.port) as link:
        assert link.hello()["log_epoch"] != first_epoch
        play_through_link(link, "lobo77", LOBO, ["9", "2"])
        second = device_records(link)
    assert second[0][0] == 1  # the same seqs as the first journal's start
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    assert "%d new" % len(second) in capsys.readouterr().out
    with Store(db) as store:
        assert len({(g["log_epoch"], g["game_id"]) for g in store.games()}) == 2


# Runs on the board: a journal as firmware before [boot, ms] wrote it, records of five elements.
OLD_JOURNAL = JOURNAL + """import os
from croupier.journal import write_sealed
for name in os.listdir(J + '/closed'):
    os.remove(J + '/closed/' + name)
for name in os.listdir(J):
    if name != 'closed':
        os.remove(J + '/' + name)
with open(J + '/00000001.log', 'wb') as f:
    write_sealed([1, None, 1, 'new', {'game': 'lobo77', 'players': ['Ana', 'Ben'], 'options': {}}], f.write)
    write_sealed([2, None, 1, 'play', '9'], f.write)
"""


def test_an_older_firmwares_journal_syncs_beside_new_records(vboard, tmp_path, capsys):
    db = str(tmp_path / "games.sqlite3")
    booted(vboard)
    Mpremote(vboard.port).run("exec", OLD_JOURNAL, "+", "reset")
    with connect(vboard.port) as link:
        assert link.call("play", card="5")["state"]["total"] == 14, "the old game resumed"
        on_board = device_records(link)
    assert [len(r) for r in on_board] == [5, 5, 6]
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    assert "3 records pulled, 3 new, 1 game updated" in capsys.readouterr().out
    with Store(db) as store:
        device, epoch = store.db.execute("SELECT device, log_epoch FROM devices").fetchone()
        assert store.records(device, epoch) == on_board
        assert store.games()[0]["final_state"]["total"] == 14


def test_records_that_do_not_replay_are_refused_and_not_stored(vboard, tmp_path, capsys):
    db = str(tmp_path / "games.sqlite3")
    with connect(vboard.port) as link:
        play_through_link(link, "lobo77", LOBO, script_game("lobo77", LOBO, seed=3))
        good = device_records(link)
    game_id = good[0][2]
    # a record the controller would never write: a card after the game ended
    Mpremote(vboard.port).run("exec", JOURNAL + "from croupier.journal import Journal\n"
                              "Journal(J).append(%d, 'play', '5')" % game_id, "+", "reset")
    for _ in range(2):  # refused again on the next sync: nothing is skipped
        assert main(["sync", "--port", vboard.port, "--db", db]) == 1
        out = capsys.readouterr().out
        assert "REFUSED game %d, record %d: record 'play' after the game ended" % (game_id, good[-1][0] + 1) in out
        with Store(db) as store:
            assert store.records(*store.db.execute("SELECT device, log_epoch FROM devices").fetchone()) == \
                good


def test_roster_screenshot_and_errors_on_the_board(vboard, tmp_path, capsys):
    from PIL import Image

    assert main(["roster", "--port", vboard.port, "Ana", "Ben", "Cleo"]) == 0
    assert "roster on the board: Ana, Ben, Cleo" in capsys.readouterr().out
    png = tmp_path / "screen.png"
    assert main(["screenshot", "--port", vboard.port, "--out", str(png), "--scale", "2"]) == 0
    with Image.open(png) as image:
        assert image.size == (256, 128)
        low, high = image.convert("L").getextrema()
        assert low < high  # something is drawn
    assert main(["roster", "--port", "sim", "Solo"]) == 0  # a fresh virtual board of its own
    assert "roster on the board: Solo" in capsys.readouterr().out
    assert main(["sync", "--port", "sim", "--db", str(tmp_path / "empty.sqlite3")]) == 0
    assert "0 records pulled, 0 new, 0 games updated" in capsys.readouterr().out
    assert main(["roster", "--port", vboard.port, "x" * 40]) == 1
    assert capsys.readouterr().err.startswith("croupier roster: each name ")  # one prefix, not two
    assert main(["sync", "--port", str(tmp_path / "no-such-port"), "--db", str(tmp_path / "d.sqlite3")]) == 1
    assert "there is no serial port %s" % (tmp_path / "no-such-port") in capsys.readouterr().err


def test_demo_plays_syncs_and_draws_on_a_fresh_virtual_board(tmp_path, capsys):
    assert main(["demo", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Standings" in out and "Head-to-head" in out
    for name in ("croupier.sqlite3", "final-screen.png", "standings.png", "lobo77-game.png"):
        assert str(tmp_path / name) in out and (tmp_path / name).stat().st_size > 0
    with Store(tmp_path / "croupier.sqlite3") as store:
        games = store.games()
    assert [(g["game"], g["status"]) for g in games] == [("lobo77", "over"), ("basta", "over")]
    assert main(["demo", "--dir", str(tmp_path)]) == 1  # never into an existing database
    assert "already holds a demo database" in capsys.readouterr().err


def test_flash_micropython_refuses_to_erase_unsynced_games(vboard, tmp_path, capsys):
    image = tmp_path / "micropython.bin"
    image.write_bytes(merged_image())  # a valid image: the refusal is about the games
    db = str(tmp_path / "games.sqlite3")
    with connect(vboard.port) as link:
        play_through_link(link, "lobo77", LOBO, ["9", "2"])
    assert main(["flash", "--port", vboard.port, "--db", db, "--micropython", str(image)]) == 1
    assert "holds 3 journal records not in %s: run `croupier sync` first" % db in capsys.readouterr().err
    assert main(["flash", "--port", vboard.port, "--db", db, "--micropython", str(tmp_path / "none.bin")]) == 1
    assert "cannot read the MicroPython image %s" % (tmp_path / "none.bin") in capsys.readouterr().err
    with connect(vboard.port) as link:  # refused before anything touched the board
        assert link.call("state")["state"]["total"] == 11
    assert main(["sync", "--port", vboard.port, "--db", db]) == 0
    capsys.readouterr()
    assert main(["flash", "--port", vboard.port, "--db", db, "--micropython", str(image)]) == 1
    out, err = capsys.readouterr()
    assert "nothing to lose: the Croupier firmware answers and every record is synced" in out, out + err
    assert "no ESP32 ROM bootloader answers on %s" % vboard.port in err, "a virtual board has no ROM: %s" % err


def players_of_a_game_set_up_by_keys(link):
    """Set up the default Lobo 77 on the keypad (no names typed): the seats' names."""
    settled_screen(link)  # past the splash: the game menu takes keys
    for key in "1 ok ok ok ok".split():
        link.call("key", key=key)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = link.call("state")["state"]
        if state is not None:
            return [p["name"] for p in state["players"]]
        time.sleep(0.1)
    raise AssertionError("no game was set up by the keys")


def test_roster_refuses_names_equal_but_for_case_and_can_be_cleared(vboard, capsys):
    assert main(["roster", "--port", vboard.port, "Ana", "Ben", "ana"]) == 1
    assert "'Ana' and 'ana' are the same name" in capsys.readouterr().err
    for wrong in ([], ["--clear", "Ana"]):
        assert main(["roster", "--port", vboard.port] + wrong) == 1
        assert "give the names to offer, or --clear" in capsys.readouterr().err
    assert main(["roster", "--port", vboard.port, "Ana", "Ben", "Cleo"]) == 0
    assert main(["roster", "--port", vboard.port, "--clear"]) == 0
    assert "roster on the board: (empty)" in capsys.readouterr().out
    with connect(vboard.port) as link:
        assert players_of_a_game_set_up_by_keys(link) == ["P1", "P2", "P3", "P4"]


def test_a_roster_of_sixteen_long_names_lands_whole(vboard, capsys):
    # too long for one request (about 360 bytes, a line holds 220): sent as roster + roster add
    names = ["Player%02d-abcdefg" % i for i in range(16)]
    # --no-voice: the names alone; spoken, these sixteen would be ~360 KB to copy, two minutes
    assert main(["roster", "--port", vboard.port, "--no-voice"] + names) == 0
    with connect(vboard.port) as link:
        assert link.call("get_roster")["names"] == names
