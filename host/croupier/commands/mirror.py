"""`croupier mirror`: the box's screen and keypad in the terminal, for a board on a serial port."""
from croupier.cli import add_port_option
from croupier.commands.common import connect_board, reports_errors

HELP = "show a board's live screen in the terminal and send it keys (the terminal UI over the protocol)"


def add_arguments(parser):
    add_port_option(parser)


@reports_errors
def run(args):
    from croupier.sim.board import load_pins
    from croupier.tui.mirror import MirrorApp

    labels = load_pins()["keypad"]["labels"]
    with connect_board(args.port) as link:
        info = link.info
        where = "board %s %s on %s, firmware %s" % (info["board"], info["device"], link.port.name, info["fw"])
        MirrorApp(link, labels, where).run()
    return 0
