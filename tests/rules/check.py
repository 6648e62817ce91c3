# Tiny test helpers that work on CPython and MicroPython alike (no pytest inside).
from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps

NAMES = ["A", "B", "C", "D", "E", "F", "G", "H"]


def raises(exc_type, fn, *args):
    """Call fn(*args), insist it raises exc_type, return the exception."""
    try:
        fn(*args)
    except exc_type as exc:
        return exc
    raise AssertionError("%s(%r) did not raise %s" % (getattr(fn, "__name__", fn), args,
                                                      exc_type.__name__))


def game(name, players=3, options=None):
    """A new game with players A, B, C, ... in seat order."""
    return new_game(name, NAMES[:players], options)


def play(g, cards):
    """Play the space-separated cards; return the effects of the last one."""
    effects = None
    for card in cards.split():
        effects = g.play(card)
    return effects


def fields(g, names):
    """The named state fields as a tuple: fields(g, "turn owed") == (1, 2)."""
    state = g.state()
    return tuple(state[name] for name in names.split())


def snapshot(g):
    """Everything observable about a game, as one string."""
    return dumps([g.state(), g.inputs, g.round_log(), g.can_undo(), g.can_redo()])


def retraces(g, history, steps):
    """steps undos walk back through history (state dumps after each input) exactly, and as
    many redos come back to the end."""
    for back in range(1, steps + 1):
        g.undo()
        assert dumps(g.state()) == history[-1 - back], "undo %d went astray" % back
    for forward in range(steps - 1, -1, -1):
        g.redo()
        assert dumps(g.state()) == history[-1 - forward], "redo went astray"


def illegal(g, card, words=""):
    """card must be refused with a reason containing words, leaving g exactly as it was."""
    before = snapshot(g)
    exc = raises(Illegal, g.play, card)
    assert words in exc.reason, "reason %r lacks %r" % (exc.reason, words)
    assert isinstance(exc, ValueError)
    assert snapshot(g) == before, "a refused %r changed the game" % card
    raises(Illegal, g.peek, card)
    assert snapshot(g) == before
    return exc


def fx(*pairs):
    """Effects list from (kind, seat) pairs: fx("doublet", 0, "swimming", 0)."""
    return [{"kind": pairs[i], "seat": pairs[i + 1]} for i in range(0, len(pairs), 2)]


def tokens(g):
    return [p["tokens"] for p in g.state()["players"]]


def penalties(g):
    return [p["penalties"] for p in g.state()["players"]]


def scores(g):
    return [p["score"] for p in g.state()["players"]]


def seats_out(g):
    return [seat for seat, p in enumerate(g.state()["players"]) if p["out"]]
