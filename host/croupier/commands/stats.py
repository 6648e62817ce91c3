"""`croupier stats`: how the games go, per game type."""
from croupier.cli import add_db_option
from croupier.commands.common import none_found, open_store, print_table, reports_errors

HELP = "per game type: games played, finished, abandoned; cards and rounds per game"


def add_arguments(parser):
    add_db_option(parser)


@reports_errors
def run(args):
    from croupier.stats import by_game_type

    with open_store(args, readonly=True) as store:
        games = store.games()
    rows = by_game_type(games)
    if not rows:
        print(none_found("games", games, store.path))
        return 0
    print_table("Games by type (averages per finished game)",
                ["game", "played", "finished", "abandoned", "cards", "rounds"],
                [(r["game"], r["played"], r["over"], r["abandoned"], _average(r["cards"]), _average(r["rounds"]))
                 for r in rows])
    return 0


def _average(value):
    """An average to one decimal; "-" for none (no finished game of that type)."""
    return "-" if value is None else "%.1f" % value
