"""The command `croupier demo` suggests at its end works as printed, from where it ran."""
import os
import shlex
import subprocess
import sys


def run_demo(tmp_path, path):
    script = tmp_path / "venv" / "bin" / "croupier"  # as pip writes the entry point into .venv/bin
    script.parent.mkdir(parents=True)
    script.write_text("#!%s\nimport sys\nfrom croupier.cli import main\nsys.exit(main())\n" % sys.executable)
    script.chmod(0o755)
    env = dict(os.environ, PATH=os.pathsep.join(p for p in path(script.parent)))
    done = subprocess.run(["venv/bin/croupier", "demo", "--dir", "out"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1].partition("try: ")[2], env


def test_after_make_demo_the_hint_names_the_croupier_that_is_not_on_path(tmp_path):
    hint, env = run_demo(tmp_path, lambda bin_dir: os.environ["PATH"].split(os.pathsep))
    assert hint.startswith("venv/bin/croupier standings --db ")
    tried = subprocess.run(shlex.split(hint), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert tried.returncode == 0 and "Standings" in tried.stdout, tried.stderr


def test_with_croupier_on_path_the_hint_calls_it_bare(tmp_path):
    hint, _ = run_demo(tmp_path, lambda bin_dir: [str(bin_dir)] + os.environ["PATH"].split(os.pathsep))
    assert hint.startswith("croupier standings --db ")
