# The rules engines are pure: they import nothing but each other (no machine, asyncio, time,
# micropython...), so they run unchanged on the board, the virtual board and the host.
import ast

from rules_mp import FIRMWARE

RULES = FIRMWARE / "croupier" / "rules"


def test_rules_modules_import_only_croupier_rules():
    modules = sorted(RULES.glob("*.py"))
    assert {"__init__.py", "engine.py", "canon.py", "lobo77.py", "basta.py"} <= \
        {m.name for m in modules}
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            else:
                continue
            bad = [n for n in names if not n.startswith("croupier.rules")]
            assert not bad, "%s imports %s" % (module.name, ", ".join(bad))
