"""Read the pin constants of a firmware board module (firmware/boards/esp32.py) without
running it: the module imports `micropython`, which CPython does not have."""
import ast
from pathlib import Path

ESP32_BOARD = Path(__file__).resolve().parent.parent / "firmware" / "boards" / "esp32.py"


def constants(path=ESP32_BOARD):
    """{name: value} of the module-level `NAME = literal` and `NAME = const(literal)` lines.

    Lists become tuples so that a tuple and a list of the same pins compare equal.
    """
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _literal(node.value)
            if value is not _NOT_LITERAL:
                found[node.targets[0].id] = value
    return found


_NOT_LITERAL = object()


def _literal(node):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const" and len(node.args) == 1:
        node = node.args[0]
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return _NOT_LITERAL
    return tuple(value) if isinstance(value, list) else value


def mismatches(expected, path=ESP32_BOARD):
    """Lines describing each expected constant that the board module lacks or sets otherwise."""
    actual = constants(path)
    found = []
    for name, want in expected.items():
        if name not in actual:
            found.append("%s is missing (pins.json says %r)" % (name, want))
        elif actual[name] != want:
            found.append("%s = %r, but pins.json says %r" % (name, actual[name], want))
    return found
