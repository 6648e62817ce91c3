"""`croupier hil` refuses options it cannot use, and says when -k selects no test."""
import subprocess
import sys


def croupier(*args):
    proc = subprocess.run([sys.executable, "-m", "croupier.cli", *args], capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_timeout_must_be_a_positive_number_of_seconds():
    for value in ("-1", "0", "nan", "soon"):
        status, output = croupier("hil", "--timeout", value)
        assert status == 2, output
        assert "argument --timeout: %r is not a number of seconds above 0" % value in output


def test_a_keyword_that_matches_no_test_says_so():
    status, output = croupier("hil", "-k", "no_such_test_anywhere")
    assert status != 0
    assert "croupier hil: no test matches -k 'no_such_test_anywhere'" in output


def test_the_run_shows_each_file_and_the_count_of_tests_done():
    status, output = croupier("hil", "-k", "without_crc or terminal_enter")
    assert status == 0, output
    progress = [line for line in output.splitlines() if line.split()[:1] and line.split()[0].endswith("test_protocol.py")]
    assert progress and progress[0].split()[1:] == ["..", "[2/2]"], output
