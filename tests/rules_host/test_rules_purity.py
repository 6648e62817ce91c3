# The rules engines and the words the box says are pure: they import nothing but the rules
# (no machine, asyncio, time, micropython...), so they run unchanged on the board, the
# virtual board and the host.
import ast

from rules_mp import FIRMWARE

RULES = FIRMWARE / "croupier" / "rules"


def absolute_imports(module):
    """The names of the modules the source file imports by absolute name."""
    names = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_rules_modules_import_only_croupier_rules():
    modules = sorted(RULES.glob("*.py"))
    assert {"__init__.py", "engine.py", "canon.py", "lobo77.py", "basta.py"} <= \
        {m.name for m in modules}
    for module in modules:
        bad = [n for n in absolute_imports(module) if not n.startswith("croupier.rules")]
        assert not bad, "%s imports %s" % (module.name, ", ".join(bad))


def test_words_imports_nothing():
    tree = ast.parse((FIRMWARE / "croupier" / "words.py").read_text())
    assert not [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
