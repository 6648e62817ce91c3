"""`croupier roster NAME...`: the player names the board offers when a game is set up, and
the names spoken, which the box says for whose turn it is and who won."""
from contextlib import ExitStack

from croupier.cli import add_port_option
from croupier.commands.common import board_port, connect_board, copy_progress, reports_errors
from croupier.voice import LANGUAGES

HELP = "push player names to the board and their spoken names (or clear them with --clear)"


def add_arguments(parser):
    add_port_option(parser)
    parser.add_argument("names", nargs="*", metavar="NAME", help="player names, in the order to offer them")
    parser.add_argument("--clear", action="store_true", help="remove every name from the board's roster")
    parser.add_argument("--lang", choices=LANGUAGES, default="fr",
                        help="the voice that says the names (default: fr, as the box's default voice)")
    parser.add_argument("--no-voice", action="store_true",
                        help="push the names only: leave the spoken names on the board as they are")


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


def push_roster(port, names, again=False):
    """Set the board's roster over the link; `again` once the copy restarted the firmware: its
    warnings were said the first time."""
    from croupier.link import connect

    with (connect(port) if again else connect_board(port)) as link:
        link.set_roster(names)


@reports_errors
def run(args):
    from croupier.plural import count
    from croupier.port_registry import hold

    if args.clear == bool(args.names):
        raise ValueError("give the names to offer, or --clear to remove them all")
    names = checked_names(args.names)
    spoken = None
    if not args.no_voice:
        from croupier.voice.defaults import names_bank

        spoken = names_bank(names, args.lang)  # rendered before the board is touched
    with board_port(args.port) as port, hold(port):
        push_roster(port, names)  # the board checks the names first: a refused one changes nothing
        if spoken is not None:
            from croupier.voice.board import NAMES, put

            # The copy restarts the firmware (games are kept, as through any reset), and the
            # roster lives in its memory: it is pushed again once the firmware answers.
            if names:
                print("/%s: %s spoken in the %s voice, %d KB" % (NAMES, count(len(names), "name"), args.lang,
                                                                  (len(spoken) + 1023) // 1024))
            else:
                print("/%s: no names" % NAMES)
            with ExitStack() as bar:
                put(port, {NAMES: spoken}, copy_progress(bar, "copying the spoken names", "the board has them"))
            push_roster(port, names, again=True)
    print("roster on the board: %s" % (", ".join(names) if names else "(empty)"))
    return 0
