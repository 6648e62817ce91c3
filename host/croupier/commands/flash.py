"""`croupier flash`: deploy the firmware and the voices (only changed files), optionally
MicroPython first."""
from contextlib import ExitStack, suppress
from pathlib import Path

from croupier.cli import add_db_option, add_port_option
from croupier.commands.common import board_port, copy_progress, open_store, progress_bar, reports_errors
from croupier.link import LinkError
from croupier.plural import count
from croupier.port_registry import hold

HELP = ("copy the firmware and the voices onto the board (only changed files, verified); --micropython writes "
        "MicroPython first")
HELLO_WAIT = 3.0  # seconds the Croupier firmware gets to answer before the flash is erased


def add_arguments(parser):
    add_port_option(parser)
    add_db_option(parser)
    parser.add_argument("--micropython", metavar="FIRMWARE.bin", type=Path,
                        help="first erase the board and write this MicroPython image (ESP32_GENERIC) with esptool")
    parser.add_argument("--force", action="store_true",
                        help="erase even when the board may hold games not synced yet")
    parser.add_argument("--no-voice", action="store_true",
                        help="copy the firmware only, not the synthesized voices (/voice/fr.vox, en.vox: "
                             "about 3 minutes the first time); the voice banks on the board stay as they are")


def check_nothing_at_risk(port, store):
    """Erase only once it is clear no Croupier journal would be lost: the firmware answers and
    every record is synced; or MicroPython answers and holds no journal; or the flash is blank.
    Anything else (a slow, busy or broken firmware) is a LinkError asking for --force."""
    from croupier.deploy import flash_is_blank, unsynced_records
    from croupier.link import Link, LinkTimeout, WrongProtocol, open_serial
    from croupier.repl import JOURNAL_DIR, probe

    serial_port = open_serial(port)
    try:
        link = Link(serial_port, timeout=1.0)
        link.hello(within=HELLO_WAIT)
        missing = unsynced_records(link, store)
    except LinkTimeout:
        missing = None
    except WrongProtocol as exc:  # older firmware: this croupier cannot read its journal
        raise LinkError("the board runs Croupier firmware %s, whose journal this croupier cannot read: update it "
                        "with `croupier flash --port %s` (the journal stays), run `croupier sync`, then flash "
                        "MicroPython; or pass --force to erase it" % (exc.info.get("fw", "?"), port)) from None
    finally:
        serial_port.close()
    if missing:
        raise LinkError("the board holds %s not in %s: run `croupier sync` first, "
                        "or pass --force to erase them" % (count(missing, "journal record"), store.path))
    if missing == 0:
        return "the Croupier firmware answers and every record is synced"
    board = probe(port)
    if board is not None:
        if board.journal_files > 0:
            raise LinkError("the Croupier firmware does not answer on %s, but its MicroPython holds a journal (%s): "
                            "start the firmware and run `croupier sync` first, or pass --force to erase it"
                            % (port, JOURNAL_DIR))
        return "MicroPython %s answers and holds no Croupier journal" % board.version
    if flash_is_blank(port):
        return "the flash is blank"
    raise LinkError("neither the Croupier firmware nor MicroPython answers on %s, and its flash is not blank: "
                    "a slow or broken firmware may hold games not synced; pass --force to erase it anyway" % port)


def write_micropython(port, image, args):
    from croupier.deploy import detect_chip, write_micropython
    from croupier.link import check_port

    check_port(port)  # a missing port is said before the database is opened, which would create it
    if args.force:
        print("--force: erasing without checking for games")
    else:
        with open_store(args) as store:  # asked while the firmware runs
            print("nothing to lose: %s" % check_nothing_at_risk(port, store))
    chip = detect_chip(port)  # an ESP32 in its ROM bootloader, before anything is erased
    with progress_bar("erasing and writing MicroPython (esptool)", total=1) as update:
        write_micropython(port, image)
        update(1)
    print("MicroPython%s (%s) written to the %s on %s; esptool verified its hash"
          % (" " + image.version if image.version else "", image.describe(), chip, port))


