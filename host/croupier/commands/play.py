"""`croupier play maumau`: Mau-Mau against the computer in the terminal, or with
--tournament a headless match between computer players only."""
import json

from croupier.cli import add_db_option
from croupier.plural import count
from croupier.rules.maumau_bots import STRENGTHS

HELP = "play Mau-Mau against the computer (or --tournament: computer players only)"
GAMES = ("maumau",)


def lineup(text):
    """--lineup "5,1,1,1": each seat's strength, 2 to 5 seats."""
    try:
        strengths = [int(part) for part in text.split(",")]
    except ValueError:
        strengths = []
    if not 2 <= len(strengths) <= 5 or any(s not in STRENGTHS for s in strengths):
        raise ValueError("--lineup lists 2 to 5 strengths from 1 to 5, like 5,1,1,1")
    return strengths


def add_arguments(parser):
    parser.add_argument("game", choices=GAMES, help="the game to play")
    parser.add_argument("--tournament", action="store_true",
                        help="computer players only, no screen: print the rounds won per seat")
    parser.add_argument("--rounds", type=int, default=100, metavar="N",
                        help="rounds in the tournament (default 100)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="the seed: the same seed plays the same tournament rounds (default 0), "
                             "or deals the same cards on screen (default: a random one)")
    parser.add_argument("--lineup", default="5,1,1,1", metavar="STRENGTHS",
                        help="each seat's strength, 1-5, comma-separated (default 5,1,1,1)")
    parser.add_argument("--json", action="store_true",
                        help="print {rounds, lineup, won, points} as JSON")
    parser.add_argument("--name", default="You", help="your name at the table (default You)")
    parser.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause between two computer moves on screen (default 0.6)")
    parser.add_argument("--limit", type=int, default=-100, metavar="POINTS",
                        help="on screen: a player whose score reaches this is out (default -100)")
    add_db_option(parser)  # where the games on screen are saved


def run(args):
    import sys

    if not args.tournament:
        from croupier.play.app import run as play_on_screen  # Textual: loaded only here

        return play_on_screen(args)
    if args.seed is None:
        args.seed = 0
    try:
        strengths = lineup(args.lineup)
        if args.rounds < 1:
            raise ValueError("--rounds must be at least 1")
        if not 0 <= args.seed < 2 ** 32:
            raise ValueError("--seed goes from 0 to %d" % (2 ** 32 - 1))
    except ValueError as exc:
        print("croupier play: %s" % exc, file=sys.stderr)
        return 2
    from croupier.maumau_tournament import play_rounds

    with rounds_progress(args.rounds) as progress:
        result = play_rounds(strengths, args.rounds, args.seed, progress=progress)
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


def rounds_progress(rounds):
    """A bar of the rounds played, on stderr when that is a terminal (a long tournament is
    not silent); piped or redirected, nothing but the result."""
    import contextlib
    import sys

    from croupier.commands.common import progress_bar

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    return progress_bar("playing rounds", total=rounds, stderr=True)


def report(result):
    from croupier.commands.common import print_table
    from croupier.maumau_tournament import wilson

    rows = []
    for seat, (strength, won, points) in enumerate(zip(result["lineup"], result["won"],
                                                       result["points"])):
        low, high = wilson(won, result["rounds"])
        rows.append((seat, strength, won, "%.1f%%" % (100.0 * won / result["rounds"]),
                     "%.1f%% - %.1f%%" % (100 * low, 100 * high), points))
    print_table("Mau-Mau tournament: %s" % count(result["rounds"], "round"),
                ["seat", "strength", "won", "share", "95% interval", "points"], rows)
