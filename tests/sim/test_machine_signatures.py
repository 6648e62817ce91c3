"""machine.py has the ESP32 port's names, constants and call forms: compared with the
micropython-esp32-stubs package (the documented ESP32 API) by reading both as Python."""
import ast
import importlib.metadata
from pathlib import Path

import pytest

from croupier.sim.toolchain import BOARD_SOURCES


def stub_path():
    try:
        files = importlib.metadata.files("micropython-esp32-stubs") or []
    except importlib.metadata.PackageNotFoundError:
        pytest.fail("micropython-esp32-stubs is not installed (host/pyproject.toml test extras)")
    return next(Path(f.locate()) for f in files if f.name == "machine.pyi")


def api(tree):
    """-> ({name: [FunctionDef, ...]}, {name: value}) for a module or class body, with
    classes as nested ({...}, {...}, base names)."""
    functions, constants, classes = {}, {}, {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = api(node) + ([b.id for b in node.bases if isinstance(b, ast.Name)],)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            value = node.value.args[0] if isinstance(node.value, ast.Call) and node.value.args else node.value
            if isinstance(target, ast.Name) and isinstance(value, ast.Constant):
                constants[target.id] = value.value
    return functions, constants, classes


def accepts(mine: ast.FunctionDef, stub: ast.FunctionDef):
    """Does every call the stub allows bind to mine? -> the first problem, or None."""
    s, m = stub.args, mine.args
    if s.vararg or s.kwarg:
        return None  # the stub leaves it open
    mine_positional = [a.arg for a in m.posonlyargs + m.args]
    stub_positional = s.posonlyargs + s.args
    if len(stub_positional) > len(mine_positional) and not m.vararg:
        return "takes fewer positional arguments than %s" % [a.arg for a in stub_positional]
    for i, a in enumerate(s.args):
        if i + len(s.posonlyargs) < len(mine_positional) and mine_positional[i + len(s.posonlyargs)] != a.arg:
            return "argument %d is %r, not %r" % (i, mine_positional[i + len(s.posonlyargs)], a.arg)
    by_name = {a.arg for a in m.args + m.kwonlyargs}
    for a in s.kwonlyargs:
        if a.arg not in by_name and not m.kwarg:
            return "no keyword %r" % a.arg
    return None


def test_machine_matches_the_esp32_stubs():
    stub_functions, stub_constants, stub_classes = api(ast.parse(stub_path().read_text()))
    functions, constants, classes = api(ast.parse((BOARD_SOURCES / "machine.py").read_text()))
    classes.update(api(ast.parse((BOARD_SOURCES / "_sim_i2s.py").read_text()))[2])  # machine.I2S
    problems = []

    def compare(where, mine, stubs):
        for name, defs in mine.items():
            if name.startswith("_") and name != "__init__":
                continue
            if name not in stubs:
                problems.append("%s%s is not in the ESP32 API" % (where, name))
                continue
            for stub in stubs[name]:
                problem = accepts(defs[0], stub)
                if problem:
                    problems.append("%s%s %s" % (where, name, problem))

    compare("machine.", functions, stub_functions)
    for name, value in constants.items():
        if not name.startswith("_") and stub_constants.get(name, value) != value:
            problems.append("machine.%s = %r, ESP32: %r" % (name, value, stub_constants[name]))
    for cls, (methods, values, _, bases) in classes.items():
        if cls not in stub_classes:
            problems.append("machine.%s is not in the ESP32 API" % cls)
            continue
        stub_methods = dict(stub_classes[cls][0])
        for base in stub_classes[cls][3]:
            stub_methods = dict(stub_classes.get(base, ({},))[0], **stub_methods)
        compare("machine.%s." % cls, methods, stub_methods)
        for name, value in values.items():
            if stub_classes[cls][1].get(name, value) != value:
                problems.append("machine.%s.%s = %r, ESP32: %r" % (cls, name, value, stub_classes[cls][1][name]))
    assert not problems, "\n".join(problems)
    assert {"Pin", "I2C", "SoftI2C", "PWM", "RTC", "I2S"} <= set(classes)
