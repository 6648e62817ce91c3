"""`croupier sim` with no copy of pystone and no package index: one line, not a traceback."""
import os
import subprocess
import sys


def test_the_first_paced_sim_offline_says_why_in_one_line(tmp_path):
    env = dict(os.environ, CROUPIER_CACHE=str(tmp_path), PIP_CONFIG_FILE=os.devnull,
               PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_RETRIES="0")  # nothing listens there
    done = subprocess.run([sys.executable, "-m", "croupier.cli", "sim"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("croupier sim: a paced board runs pystone") and "--pace none" in done.stderr
