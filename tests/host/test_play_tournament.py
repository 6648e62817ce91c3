"""`croupier play maumau --tournament`: computer players only, through the CLI."""
import json

import pytest

from croupier.cli import main
from croupier.maumau_tournament import merged, play_rounds, wilson


def tournament(capsys, *args):
    code = main(["play", "maumau", "--tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_counts_the_rounds_each_seat_went_out_first(capsys):
    code, out, err = tournament(capsys, "--rounds", "30", "--seed", "4", "--lineup", "4,1,2",
                                "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert sorted(result) == ["lineup", "points", "rounds", "won"]
    assert result["rounds"] == 30 and result["lineup"] == [4, 1, 2]
    assert sum(result["won"]) == 30 and all(w >= 0 for w in result["won"])
    assert len(result["points"]) == 3 and all(p <= 0 for p in result["points"])
    assert result["won"][0] > result["won"][1]  # strength 4 against random play


def test_the_same_seed_plays_the_same_tournament(capsys):
    runs = [tournament(capsys, "--rounds", "12", "--seed", str(seed), "--lineup", "2,2",
                       "--json")[1] for seed in (9, 9, 10)]
    assert runs[0] == runs[1]
    assert json.loads(runs[0])["points"] != json.loads(runs[2])["points"]


def test_slices_of_a_tournament_add_up_to_the_whole():
    whole = play_rounds([3, 2, 1], 9, seed=2)
    parts = merged([play_rounds([3, 2, 1], 4, seed=2), play_rounds([3, 2, 1], 5, seed=2, first=4)])
    assert parts == whole


def test_table_shows_rounds_won_with_a_95_percent_interval(capsys):
    code, out, _ = tournament(capsys, "--rounds", "20", "--seed", "1", "--lineup", "3,1")
    assert code == 0
    result = play_rounds([3, 1], 20, seed=1)
    for seat, won in enumerate(result["won"]):
        low, high = wilson(won, 20)
        row = [line for line in out.splitlines() if line.strip("│┃ ").startswith(str(seat))]
        assert row, out
        assert ("%.1f%% - %.1f%%" % (100 * low, 100 * high)) in row[0]
        assert (" %d " % won) in row[0]


@pytest.mark.parametrize("rounds, title", [("1", "Mau-Mau tournament: 1 round"), ("2", "Mau-Mau tournament: 2 rounds")])
def test_the_title_counts_the_rounds_in_words_that_agree(capsys, rounds, title):
    code, out, _ = tournament(capsys, "--rounds", rounds, "--seed", "1", "--lineup", "3,1")
    assert code == 0 and out.splitlines()[0] == title, out


def test_wilson_interval_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 20)
    assert low == 0 and high == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("args, words", [
    (["--lineup", "5"], "2 to 5 strengths"),
    (["--lineup", "5,1,1,1,1,1"], "2 to 5 strengths"),
    (["--lineup", "6,1"], "from 1 to 5"),
    (["--lineup", "a,b"], "like 5,1,1,1"),
    (["--rounds", "0"], "at least 1"),
    (["--seed", "-1"], "--seed"),
])
def test_bad_options_get_a_one_line_error(capsys, args, words):
    code, out, err = tournament(capsys, *args)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_tournament_on_a_terminal_shows_the_rounds_played(tmp_path):
    # stderr a terminal, stdout piped: the bar counts the rounds there, the output is the JSON alone
    import os
    import subprocess
    import sys

    controller, terminal = os.openpty()
    done = subprocess.Popen([sys.executable, "-m", "croupier.cli", "play", "maumau", "--tournament", "--rounds", "40",
                             "--lineup", "1,1", "--json"], stdout=subprocess.PIPE, stderr=terminal, text=True)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the process ended: the terminal is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    out = done.stdout.read()
    assert done.wait(timeout=60) == 0
    assert json.loads(out)["rounds"] == 40
    assert b"playing rounds" in shown and b"40/40" in shown, shown
