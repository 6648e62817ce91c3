"""What a board's journal and output say after keys were pressed on it: the records a host
reads, the game they rebuild, and the firmware's crash report. Shared by test_mash.py and
the key-mashing bench (tests/bench/bench_mash.py)."""
from croupier.rules import new_game


def replay_journal(records):
    """The game a host rebuilds from the device's journal records (None: no game open)."""
    game = None
    for kind, data in (r[3:5] for r in records):
        if kind == "new":
            game = new_game(data["game"], data["players"], data["options"])
        elif kind in ("end", "abandon"):
            game = None
        elif kind == "play":
            game.play(data)
        elif kind in ("undo", "redo"):
            getattr(game, kind)()
    return game


def read_journal(link, since=0):
    """Every journal record after seq `since`, page by page, as the host's sync reads them."""
    records = []
    while True:
        page = link.ok("log", **{"from": records[-1][0] + 1 if records else since + 1})
        records += page["records"]
        if not page["records"] or records[-1][0] >= page["last_seq"]:
            return records


def crash_report(vb, chars=800):
    """The board's output from its first traceback or crash screen on (text), None without one."""
    output = vb.output()
    found = [at for at in (output.find(b"Traceback"), output.find(b"CRASH")) if at >= 0]
    return output[min(found):min(found) + chars].decode(errors="replace") if found else None


def journal_matches_state(link):
    """Whether the game the journal rebuilds is the one the device holds (none, or over,
    when the journal has no open game)."""
    state = link.ok("state")["state"]
    replayed = replay_journal(read_journal(link))
    if replayed is None:
        return state is None or state["over"]
    return replayed.state() == state
