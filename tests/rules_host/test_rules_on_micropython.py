# Every tests/rules/test_*.py, unchanged, under the MicroPython unix port: the same tests
# that pytest runs on CPython must pass on the interpreter the board uses.
import ast
from pathlib import Path

import pytest

from rules_mp import RULES_TESTS, run_micropython

RUNNER = Path(__file__).with_name("mp_runner.py")
TEST_FILES = sorted(RULES_TESTS.glob("test_*.py"))


def functions_defined_in(path):
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


@pytest.mark.parametrize("path", TEST_FILES, ids=[p.stem for p in TEST_FILES])
def test_rules_file_passes_on_micropython(path, micropython):
    result = run_micropython(RUNNER, path.stem, timeout=60, binary=micropython)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines and lines[-1] == "DONE", \
        "runner crashed:\n" + result.stdout + result.stderr
    failed = [line.split()[1] for line in lines if line.startswith("FAIL ")]
    assert not failed, "failing on MicroPython: %s\n%s" % (", ".join(failed), result.stdout)
    passed = {line.split()[1] for line in lines if line.startswith("PASS ")}
    assert passed == functions_defined_in(path)

