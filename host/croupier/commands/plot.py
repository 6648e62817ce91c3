"""`croupier plot`: PNG charts of the standings or of one game."""
from croupier.cli import add_db_option
from croupier.commands.common import none_found, open_store, output_path, reports_errors

HELP = "draw PNG charts: `plot standings` or `plot game N` (N from `croupier games`)"
DEFAULT_OUT = {"standings": "croupier-standings.png", "game": "croupier-game-%d.png"}  # game: its number


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("chart", choices=("standings", "game"))
    parser.add_argument("game", nargs="?", help="for `game`: its number or id in `croupier games` (default: the latest)")
    parser.add_argument("--out", metavar="FILE.png",
                        help="where to write the chart (default: %s, %s)"
                             % (DEFAULT_OUT["standings"], DEFAULT_OUT["game"].replace("%d", "N")))


@reports_errors
def run(args):
    from croupier import plots
    from croupier.stats import finished, standings

    if args.chart == "standings" and args.game is not None:
        raise ValueError("`plot standings` takes no game (%r): the standings cover every finished game" % args.game)
    out = args.out and output_path(args.out, ".png")  # a bad --out is refused before the database is read
    with open_store(args, readonly=True) as store:
        games = store.games()
        if args.chart == "standings":
            rows = standings(finished(games))
            if not rows:
                raise ValueError(none_found("finished games to chart", games, store.path))
            path = out or output_path(DEFAULT_OUT["standings"], ".png")
            plots.standings_chart(rows, path)
        else:
            if not games:
                raise ValueError(none_found("games", games, store.path))
            game = store.find_game(args.game, games) if args.game else games[-1]
            number = games.index(game) + 1
            path = out or output_path(DEFAULT_OUT["game"] % number, ".png")
            plots.game_chart(game, path, number=number)
    print("chart written to %s" % path)
    return 0
