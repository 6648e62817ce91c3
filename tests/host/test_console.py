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
    assert out[:start] == ["lobo77 round 1 · total 0 · Bob to play · Ann tokens 3 · Bob tokens 3",
                           "lobo77 round 1 · total 9 · Ann to play · Ann tokens 3 · Bob tokens 3"]
    assert state["total"] == 9 and state["turn"] == 0  # the refused card changed nothing
    assert out[out.index("}") + 1:] == [
        "lobo77 round 1 · total 0 · Bob to play · Ann tokens 3 · Bob tokens 3",   # undo
        "lobo77 round 1 · total 9 · Ann to play · Ann tokens 3 · Bob tokens 3",   # redo
        "lobo77 round 1 · total 9 · Ann to play · Ann tokens 3 · Bob tokens 3",   # 5 typed, not entered
        "lobo77 round 1 · total 14 · Bob to play · Ann tokens 3 · Bob tokens 3",  # 5 ok
        "lobo77 round 1 · total 9 · Ann to play · Ann tokens 3 · Bob tokens 3",   # *
        "lobo77 round 1 · total 14 · Bob to play · Ann tokens 3 · Bob tokens 3",  # * held
        "doublet Bob",
        "lobo77 round 1 · total 22 · Ann to play · Ann tokens 3 · Bob tokens 2",
    ]
    errors = done.stderr.splitlines()
    assert len(errors) == 3 and all(line.startswith("error: ") for line in errors)
    assert "77x" in errors[0] and "illegal" in errors[0]
    assert "unknown command 'bogus'" in errors[1]
    assert errors[2] == "error: usage: key K [hold]"
    assert done.returncode == 1  # a line failed
    with connect(vboard.port) as link:
        assert link.call("state")["state"]["total"] == 22


def test_a_clean_script_exits_0_without_prompts(vboard):
    done = console(vboard.port, ["state", "help"])
    assert done.stdout.splitlines()[0] == "no game"
    assert done.stdout.splitlines()[1].startswith("commands: play CARD")
    assert "croupier>" not in done.stdout and done.stderr == ""
    assert done.returncode == 0
