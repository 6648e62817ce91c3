"""`croupier standings`: per player results over finished games, per game kind in its own
measures, and head-to-head."""
from croupier.cli import add_db_option, game_name
from croupier.commands.common import none_found, open_store, print_table, reports_errors
from croupier.plural import count

HELP = "standings per player (games, wins, win rate; per game kind its own counts) and head-to-head"


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("--game", type=game_name, help="only this game type (lobo77, basta, maumau, factors, duo; maumau includes maumau_match, the games against the computer)")


def _period(games):
    """From when to when the games were played, as dates.show writes dates."""
    from croupier.dates import show

    first, last = games[0], games[-1]
    return "%s to %s" % (show(first["started_min"], first["started_max"]), show(last["ended_min"], last["ended_max"]))


def _rate(row):
    return "%.0f%%" % (100 * row["win_rate"])


def _cell(value):
    return "%.1f" % value if isinstance(value, float) else value


def print_standings(games):
    """Print the standings of finished `games` (oldest first): over all kinds when there are
    several, then one table per kind with its own measures, then head-to-head. Returns the
    rows over all games."""
    from croupier.scoring import MEASURES
    from croupier.stats import head_to_head, kinds, standings

    rows = standings(games)
    several = len(kinds(games)) > 1
    if several:
        print_table("Standings, %s: %s" % (count(len(games), "game"), _period(games)), ["player", "games", "wins", "win rate"],
                    [(r["name"], r["games"], r["wins"], _rate(r)) for r in rows])
    for kind in kinds(games):
        measures = MEASURES.get(kind, ())
        of_kind = [g for g in games if g["game"] == kind]
        print_table("%s, %s: %s" % (kind, count(len(of_kind), "game"), _period(of_kind)),
                    ["player", "games", "wins", "win rate"] + [title for _, title, _ in measures],
                    [(r["name"], r["games"], r["wins"], _rate(r)) + tuple(_cell(r[key]) for key, _, _ in measures)
                     for r in standings(of_kind, kind)])
    names = [r["name"] for r in rows]
    meetings = head_to_head(games)
    print_table("Head-to-head: games the row player won / games played together", ["player"] + names,
                [[a] + ["-" if a == b else "%d/%d" % tuple(reversed(meetings.get((a, b), (0, 0)))) for b in names]
                 for a in names])
    return rows


@reports_errors
def run(args):
    from croupier.stats import KIND_NAMES, finished

    with open_store(args, readonly=True) as store:
        every = store.games()
    games = finished(every, args.game)
    if not games:
        kind = KIND_NAMES[args.game] + " " if args.game else ""
        print(none_found("finished %sgames" % kind, every, store.path))
        return 0
    print_standings(games)
    return 0
