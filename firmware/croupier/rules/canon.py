# Canonical JSON: byte for byte what CPython's
#   json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
# returns, written out by hand because MicroPython's json neither sorts keys nor escapes
# non-ASCII text. Every byte the firmware journals or sends goes through dump() or dumps().
# dump() hands the text to write() in small pieces, so a big value (a journal head holding a
# whole game) never needs one big string: on a small, fragmented heap that is what fails.

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


def _plain(text):
    """True when text goes out as it is: printable ASCII without quote or backslash.
    min/max run in C and intern single characters, so the check allocates nothing."""
    return " " <= min(text) and max(text) <= "~" and '"' not in text and "\\" not in text


def _string(text, write):
    write('"')
    if text and _plain(text):
        write(text)
    else:
        for ch in text:  # rare: names with accents, control characters
            write(ch if " " <= ch <= "~" and ch not in '"\\' else _escape(ch))
    write('"')


def dump(obj, write, between=None):
    """Write the canonical JSON of obj (None, bool, int, str, list/tuple, dict with str keys)
    as pieces: write(text) is called once per piece, and between() (when given) after each
    item of a list or dict, so a writer that gathers pieces can pass them on there.
    TypeError for anything else (some pieces may have been written by then)."""
    if obj is None:
        write("null")
    elif obj is True:
        write("true")
    elif obj is False:
        write("false")
    elif isinstance(obj, str):
        _string(obj, write)
    elif isinstance(obj, int):
        write(str(obj))
    elif isinstance(obj, (list, tuple)):
        sep = "["
        for item in obj:
            write(sep)
            dump(item, write, between)
            sep = ","
            if between is not None:
                between()
        write("[]" if sep == "[" else "]")
    elif isinstance(obj, dict):
        for key in obj:
            if not isinstance(key, str):
                raise TypeError("canonical JSON keys must be strings, not %r" % (key,))
        sep = "{"
        for key in sorted(obj):
            write(sep)
            _string(key, write)
            write(":")
            dump(obj[key], write, between)
            sep = ","
            if between is not None:
                between()
        write("{}" if sep == "{" else "}")
    else:
        raise TypeError("canonical JSON takes None, bool, int, str, list, dict; not %r" % (obj,))


def _ignore(text):
    pass


def check(obj):
    """TypeError unless obj can be written as canonical JSON; writes and keeps nothing."""
    dump(obj, _ignore)


def dumps(obj):
    """The canonical JSON text of obj, as one string (see dump)."""
    out = []
    dump(obj, out.append)
    return "".join(out)
