"""`croupier console` with piped stdin against a virtual board running the firmware."""
import json
import subprocess
import sys

from croupier.link import connect


def console(port, lines):
    return subprocess.run([sys.executable, "-m", "croupier.cli", "console", "--port", port],
                          input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120)


def test_a_piped_script_plays_undoes_redoes_keys_and_reports_bad_lines(vboard):
    done = console(vboard.port, [
        "new lobo77 Ann Bob",
        "play 9",
        "play 77x",       # no such card: refused, nothing changes
        "state",
        "undo",
        "redo",
        "key 5", "key #",  # a card keyed as on the box
        "key *",           # undo
        "key * hold",      # the long press: redo
        "play 8",          # 22: a doublet
        "bogus",
        "key 5 twice",
        "",
    ])
    out = done.stdout.splitlines()
    start = out.index("{")
    state = json.loads("\n".join(out[start:out.index("}") + 1]))
    assert out[:start] == ["lobo77 round 1 · total 0 · Bob to play · clockwise · Ann tokens 3 · Bob tokens 3",
                           "lobo77 round 1 · total 9 · Ann to play · clockwise · Ann tokens 3 · Bob tokens 3"]
    assert state["total"] == 9 and state["turn"] == 0  # the refused card changed nothing
    assert out[out.index("}") + 1:] == [
        "lobo77 round 1 · total 0 · Bob to play · clockwise · Ann tokens 3 · Bob tokens 3",   # undo
        "lobo77 round 1 · total 9 · Ann to play · clockwise · Ann tokens 3 · Bob tokens 3",   # redo
        "lobo77 round 1 · total 9 · Ann to play · clockwise · Ann tokens 3 · Bob tokens 3",   # 5 typed, not entered
        "lobo77 round 1 · total 14 · Bob to play · clockwise · Ann tokens 3 · Bob tokens 3",  # 5 ok
        "lobo77 round 1 · total 9 · Ann to play · clockwise · Ann tokens 3 · Bob tokens 3",   # *
        "lobo77 round 1 · total 14 · Bob to play · clockwise · Ann tokens 3 · Bob tokens 3",  # * held
        "doublet Bob",
        "lobo77 round 1 · total 22 · Ann to play · clockwise · Ann tokens 3 · Bob tokens 2",
    ]
    errors = done.stderr.splitlines()
    assert [line.split(":")[:2] for line in errors] == [["error", " line 3"], ["error", " line 12"], ["error", " line 13"]]
    assert "77x" in errors[0] and "illegal" in errors[0]
    assert "unknown command 'bogus'" in errors[1]
    assert errors[2] == "error: line 13: usage: key K [hold]"
    assert done.returncode == 1  # a line failed
    with connect(vboard.port) as link:
        assert link.call("state")["state"]["total"] == 22


def test_a_clean_script_exits_0_without_prompts(vboard):
    done = console(vboard.port, ["state", "help"])
    assert done.stdout.splitlines()[0] == "no game"
    assert done.stdout.splitlines()[1].startswith("commands: play CARD")
    assert "croupier>" not in done.stdout and done.stderr == ""
    assert done.returncode == 0


def test_the_state_line_says_what_is_owed_and_which_way_play_goes(vboard):
    done = console(vboard.port, [
        "new lobo77 Ann Bob Cy",
        "play 2x",      # Cy owes two cards
        "play 5",       # ... then one more
        "undo", "redo",
        "play rev",     # Cy's second card turns the direction: Bob is next
        "new maumau Ann Bob Cy",
        "play 7", "play 7",  # stacked: Cy draws 4 or answers with a 7
        "play draw",
        "play J:h",
    ])
    assert done.stderr == "" and done.returncode == 0
    turns = [line.split(" · ")[2:4] if " total " in line else line.split(" · ")[1:3]
             for line in done.stdout.splitlines()]
    assert turns == [
        ["Bob to play", "clockwise"],
        ["Cy to play 2 cards", "clockwise"],
        ["Cy to play one more card", "clockwise"],
        ["Cy to play 2 cards", "clockwise"],
        ["Cy to play one more card", "clockwise"],
        ["Bob to play", "counter-clockwise"],
        ["Ann to play", "clockwise"],
        ["Bob to play a 7 or draw 2", "clockwise"],
        ["Cy to play a 7 or draw 4", "clockwise"],
        ["Ann to play", "clockwise"],
        ["Bob to play", "clockwise"],
    ]
    assert done.stdout.splitlines()[-1].split(" · ")[3] == "jack wished \u2665"


def test_new_names_only_the_boxs_games(vboard):
    done = console(vboard.port, ["new maumau_match Ann Bob", "new poker Ann Bob", "state"])
    games = "games: basta, duo, factors, lobo77, maumau"
    assert done.stderr.splitlines() == ["error: line 1: unknown game maumau_match; %s (bad_args)" % games,
                                        "error: line 2: unknown game poker; %s (bad_args)" % games]
    assert done.stdout == "no game\n" and done.returncode == 1