def check_image_release(image, path):
    """Refuse, in one line, an image whose banner names a MicroPython older than supported."""
    from croupier.esp_image import ImageError
    from croupier.micropython_release import WANTED, supported

    if image.version is not None and not supported(image.version):
        raise ImageError("%s holds MicroPython %s, older than Croupier supports: download %s"
                         % (path, image.version, WANTED))


def check_micropython(port, staging, just_written):
    """Stop, in one line, unless the board's MicroPython is a supported release that loads the
    firmware's .mpy files; asked through the raw REPL before anything is copied, where the
    board is left for mpremote."""
    from croupier.repl import FIRST_BOOT_TIMEOUT, PROBE_TIMEOUT, cannot_load, probe

    board = probe(port, FIRST_BOOT_TIMEOUT if just_written else PROBE_TIMEOUT, restart=False)
    problem = cannot_load(board, staging, port)
    if problem:
        raise LinkError(problem)
    print("the board runs MicroPython %s" % board.version)


def voice_banks_kept(port):
    """The voice banks to leave on the board: the player names, and a bank of a user's own
    recordings, which the synthesized voice never replaces. Recordings made for other words
    than this firmware's are kept too, and said."""
    from croupier.voice.board import NAMES, recorded
    from croupier.voice.defaults import bank_path, inventory
    from croupier.voice.synth import LANGUAGES

    own = recorded(port)
    for lang in LANGUAGES:
        path = bank_path(lang)
        if path not in own:
            continue
        print("keeping your own recordings in /%s (`croupier voice --default` puts the synthesized voice back)" % path)
        missing = [word for word in inventory(lang) if word not in own[path]]
        if own[path] != list(inventory(lang)):
            why = "they lack " + ", ".join(missing) if missing else "their words are in another order"
            print("warning: /%s was recorded for another firmware (%s), and the box may say wrong words: "
                  "record them again with `croupier voice --from DIR --lang %s`" % (path, why, lang))
    return frozenset([NAMES, *own])


@reports_errors
def run(args):
    from croupier.build import BuildError, build_firmware, read_manifest, with_voices
    from croupier.deploy import DeployError, deploy
    from croupier.esp_image import read_image
    from croupier.repl import restart

    image = None
    if args.micropython:
        if args.port == "sim":
            raise LinkError("--micropython writes a real ESP32's flash; a virtual board (--port sim) runs "
                            "the MicroPython unix port and has none")
        image = read_image(args.micropython)  # before anything touches the board
        check_image_release(image, args.micropython)
    try:
        staging = build_firmware()
    except BuildError as exc:
        raise DeployError("the firmware does not build: %s" % exc) from exc
    if not args.no_voice:
        staging = with_voices(staging)
    manifest = read_manifest(staging)
    # held throughout: mpremote and esptool open the port in turn, and nothing may come between
    with board_port(args.port) as port, hold(port):
        if image is not None:
            write_micropython(port, image, args)
        try:  # from the probe to deploy's own reset, the board's program is stopped
            check_micropython(port, staging, just_written=image is not None)
            kept = frozenset() if args.no_voice else voice_banks_kept(port)
            with ExitStack() as bar:
                progress = copy_progress(bar, "copying files", "the board's files match the build")
                report = deploy(port, staging, manifest, progress=progress, keep=kept)
        except BaseException:
            with suppress(OSError, LinkError):  # (a port gone since: nothing to restart)
                restart(port)  # a refused or failed flash leaves the box running what it ran
            raise
    print("%s copied, %d stale removed, %d unchanged; board answers: fw %s, board %s, device %s"
          % (count(len(report.copied), "file"), len(report.removed), report.unchanged, report.hello.get("fw"),
             report.hello.get("board"), report.hello.get("device")))
    return 0
