# croupier.rules.canon.dumps must equal CPython's
# json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True) on both interpreters.
# The expected texts below are what CPython's json module prints for these objects.
from croupier.rules.canon import dumps
from check import raises


def test_canon_scalars():
    assert dumps(None) == "null"
    assert dumps(True) == "true" and dumps(False) == "false"
    assert dumps(0) == "0" and dumps(-10) == "-10"
    assert dumps(12345678901234567890) == "12345678901234567890"
    assert dumps("") == '""' and dumps("Ann") == '"Ann"'


def test_canon_sorts_keys_and_has_no_spaces():
    obj = {"turn": 1, "players": [{"name": "B", "out": False}], "game": "basta", "a": {}}
    assert dumps(obj) == '{"a":{},"game":"basta","players":[{"name":"B","out":false}],"turn":1}'
    assert dumps({"b": 1, "B": 2, "a": 3, "_": 4, "aa": 5}) == '{"B":2,"_":4,"a":3,"aa":5,"b":1}'
    assert dumps([1, [2, []], (3, 4)]) == "[1,[2,[]],[3,4]]"


def test_canon_escapes_like_cpython_ensure_ascii():
    assert dumps('say "hi"\\') == '"say \\"hi\\"\\\\"'
    assert dumps("\b\f\n\r\t") == '"\\b\\f\\n\\r\\t"'
    assert dumps("\x00\x1f\x7f") == '"\\u0000\\u001f\\u007f"'
    assert dumps("Zo\u00e9 \u20ac") == '"Zo\\u00e9 \\u20ac"'
    assert dumps("\U0001f0a1") == '"\\ud83c\\udca1"'
    assert dumps({"\u00e9": "/"}) == '{"\\u00e9":"/"}'


def test_canon_refuses_what_json_would_not_round_trip():
    for bad in (1.5, b"x", {1: 2}, {"a": {None: 1}}, object()):
        raises(TypeError, dumps, bad)


def test_canon_dump_writes_the_same_text_in_pieces():
    from croupier.rules.canon import dump

    obj = {"players": [{"name": "Zo\u00e9 \"Z\"", "out": False}, {"name": "", "out": True}],
           "total": -5, "winners": [], "log": [[0, "2x", 22], (1, "rev", 22)], "x": {}}
    pieces = []
    dump(obj, pieces.append)
    assert len(pieces) > 20  # no piece holds the whole value
    assert "".join(pieces) == dumps(obj)
