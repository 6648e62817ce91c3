"""`croupier standings`: per player results over finished games, and head-to-head."""
from croupier.cli import add_db_option
from croupier.commands.common import open_store, print_table, reports_errors

HELP = "standings per player (games, wins, win rate, tokens, doublets, busts) and head-to-head"


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("--game", help="only this game type (lobo77, basta, ...; maumau includes maumau_match, "
                                           "the games against the computer)")


def print_standings(games):
    """Print the standings and head-to-head tables of finished `games`; returns the rows."""
    from croupier.stats import head_to_head, standings

    rows = standings(games)
    print_table("Standings", ["player", "games", "wins", "win rate", "tokens lost", "doublets", "busts", "eliminated"],
                [(r["name"], r["games"], r["wins"], "%.0f%%" % (100 * r["win_rate"]), r["tokens_lost"],
                  r["doublets"], r["busts"], r["eliminated"]) for r in rows])
    names = [r["name"] for r in rows]
    meetings = head_to_head(games)
    print_table("Head-to-head: games the row player won / games played together", ["player"] + names,
                [[a] + ["-" if a == b else "%d/%d" % tuple(reversed(meetings.get((a, b), (0, 0)))) for b in names]
                 for a in names])
    return rows


@reports_errors
def run(args):
    from croupier.stats import finished

    with open_store(args) as store:
        games = finished(store.games(), args.game)
    if not games:
        print("no finished games in %s yet (run `croupier sync`)" % store.path)
        return 0
    print_standings(games)
    return 0
