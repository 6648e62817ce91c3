"""The HIL suite never costs a user a game: it checks the board before its tests and puts the
board back after them.

Before: records no host has acknowledged (hello's `acked`) or an unfinished game make the run
stop, unless it is forced; then those records are first saved into the user's database with
`croupier sync`'s own code. The board's roster is read (`get_roster`) to be put back.
After: a test game left unfinished is ended, every record the run wrote is acknowledged (so
no later sync stores a test game anywhere), the clock is set to the host's time and the roster
is put back.
"""
import time

from croupier.link import DeviceError, LinkError
from croupier.plural import count

# A game that ends at its first card: what closes a test game left unfinished.
CLOSING_GAME = ("basta", ["Test A", "Test B"], {"limit": 1}, "51")


class Refused(LinkError):
    """The board holds what the suite could lose: nothing was changed."""


def unfinished(state):
    return state is not None and not state.get("over")


def describe(state):
    return "%s game of %s" % (state["game"], ", ".join(p["name"] for p in state["players"]))


def at_risk(link):
    """What the board holds that the suite could lose, in words ("" for nothing), and the
    unfinished game's state or None."""
    info = link.hello()
    state = link.call("state").get("state")
    unsynced = info["last_seq"] - info.get("acked", 0)
    game = state if unfinished(state) else None
    what = " and ".join(filter(None, [
        "%s no database has acknowledged" % count(unsynced, "journal record") if unsynced else "",
        "an unfinished %s" % describe(game) if game else ""]))
    return what, game


def refuse_if_at_risk(link, port, db_path):
    """Refused when the board holds what the suite could lose: the check of a run without --force."""
    what, _ = at_risk(link)
    if what:
        raise refusal(port, what, db_path)


def refusal(port, what, db_path):
    return Refused("the board on %s holds %s, which the suite would abandon and acknowledge: "
                   "run `croupier sync --port %s` (and finish the game) first, or pass --force "
                   "to save them into %s before the tests" % (port, what, port, db_path))


def read_roster(link):
    """The roster the board holds, or None when its firmware cannot say (no `get_roster`)."""
    try:
        return link.call("get_roster", retries=4)["names"]
    except DeviceError as exc:
        if exc.error == "unknown_cmd":
            return None
        raise


class Guard:
    """What the board held before the run, and the words said about it (`notes`)."""

    def __init__(self, port, db_path, force):
        self.port, self.db_path, self.force = port, db_path, force
        self.roster = None
        self.notes = []

    def before(self, link):
        """Refuse (Refused) or save what is at risk; then remember the roster."""
        what, game = at_risk(link)
        if what:
            if not self.force:
                raise refusal(self.port, what, self.db_path)
            self._save(link, what, game)
        self.roster = read_roster(link)
        if self.roster is None:
            self.notes.append("the firmware cannot report its roster (no get_roster): it is not put back")

    def _save(self, link, what, game):
        from croupier.store import Store
        from croupier.sync import sync

        with Store(self.db_path) as store:
            report = sync(link, store)
        if report.refused:
            raise Refused("the board on %s holds %s, but not all of it could be saved into %s (%s): "
                          "nothing was run" % (self.port, what, self.db_path, report.refused[0]))
        self.notes.append("--force: saved %s into %s first (%s added)%s"
                          % (what, self.db_path, count(report.added, "record"),
                             "; the game is kept there as it stood, the suite replaces it on the board" if game else ""))

    def after(self, link, first_seq):
        """Put the board back: end a test game left unfinished, acknowledge the run's records
        (seq >= first_seq), set the clock to the host's time, restore the roster."""
        done = []
        state = link.call("state").get("state")
        if unfinished(state):
            game, players, options, card = CLOSING_GAME
            link.call("new", game=game, players=players, options=options)
            link.call("play", card=card)
            done.append("ended the unfinished test %s" % describe(state))
        last = link.hello()["last_seq"]
        if last >= first_seq:
            link.call("ack", upto=last)
            done.append("acknowledged the run's %s (seq %d-%d), so no database stores them"
                        % (count(last - first_seq + 1, "record"), first_seq, last))
        link.call("clock", epoch=int(time.time()))
        done.append("set the clock to the host's time")
        if self.roster is not None:
            link.set_roster(self.roster)
            done.append("put the roster back (%s)" % (", ".join(self.roster) or "empty"))
        self.notes.append("after the tests: " + "; ".join(done))
