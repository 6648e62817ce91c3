"""`croupier screenshot`: a PNG of what the board's OLED shows, read over the protocol."""
import base64
import time

from croupier.cli import add_port_option
from croupier.commands.common import connect_board, output_path, reports_errors

HELP = "save a PNG of the board's display (read with the protocol's `screen` command)"


def add_arguments(parser):
    add_port_option(parser)
    parser.add_argument("--out", metavar="FILE.png", default="croupier-screen.png",
                        help="where to write the picture (default: %(default)s)")
    parser.add_argument("--scale", type=int, default=4, help="pixels per OLED pixel (default 4)")


def read_screen(link):
    """The board's display buffer (SSD1306 page order), checked."""
    from croupier.link import LinkError

    answer = link.call("screen")
    try:
        fb = base64.b64decode(answer["fb"], validate=True)
        if len(fb) != answer["w"] * answer["h"] // 8:
            raise ValueError("%d bytes for a %sx%s screen" % (len(fb), answer["w"], answer["h"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise LinkError("the board's `screen` answer holds no usable display buffer: %s" % exc) from exc
    return fb


def settled_screen(link, quiet=2.0, within=10.0):
    """The display once it has stopped changing for `quiet` seconds: longer than a passing
    announcement stays up (1.5 s), so the picture is what the board settles on."""
    deadline = time.monotonic() + within
    fb = read_screen(link)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        newer = read_screen(link)
        if newer == fb:
            break
        fb = newer
    return fb


@reports_errors
def run(args):
    from croupier.oled_render import save_png

    if args.scale < 1 or args.scale > 16:
        raise ValueError("--scale must be from 1 to 16")
    path = output_path(args.out, ".png")
    with connect_board(args.port) as link:
        save_png(read_screen(link), path, args.scale)
    print("screen saved to %s" % path)
    return 0
