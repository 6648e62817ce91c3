"""The wheel's unix port runs in the Python its `micropython` script names (MICROPYTHON may
name another environment's, of another MicroPython release), through the ESP32-Ctrl-C launcher."""
import sys

import pytest

from croupier.sim import toolchain


@pytest.mark.parametrize("folder, shebang", [
    ("env", "#!{python}\n"),
    ("an env", "#!/bin/sh\n'''exec' \"{python}\" \"$0\" \"$@\"\n' '''\n"),  # pip's form for a path with a space
], ids=["shebang", "sh-exec"])
def test_a_board_runs_the_python_its_micropython_script_names(make_board, tmp_path, monkeypatch, folder, shebang):
    env = tmp_path / folder
    env.mkdir()
    started = tmp_path / "started"
    python = env / "python"
    python.write_text('#!/bin/sh\necho "$@" >> "%s"\nexec "%s" "$@"\n' % (started, sys.executable))
    python.chmod(0o755)
    script = env / "micropython"
    script.write_text(shebang.format(python=python) + "import sys\nfrom micropython_unix import main\n"
                      "sys.exit(main())\n")
    script.chmod(0o755)
    monkeypatch.setenv("MICROPYTHON", str(script))
    make_board()  # booted
    assert any(line.startswith(str(toolchain.UNIXPORT)) and line.endswith(" -m _sim_boot")
               for line in started.read_text().splitlines()), started.read_text()
