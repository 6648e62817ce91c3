"""`croupier voice`: put a user's own recordings on the board as its voice, or the synthesized
voice back."""
from contextlib import ExitStack

from croupier.cli import add_port_option
from croupier.commands.common import board_port, copy_progress, reports_errors
from croupier.voice import LANGUAGES

HELP = "make your own recordings (one WAV file a word) the board's voice, or --default for the synthesized one"


def add_arguments(parser):
    add_port_option(parser)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--from", dest="folder", metavar="DIR",
                        help="a folder holding one WAV file a word, named after it (quarante.wav, ...): PCM of "
                             "8, 16, 24 or 32 bits, mono or stereo, any rate")
    source.add_argument("--default", action="store_true", help="put the synthesized voice back")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the language of the voice (default: fr with --from; both with --default)")


def banks_wanted(args) -> dict:
    """{board path: bank bytes} the command puts on the board; ValueError before any board is
    touched when a recording is missing or unusable."""
    from croupier.voice.defaults import bank_path, default_banks
    from croupier.voice.recordings import bank_from

    if args.folder:
        lang = args.lang or "fr"
        return {bank_path(lang): bank_from(args.folder, lang)}
    banks = default_banks()
    langs = [args.lang] if args.lang else LANGUAGES
    return {bank_path(lang): (banks / bank_path(lang)).read_bytes() for lang in langs}


@reports_errors
def run(args):
    from croupier.plural import count
    from croupier.port_registry import hold
    from croupier.voice.board import put

    banks = banks_wanted(args)
    whose = "your recordings" if args.folder else "the synthesized voice"
    for path, data in sorted(banks.items()):
        print("/%s: %s, %d KB" % (path, whose, (len(data) + 1023) // 1024))
    with board_port(args.port) as port, hold(port), ExitStack() as bar:
        progress = copy_progress(bar, "copying voice files (about a minute per 200 KB)", "the board has that voice")
        report = put(port, banks, progress)
    print("%s copied; board answers: fw %s" % (count(len(report.copied), "file"), report.hello.get("fw")))
    return 0
