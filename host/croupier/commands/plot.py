"""`croupier plot`: PNG charts of the standings or of one game."""
from croupier.cli import add_db_option
from croupier.commands.common import open_store, reports_errors

HELP = "draw PNG charts: `plot standings` or `plot game N` (N from `croupier games`)"


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("chart", choices=("standings", "game"))
    parser.add_argument("game", nargs="?", help="for `game`: its number or id in `croupier games` (default: the latest)")
    parser.add_argument("--out", metavar="FILE.png", help="where to write the chart (default: croupier-CHART.png)")


@reports_errors
def run(args):
    from croupier import plots
    from croupier.stats import finished, standings

    with open_store(args) as store:
        if args.chart == "standings":
            path = plots.standings_chart(standings(finished(store.games())), args.out or "croupier-standings.png")
        else:
            games = store.games()
            if not games:
                raise ValueError("no games in %s yet (run `croupier sync`)" % store.path)
            game = store.find_game(args.game, games) if args.game else games[-1]
            path = plots.game_chart(game, args.out or "croupier-game.png", number=games.index(game) + 1)
    print("chart written to %s" % path)
    return 0
