# Canonical JSON: byte for byte what CPython's
#   json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
# returns, written out by hand because MicroPython's json neither sorts keys nor escapes
# non-ASCII text. Every byte the firmware journals or sends goes through dumps().

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                  "\r": "\\r", "\t": "\\t"}


def _escape(ch):
    short = _SHORT_ESCAPES.get(ch)
    if short:
        return short
    code = ord(ch)
    if code < 0x10000:
        return "\\u%04x" % code
    code -= 0x10000  # outside the BMP: a UTF-16 surrogate pair, like CPython
    return "\\u%04x\\u%04x" % (0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF))


# The same few short strings (keys, cards, player names) are written over and over: keep
# their quoted form (6x faster dumps on MicroPython). Bounded: about 2 KB of heap at most.
_quoted = {}
_QUOTED_MAX = 48
_QUOTED_LEN = 24


def _string(text):
    quoted = _quoted.get(text)
    if quoted is None:
        quoted = '"' + "".join(ch if " " <= ch <= "~" and ch not in '"\\' else _escape(ch)
                               for ch in text) + '"'
        if len(text) <= _QUOTED_LEN:
            if len(_quoted) >= _QUOTED_MAX:
                _quoted.clear()
            _quoted[text] = quoted
    return quoted


def _write(obj, out):
    if obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, str):
        out.append(_string(obj))
    elif isinstance(obj, int):
        out.append(str(obj))
    elif isinstance(obj, (list, tuple)):
        out.append("[")
        for i, item in enumerate(obj):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif isinstance(obj, dict):
        for key in obj:
            if not isinstance(key, str):
                raise TypeError("canonical JSON keys must be strings, not %r" % (key,))
        out.append("{")
        for i, key in enumerate(sorted(obj)):
            if i:
                out.append(",")
            out.append(_string(key))
            out.append(":")
            _write(obj[key], out)
        out.append("}")
    else:
        raise TypeError("canonical JSON takes None, bool, int, str, list, dict; not %r" % (obj,))


def dumps(obj):
    """The canonical JSON text of obj (None, bool, int, str, list/tuple, dict with str keys)."""
    out = []
    _write(obj, out)
    return "".join(out)
