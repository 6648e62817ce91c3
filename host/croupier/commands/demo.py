"""`croupier demo`: a Lobo 77 and a BASTA game played on a fresh virtual board, end to end.

The games are scripted: seeded, reproducible card sequences (also used by tests and benches).
Cards are drawn from a deck-like mix; now and then a card that costs a token is preferred, so
a game ends after a few dozen cards instead of hundreds.
"""
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from croupier.commands.common import output_path, progress_bar, reports_errors, virtual_board
from croupier.rules import Illegal, new_game

HELP = "play a Lobo 77 and a BASTA game on a fresh virtual board, sync them, show standings and charts"
LOBO_PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]
BASTA_PLAYERS = ["Ana", "Ben", "Cleo"]
SEED = 7

DECKS = {
    "lobo77": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "10", "10", "0", "-10", "2x", "rev",
               "11", "22", "33", "44", "55", "66"],
    "basta": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "0", "rev", "basta", "-5"],
    # The other three: the tracker's cards and the score pad's entries for up to 6 seats.
    "maumau": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "K", "A", "J:h", "J:s", "draw"]
              + ["hand:%d:%d" % (seat, points) for seat in range(5) for points in (12, 27, 41)],
    "factors": ["pen:%d" % seat for seat in range(6)]
               + ["hand:%d:%d" % (seat, cards) for seat in range(6) for cards in (0, 2, 5)],
    "duo": ["0", "1", "2", "3", "4", "5", "1x", "4x", "draw"],
}
PENALTIES = ("doublet", "bust")
SPEECH_START_S = 2.0  # a card's announcement starts within this of its answer, or says nothing
SPEECH_END_S = 15.0  # and is said whole within this (a few seconds of words)
MAX_CARDS = 2000


def script_game(game, players, options=None, seed=0, eagerness=0.5):
    """The list of cards of one complete game, the same for the same arguments."""
    rng = random.Random(seed)
    engine = new_game(game, players, options)
    deck = DECKS[game]
    cards = []
    while not engine.state()["over"]:
        if len(cards) >= MAX_CARDS:
            raise RuntimeError("%s did not end within %d cards" % (game, MAX_CARDS))
        legal = []
        for card in rng.sample(deck, len(deck)):
            try:
                _, effects = engine.peek(card)
            except Illegal:
                continue
            legal.append((any(e["kind"] in PENALTIES for e in effects), card))
        costly = [card for cost, card in legal if cost]
        card = costly[0] if costly and rng.random() < eagerness else legal[0][1]
        engine.play(card)
        cards.append(card)
    return cards


# -- the command ------------------------------------------------------------------------------

def add_arguments(parser):
    parser.add_argument("--dir", metavar="FOLDER", help="where to put the database and pictures (default: a new temp folder)")
    parser.add_argument("--audio-out", metavar="FILE.wav",
                        help="record what the board's speaker said to FILE.wav; the Lobo 77 game is then played at "
                             "the table's pace, each announcement said whole before the next card")


def play_through_link(link, game, players, cards, after_card=None):
    """Set the game up on the board and play `cards`, checking every answer against the rules;
    after_card() runs after each."""
    from croupier.link import LinkError

    link.call("new", game=game, players=players)
    reference = new_game(game, players)
    with progress_bar("playing %s" % game, total=len(cards)) as update:
        for number, card in enumerate(cards, 1):
            state = link.call("play", card=card)["state"]
            reference.play(card)
            if state != reference.state():
                raise LinkError("the board and the rules engine disagree after card %d (%s)" % (number, card))
            if after_card:
                after_card()
            update(number)
    return state


def said_whole(board):
    """A function that waits until the board has said its announcement of the card just
    played: its speaker started (or SPEECH_START_S passed: nothing to say) and went quiet."""
    def wait():
        audio = board.audio
        deadline = time.monotonic() + SPEECH_START_S
        while not audio.speaking() and time.monotonic() < deadline:
            time.sleep(0.01)
        deadline = time.monotonic() + SPEECH_END_S
        while audio.speaking() and time.monotonic() < deadline:
            time.sleep(0.01)
    return wait


def _fresh_folder(folder):
    if folder is None:
        return Path(tempfile.mkdtemp(prefix="croupier-demo-"))
    folder = Path(folder)
    if (folder / "croupier.sqlite3").exists():
        raise ValueError("%s already holds a demo database: choose another --dir" % folder)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@reports_errors
def run(args):
    from croupier import plots
    from croupier.commands.screenshot import settled_screen
    from croupier.commands.standings import print_standings
    from croupier.commands.sync import sync_with_progress
    from croupier.link import connect
    from croupier.oled_render import save_png
    from croupier.stats import finished
    from croupier.store import Store

    audio_out = args.audio_out and output_path(args.audio_out, ".wav")  # a bad name: refused before playing
    folder = _fresh_folder(args.dir)
    print("demo folder: %s" % folder)
    started = time.monotonic()
    with Store(folder / "croupier.sqlite3") as store:
        print("starting a virtual board (the real firmware on MicroPython's unix port)...")
        with virtual_board(audio_out) as board, connect(board.port, timeout=5.0) as link:
            hello = link.info
            print("board %s answers: firmware %s, device %s" % (hello["board"], hello["fw"], hello["device"]))
            link.call("roster", names=LOBO_PLAYERS)
            play_through_link(link, "lobo77", LOBO_PLAYERS, script_game("lobo77", LOBO_PLAYERS, seed=SEED),
                              said_whole(board) if audio_out else None)
            play_through_link(link, "basta", BASTA_PLAYERS, script_game("basta", BASTA_PLAYERS, seed=SEED))
            report = sync_with_progress(link, store)
            link.call("key", key="ok")  # as a player would: close the announcements, see the result
            screen = folder / "final-screen.png"
            save_png(settled_screen(link), screen)
        for line in report.lines():
            print(line)
        games = store.games()
        rows = print_standings(finished(games))
        chart = plots.standings_chart(rows, folder / "standings.png")
        lobo_chart = plots.game_chart(games[0], folder / "lobo77-game.png", number=1)
    print("database:     %s" % store.path)
    print("final screen: %s" % screen)
    print("charts:       %s, %s" % (chart, lobo_chart))
    print("done in %.1f s; try: %s standings --db %s" % (time.monotonic() - started, this_croupier(), store.path))
    return 1 if report.refused else 0


def this_croupier():
    """How to run this croupier again from here: `croupier` when PATH finds this very script;
    else its path as it was started (after `make demo`: .venv/bin/croupier, not on PATH)."""
    script = Path(sys.argv[0])
    if script.name != "croupier":  # python -m croupier.cli
        return "%s -m croupier.cli" % sys.executable
    found = shutil.which("croupier")
    return "croupier" if found and Path(found).resolve() == script.resolve() else str(script)
