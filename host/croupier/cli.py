"""The `croupier` command: one sub-command per module, imported only when it runs.

Each command module exposes HELP (one line), add_arguments(parser) and run(args) -> int.
Heavy imports (Textual, matplotlib, serial) stay inside run() so `croupier --help` is instant.
"""
import argparse
import importlib
import os
import sys

from croupier import __version__
from croupier.port_registry import name_process

COMMANDS = {
    "demo": "croupier.commands.demo",
    "sim": "croupier.commands.sim",
    "screenshot": "croupier.commands.screenshot",
    "ports": "croupier.commands.ports",
    "flash": "croupier.commands.flash",
    "roster": "croupier.commands.roster",
    "voice": "croupier.commands.voice",
    "sync": "croupier.commands.sync",
    "games": "croupier.commands.games",
    "standings": "croupier.commands.standings",
    "stats": "croupier.commands.stats",
    "console": "croupier.commands.console",
    "mirror": "croupier.commands.mirror",
    "export": "croupier.commands.export",
    "plot": "croupier.commands.plot",
    "play": "croupier.commands.play",
    "hil": "croupier.hil.command",
}


def add_port_option(parser):
    """--port for every command that talks to a board."""
    parser.add_argument("--port", metavar="PORT",
                        help="serial device, pyserial URL (e.g. rfc2217://host:port) or `sim` for a fresh "
                             "virtual board; default: the only ESP32 board plugged in")


def add_db_option(parser):
    """--db for every command that reads or writes the database, naming the one in use."""
    from croupier.store import default_path

    parser.add_argument("--db", metavar="FILE", help=(
        "SQLite database (default: %s, from $CROUPIER_DB when set, else croupier.sqlite3 in your user data "
        "folder)" % str(default_path()).replace("%", "%%")))


def game_name(text):
    """argparse type of a game name: any case, refused with the list of games when unknown."""
    from croupier.rules import SetupError, game_key

    try:
        return game_key(text)
    except SetupError as exc:
        raise argparse.ArgumentTypeError(exc.reason) from exc


def _load(name):
    try:
        return importlib.import_module(COMMANDS[name])
    except ModuleNotFoundError as exc:
        if exc.name and COMMANDS[name].startswith(exc.name):
            return None  # command not built in this version
        raise


def build_parser():
    parser = argparse.ArgumentParser(prog="croupier", description="Croupier: flash, sync, standings, virtual board and HIL tests")
    parser.add_argument("--version", action="version", version="croupier " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        cmd = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(_module=module)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    name_process("croupier %s" % args.command)  # how a busy port names us to a second command
    try:
        return args._module.run(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone():
    """Whoever read our output stopped (`croupier export | head`): end quietly, as a Unix
    tool killed by SIGPIPE would. Standard output goes to /dev/null so that Python's final
    flush of it does not complain a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is no file (a test's capture): nothing will flush into a closed pipe
    return 128 + 13  # SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
