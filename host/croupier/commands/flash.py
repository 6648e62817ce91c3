"""`croupier flash`: deploy the firmware (only changed files), optionally MicroPython first."""
from pathlib import Path

from croupier.cli import add_db_option, add_port_option
from croupier.commands.common import open_store, progress_bar, reports_errors

HELP = "copy the firmware onto the board (only changed files, verified); --micropython writes MicroPython first"


def add_arguments(parser):
    add_port_option(parser)
    add_db_option(parser)
    parser.add_argument("--micropython", metavar="FIRMWARE.bin", type=Path,
                        help="first erase the board and write this MicroPython image with esptool")
    parser.add_argument("--force", action="store_true", help="erase even when the board holds games not synced yet")


def check_nothing_unsynced(port, store):
    """Refuse to erase a board whose journal holds records the database lacks."""
    from croupier.deploy import unsynced_records
    from croupier.link import Link, LinkError, LinkTimeout, open_serial

    serial_port = open_serial(port)
    try:
        missing = unsynced_records(Link(serial_port, timeout=2.0), store)
    except LinkTimeout:
        print("no Croupier firmware answers on %s: no games to lose" % port)
        return
    finally:
        serial_port.close()
    if missing:
        raise LinkError("the board holds %d journal record(s) not in %s: run `croupier sync` first, "
                        "or pass --force to erase them" % (missing, store.path))


def write_micropython(port, image, store, force):
    from croupier.deploy import write_micropython

    if not image.is_file():
        raise ValueError("no MicroPython image at %s" % image)
    if not force:
        check_nothing_unsynced(port, store)
    with progress_bar("writing MicroPython (esptool)", total=1) as update:
        chip = write_micropython(port, image)
        update(1)
    print("MicroPython written to the %s on %s" % (chip, port))


@reports_errors
def run(args):
    from croupier.build import BuildError, build_firmware, read_manifest
    from croupier.deploy import DeployError, deploy
    from croupier.link import board_port

    try:
        staging = build_firmware()
    except BuildError as exc:
        raise DeployError("the firmware does not build: %s" % exc) from exc
    manifest = read_manifest(staging)
    with board_port(args.port) as port:
        if args.micropython:
            with open_store(args) as store:
                write_micropython(port, args.micropython, store, args.force)
        with progress_bar("copying firmware files") as update:
            report = deploy(port, staging, manifest, progress=lambda kind, done, total: update(done, total))
    print("%d file(s) copied, %d stale removed, %d unchanged; board answers: fw %s, board %s, device %s"
          % (len(report.copied), len(report.removed), report.unchanged, report.hello.get("fw"),
             report.hello.get("board"), report.hello.get("device")))
    return 0
