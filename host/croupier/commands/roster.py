"""`croupier roster NAME...`: the player names the board offers when a game is set up."""
from croupier.cli import add_port_option
from croupier.commands.common import reports_errors

HELP = "push player names to the board"


def add_arguments(parser):
    add_port_option(parser)
    parser.add_argument("names", nargs="+", metavar="NAME", help="player names, in the order to offer them")


@reports_errors
def run(args):
    from croupier.link import connect

    with connect(args.port) as link:
        link.call("roster", names=args.names)
    print("roster on the board: %s" % ", ".join(args.names))
    return 0
