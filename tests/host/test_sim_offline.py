"""A paced virtual board with no copy of pystone and no package index: one line, not a traceback."""
import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", [["sim"], ["hil", "--pace", "esp32"]])
def test_the_first_paced_board_offline_says_why_in_one_line(tmp_path, command):
    env = dict(os.environ, CROUPIER_CACHE=str(tmp_path), PIP_CONFIG_FILE=os.devnull,
               PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_RETRIES="0")  # nothing listens there
    done = subprocess.run([sys.executable, "-m", "croupier.cli"] + command, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("croupier %s: a paced board runs pystone" % command[0]) and "--pace none" in done.stderr
