"""`croupier hil`: run the hardware-in-the-loop suite against a board, with pytest."""
import os
import sys

HELP = "run the hardware-in-the-loop test suite (default: on a fresh virtual board)"


def add_arguments(parser):
    parser.add_argument("--port", help="a real board: device path or pyserial URL (default: a fresh virtual board)")
    parser.add_argument("-k", dest="keyword", metavar="EXPR", help="only the tests matching EXPR (as pytest -k)")
    parser.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per test")
    parser.add_argument("--transcripts", metavar="DIR", help="save the serial transcripts here (default: a temp dir)")
    parser.add_argument("--timeout", type=positive_seconds, metavar="S", help="deadline of every request and wait (default 5)")
    parser.add_argument("--firmware", metavar="DIR", help="virtual board only: run this firmware tree")
    parser.add_argument("--heap", metavar="SIZE", help="virtual board only: MicroPython heap (default: croupier.sim.FIRMWARE_HEAP)")
    parser.add_argument("--pace", choices=("esp32", "none"), help="virtual board only: run at the chip's speed and limits (default: none, full speed)")
    parser.add_argument("--junitxml", metavar="FILE", help="also write a JUnit XML report (for CI)")
    parser.add_argument("--force", action="store_true",
                        help="run on a board holding records no database has or an unfinished game: "
                             "save them into --db first (without it the run is refused)")
    parser.add_argument("--db", metavar="FILE", help="the database --force saves into (default: croupier.sqlite3 in your user data folder)")


def positive_seconds(text):
    """argparse type of --timeout: a number of seconds above zero."""
    import argparse

    try:
        seconds = float(text)
    except ValueError:
        seconds = None
    if seconds is None or not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError("%r is not a number of seconds above 0" % text)
    return seconds


def pytest_args(args):
    """The pytest command line for these options: the packaged suite, our plugin, no repo config."""
    from croupier.hil import PLUGIN, SUITE_DIR

    # Progress as it goes: each file's name, then a dot per test and the count done so far
    # (-v: a line per test); bare dots said nothing for a minute.
    argv = [str(SUITE_DIR), "-p", PLUGIN, "-p", "no:cacheprovider", "-c", os.devnull,
            "--rootdir", str(SUITE_DIR), "--strict-markers", "-rN", "--no-header",
            "-o", "console_output_style=count"] + (["-v"] if args.verbose else [])
    options = [("--port", args.port), ("-k", args.keyword), ("--hil-transcripts", args.transcripts),
               ("--hil-timeout", args.timeout), ("--hil-firmware", args.firmware), ("--hil-heap", args.heap), ("--pace", args.pace),
               ("--junitxml", args.junitxml), ("--hil-db", args.db)]
    for flag, value in options:
        if value is not None:
            argv += [flag, str(value)]
    if args.exitfirst:
        argv.append("-x")
    if args.force:
        argv.append("--hil-force")
    return argv


def check_board(args):
    """Before pytest starts: the board on --port answers and, without --force, holds nothing the
    suite could lose (else Refused). The plugin checks again, for `pytest --port` run directly."""
    from croupier.hil.safety import refuse_if_at_risk
    from croupier.link import BOOT_TIMEOUT, DEFAULT_TIMEOUT, Link, open_serial
    from croupier.store import default_path

    port = open_serial(args.port)
    try:
        link = Link(port, timeout=args.timeout or DEFAULT_TIMEOUT)
        link.hello(within=BOOT_TIMEOUT)
        if not args.force:
            refuse_if_at_risk(link, args.port, args.db or default_path())
    finally:
        port.close()


def run(args):
    import pytest

    from croupier.hil import NO_BOARD, REFUSED
    from croupier.hil.safety import Refused
    from croupier.link import LinkError

    if args.port and (args.firmware or args.heap or args.pace):
        print("croupier hil: --firmware, --heap and --pace choose the virtual board; a board on --port runs its own",
              file=sys.stderr)
        return 2
    if args.port:
        try:
            check_board(args)
        except LinkError as exc:  # said in one line here, not in pytest's exit banner
            print("croupier hil: %s" % exc, file=sys.stderr)
            return REFUSED if isinstance(exc, Refused) else NO_BOARD
    status = int(pytest.main(pytest_args(args)))
    if status == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("croupier hil: no test matches -k %r" % args.keyword if args.keyword else "croupier hil: no tests to run",
              file=sys.stderr)
    return status
