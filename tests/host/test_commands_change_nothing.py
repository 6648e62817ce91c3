"""Commands that must change nothing: the read-only ones never create or alter a file, a
sync that cannot reach its board creates no database, and bad arguments are refused before
anything is touched."""
import hashlib
import os
import sqlite3
import subprocess
import sys

import pytest

from journal_records import fill_database
from croupier.cli import main

READ_ONLY = (["standings"], ["games"], ["stats"], ["export"], ["export", "--format", "json"],
             ["plot", "standings"], ["plot", "game"])


def folder_state(folder):
    """{relative path: (size, mtime_ns, sha256)} of every file under folder."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            st = os.stat(path)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = (st.st_size, st.st_mtime_ns, hashlib.sha256(f.read()).hexdigest())
    return out


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_a_mistyped_db_path_creates_nothing(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # where plot would write its chart
    typo = tmp_path / "no-such-folder" / "games.sqlite3"
    assert main(command + ["--db", str(typo)]) == 1
    assert "no database at %s" % typo in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_another_programs_sqlite_file_is_refused_untouched(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        con.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    con.close()
    before = folder_state(tmp_path)
    assert main(command + ["--db", str(other)]) == 1
    assert "%s is not a Croupier database (its tables are notes)" % other in capsys.readouterr().err
    assert folder_state(tmp_path) == before


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_reading_a_croupier_database_changes_no_byte_of_it(command, db, tmp_path, capsys):
    folder = os.path.dirname(db)
    os.chmod(db, 0o444)  # a read-write open would fail here: the commands open read-only
    out = tmp_path / "out"
    out.mkdir()
    before = folder_state(folder)
    extra = ["--out", str(out / "x")] if command[0] in ("plot", "export") else []
    assert main(command + ["--db", db] + extra) == 0, capsys.readouterr().err
    after = folder_state(folder)
    assert {k: v for k, v in after.items() if not k.startswith("out")} == before
    assert not any(name.endswith(("-journal", "-wal", "-shm")) for name in after)


def test_a_sync_whose_port_fails_creates_no_database(tmp_path, capsys):
    db = tmp_path / "new" / "games.sqlite3"
    assert main(["sync", "--port", str(tmp_path / "no-such-port"), "--db", str(db)]) == 1
    assert "there is no serial port %s" % (tmp_path / "no-such-port") in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


PORT_COMMANDS = (["sync"], ["roster", "Ana"], ["screenshot"], ["console"], ["mirror"], ["voice", "--default"])


@pytest.mark.parametrize("command", PORT_COMMANDS, ids=" ".join)
def test_every_command_that_opens_a_port_names_a_missing_port_and_one_that_is_none(command, tmp_path,
                                                                                  monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # where screenshot would write its picture
    missing = tmp_path / "ttyUSB9"
    assert main([command[0], "--port", str(missing)] + command[1:]) == 1
    assert capsys.readouterr().err.strip() == ("croupier %s: there is no serial port %s: is the board plugged in? "
                                               "(`croupier ports` lists the ports)" % (command[0], missing))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a board")
    before = folder_state(tmp_path)
    assert main([command[0], "--port", str(notes)] + command[1:]) == 1
    assert capsys.readouterr().err.strip() == ("croupier %s: %s is not a serial device (it is a file): pass the "
                                               "board's port, e.g. /dev/ttyUSB0 (`croupier ports` lists them)"
                                               % (command[0], notes))
    assert main([command[0], "--port", os.devnull] + command[1:]) == 1
    assert capsys.readouterr().err == ("croupier %s: %s is not a serial device (it is no terminal): pass the "
                                       "board's port, e.g. /dev/ttyUSB0 (`croupier ports` lists them)\n"
                                       % (command[0], os.devnull))
    assert folder_state(tmp_path) == before, "nothing is created, the file is left as it was"


@pytest.mark.parametrize("option", ["--link", "--flash"])
def test_a_virtual_boards_link_or_image_in_a_missing_folder_is_one_line(option, tmp_path, capsys):
    where = tmp_path / "no-such-folder" / "board"
    assert main(["sim", "--headless", option, str(where)]) == 2
    assert capsys.readouterr().err == "croupier sim: no folder %s to write board in (create it first)\n" % where.parent
    assert os.listdir(tmp_path) == []


def test_a_sync_refuses_another_programs_database(tmp_path, capsys):
    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    con.close()
    before = folder_state(tmp_path)
    assert main(["sync", "--port", "sim", "--db", str(other)]) == 1
    assert "is not a Croupier database" in capsys.readouterr().err
    assert folder_state(tmp_path) == before


def test_game_names_are_case_insensitive_and_unknown_ones_list_the_games(db, capsys):
    assert main(["standings", "--db", db, "--game", "BASTA"]) == 0
    out = capsys.readouterr().out
    assert "Cleo" in out and "Dev" not in out  # Dev played no BASTA
    with pytest.raises(SystemExit) as exit_:
        main(["standings", "--db", db, "--game", "poker"])
    assert exit_.value.code == 2
    assert "unknown game poker; games: basta, duo, factors, lobo77, maumau" in capsys.readouterr().err


# -- output paths ------------------------------------------------------------------------------

OUTPUTS = (["plot", "standings"], ["export"], ["screenshot", "--port", "/dev/no-such-board"])


@pytest.mark.parametrize("command", OUTPUTS, ids=" ".join)
def test_an_output_in_a_missing_folder_is_refused_the_same_way_everywhere(command, db, tmp_path, capsys):
    missing = tmp_path / "no-such-folder"
    name = "x.csv" if command[0] == "export" else "x.png"
    db_arg = [] if command[0] == "screenshot" else ["--db", db]
    assert main(command + db_arg + ["--out", str(missing / name)]) == 1
    assert capsys.readouterr().err.endswith("no folder %s to write %s in (create it first)\n" % (missing, name))
    assert not missing.exists()


def test_plot_writes_png_names_and_reports_the_file_it_wrote(db, tmp_path, capsys):
    assert main(["plot", "standings", "--db", db, "--out", str(tmp_path / "chart")]) == 0
    assert capsys.readouterr().out == "chart written to %s\n" % (tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes().startswith(b"\x89PNG")
    assert not (tmp_path / "chart").exists()
    assert main(["plot", "standings", "--db", db, "--out", str(tmp_path / "chart.jpg")]) == 1
    assert "this writes a PNG file: give it a .png name" in capsys.readouterr().err
    assert main(["plot", "standings", "--db", db, "--out", str(tmp_path)]) == 1
    assert "is a folder" in capsys.readouterr().err


def test_extra_arguments_are_refused(db, tmp_path, capsys):
    assert main(["plot", "standings", "3", "--db", db, "--out", str(tmp_path / "s.png")]) == 1
    assert "`plot standings` takes no game ('3')" in capsys.readouterr().err
    assert not (tmp_path / "s.png").exists()
    for command in (["export", "--db", db, "more"], ["screenshot", "--port", "sim", "more"]):
        with pytest.raises(SystemExit) as exit_:
            main(command)
        assert exit_.value.code == 2
        assert "unrecognized arguments: more" in capsys.readouterr().err


@pytest.mark.parametrize("command, default", [(["plot"], "croupier-standings.png, croupier-game-N.png"),
                                              (["screenshot"], "croupier-screen.png")])
def test_help_names_the_default_output_file(command, default, capsys):
    with pytest.raises(SystemExit):
        main(command + ["--help"])
    assert "(default: %s)" % default in " ".join(capsys.readouterr().out.split())


def test_export_into_a_pipe_closed_early_ends_quietly(tmp_path):
    db = fill_database(tmp_path / "big.sqlite3", games=20)  # far more than a pipe buffers
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "export", "--format", "json", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout.read(100).startswith(b"{")  # `| head -c 100`
    proc.stdout.close()
    assert proc.stderr.read() == b""
    assert proc.wait(timeout=60) == 141  # as a tool ended by SIGPIPE
