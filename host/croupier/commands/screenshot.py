"""`croupier screenshot`: a PNG of what the board's OLED shows, read over the protocol."""
import base64
from pathlib import Path

from croupier.cli import add_port_option
from croupier.commands.common import reports_errors

HELP = "save a PNG of the board's display (read with the protocol's `screen` command)"


def add_arguments(parser):
    add_port_option(parser)
    parser.add_argument("--out", metavar="FILE.png", default="croupier-screen.png")
    parser.add_argument("--scale", type=int, default=4, help="pixels per OLED pixel (default 4)")


def save_screen(link, path, scale=4):
    """Ask the board for its display buffer and write it as a PNG; returns the path."""
    from croupier.link import LinkError
    from croupier.sim.render import render

    answer = link.call("screen")
    try:
        fb = base64.b64decode(answer["fb"], validate=True)
    except (KeyError, ValueError) as exc:
        raise LinkError("the board's `screen` answer holds no display buffer: %s" % exc) from exc
    if len(fb) != answer["w"] * answer["h"] // 8:
        raise LinkError("the board sent %d display bytes for a %dx%d screen" % (len(fb), answer["w"], answer["h"]))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    render(fb, scale=scale).save(path)
    return path


@reports_errors
def run(args):
    from croupier.link import connect

    if args.scale < 1 or args.scale > 16:
        raise ValueError("--scale must be from 1 to 16")
    with connect(args.port) as link:
        path = save_screen(link, args.out, args.scale)
    print("screen saved to %s" % path)
    return 0
