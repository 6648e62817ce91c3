"""What stopping a board on its temporary flash image loses, asked of its firmware.

The board's own answers (`hello`: records no host acknowledged; `state`: the game in play)
over its serial port, as `croupier hil` asks before it touches a board: the image is deleted
with the board, so whatever no database holds goes with it.
"""
from croupier.hil.safety import at_risk
from croupier.link import Link, LinkError, open_serial

ASK_TIMEOUT = 5.0  # seconds the firmware gets to answer (a paced board answers in well under one)


def losses(port: str) -> str:
    """What a board on a temporary image holds that no database has, in words ("" for
    nothing), or why the board could not say."""
    try:
        serial = open_serial(port)
    except LinkError as exc:
        return "whatever it holds (the board could not be asked: %s)" % exc
    try:
        return at_risk(Link(serial, timeout=ASK_TIMEOUT))[0]
    except LinkError as exc:
        return "whatever it holds (the board did not answer: %s)" % exc
    finally:
        serial.close()


def how_to_keep(port: str) -> str:
    """How to keep what losses() names (after "to keep them, ")."""
    return "sync first (`croupier sync --port %s`), or run the board on an image of your own " \
           "(`croupier sim --flash FILE`)" % port
