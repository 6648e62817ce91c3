"""`croupier roster NAME...`: the player names the board offers when a game is set up."""
from croupier.cli import add_port_option
from croupier.commands.common import connect_board, reports_errors

HELP = "push player names to the board (or clear them with --clear)"


def add_arguments(parser):
    add_port_option(parser)
    parser.add_argument("names", nargs="*", metavar="NAME", help="player names, in the order to offer them")
    parser.add_argument("--clear", action="store_true", help="remove every name from the board's roster")


def checked_names(names):
    """The names as given; ValueError when two are the same name in another case (the board
    would offer both, and a game refuses them together)."""
    seen = {}
    for name in names:
        key = name.strip().lower()  # as the rules compare player names
        if key in seen:
            raise ValueError("%r and %r are the same name: give each player one name" % (seen[key], name))
        seen[key] = name
    return names


@reports_errors
def run(args):

    if args.clear == bool(args.names):
        raise ValueError("give the names to offer, or --clear to remove them all")
    names = checked_names(args.names)
    with connect_board(args.port) as link:
        link.set_roster(names)
    print("roster on the board: %s" % (", ".join(names) if names else "(empty)"))
    return 0
