"""`croupier sim`: run the virtual board, in a terminal UI or headless behind a serial link."""
import signal
import sys
import threading

from croupier.commands.common import reports_errors

HELP = "run the virtual board (terminal UI, or --headless behind a serial port)"


def add_arguments(parser):
    parser.add_argument("--headless", action="store_true", help="no UI: run until SIGTERM/SIGINT")
    parser.add_argument("--link", metavar="PATH", help="make PATH a symlink to the board's serial port")
    parser.add_argument("--flash", metavar="FILE",
                        help="flash image (created with the firmware and the voices if missing; default: temporary)")
    parser.add_argument("--heap", metavar="SIZE", help="MicroPython heap for the firmware, e.g. 1m (default: what the firmware needs on this 64-bit port with the voices, croupier.sim.board.SPEAKING_HEAP)")
    parser.add_argument("--baud", metavar="N", type=int, help="limit the serial line to N baud (8N1)")
    parser.add_argument("--rtc", action="store_true",
                        help="fit the optional DS3231 clock module (its time is kept in FILE.rtc beside the flash image)")
    parser.add_argument("--micropython-version", metavar="X.Y", default=None,
                        help="the ESP32 MicroPython release whose console the board models and whose "
                             "version it reports: 1.22 .. 1.28 (default: the newest)")
    parser.add_argument("--pace", choices=("esp32", "none"), default=None,
                        help="run at the chip's speed and limits (esp32) or full speed (none); "
                             "default: esp32 in the terminal UI, none headless")
    parser.add_argument("--calibrate", action="store_true",
                        help="run pystone on the paced board and print the pystones/s it scores")
    parser.add_argument("--audio", action="store_true",
                        help="play the board's speech on this computer (through aplay, paplay, pw-play, play or "
                             "ffplay, the first on PATH)")
    parser.add_argument("--audio-out", metavar="FILE.wav",
                        help="record what the board's speaker played to FILE.wav when the board stops")


def make_board(args):
    from croupier.commands.common import output_path
    from croupier.sim import VirtualBoard

    release = {"micropython_version": args.micropython_version} if args.micropython_version else {}
    flash, link = (args.flash and output_path(args.flash)), (args.link and output_path(args.link))  # folders exist
    board = VirtualBoard(flash=flash, heap=args.heap, link=link, rtc=args.rtc, pace=pace_of(args), voices=True,
                         **release)
    if args.baud is not None:
        board.faults(baud=args.baud)
    return board


def pace_of(args):
    """The terminal UI previews the box at its own pace; a headless board serves tools at full speed."""
    return args.pace or ("none" if args.headless else "esp32")


def run_calibration(args):
    """`--calibrate`: run pystone on a paced board and print its score."""
    from croupier.sim import calibrate
    from croupier.sim.pace import NOT_REALTIME

    pace = args.pace or "esp32"
    if pace == "none":
        print("croupier sim: --calibrate measures a paced board: not with --pace none", file=sys.stderr)
        return 2
    result = calibrate.run_on_board(pace)  # its SimError, OSError or TimeoutError: one line (run)
    print("%d pystones/s at --pace %s (the throttle's factor: %.0f; %d pystones per second of the CPU budget it "
          "got: %.0f%% of its budget; an ESP32 at 240 MHz scores 1,075-1,661)"
          % (result["pystones"], pace, result["factor"], result["per_budget"], 100 * result["cpu_share"]))
    if result["realtime"] is False:
        print(NOT_REALTIME)
    return 0


@reports_errors
def run(args):
    from croupier import sound
    from croupier.commands.common import output_path
    from croupier.port_registry import board_running

    if args.calibrate:
        return run_calibration(args)

    try:
        audio_out = args.audio_out and output_path(args.audio_out, ".wav")
        board = make_board(args)
    except ValueError as exc:
        print("croupier sim: %s" % exc, file=sys.stderr)
        return 2
    with board, board_running(board):  # listed by `croupier ports`
        player = sound.play_live(board) if args.audio else None
        try:
            if args.headless:
                return _headless(board, temporary_image=args.flash is None)
            from croupier.tui.sim import SimApp

            SimApp(board, temporary_image=args.flash is None).run()
            return 0
        finally:
            if player:
                player.close()
            if audio_out:
                sound.save_wav(board, audio_out)


def _headless(board, temporary_image):
    from croupier.hil import image_losses

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    board.wait_boot(timeout=30)
    where = " (link %s)" % board.link if board.link else ""
    print("virtual board running: serial port %s%s, flash %s%s" % (
        board.port, where, board.flash, " (temporary: deleted when the board stops)" if temporary_image else ""),
        flush=True)
    while not stop.wait(1):
        pass
    words = image_losses.losses(board.port) if temporary_image else ""
    if words:  # asked while the board still runs: it goes with the image
        print("virtual board stopping: its temporary flash image held %s, now lost; next time, to keep them, %s"
              % (words, image_losses.how_to_keep(board.link or board.port)), flush=True)
    print("virtual board stopped; serial bytes lost to a full receive ring: %d" % board.rx_overflow, flush=True)
    return 0
