"""`croupier games`: every game in the database, oldest first, with its number for `plot game N`."""
from croupier.cli import add_db_option
from croupier.commands.common import none_found, open_store, print_table, reports_errors
from croupier.dates import CAPTION as DATES_CAPTION, show
from croupier.store import game_ref, short_refs
from croupier.stats import label

HELP = "list the games in the database"
GAME_LABELS = {"maumau_match": "maumau (vs computer)"}  # game types whose key reads badly


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("--status", choices=("over", "playing", "abandoned"), help="only games in this state")


ELSEWHERE = "went on elsewhere"
ELSEWHERE_CAPTION = ("%s: the box went on with the game (or closed it) in records another database, or a "
                     "`croupier hil` run, acknowledged; here it stays as last synced (one box, one "
                     "database: docs/laptop.md)" % ELSEWHERE)


@reports_errors
def run(args):
    with open_store(args, readonly=True) as store:
        games = store.games()
        logs = {(g["device"], g["log_epoch"]) for g in games if g["status"] == "playing"}
        held = {log: store.seqs(*log) for log in logs}  # one read per log, however many games play in it
    refs = short_refs(games)
    rows = []
    for number, g in enumerate(games, 1):
        if args.status and g["status"] != args.status:
            continue
        players = ", ".join(label(p) + ("*" if p["won"] else "") for p in g["players"])
        status = g["status"]
        if status == "playing" and went_on_elsewhere(g["game_id"], held[(g["device"], g["log_epoch"])]):
            status = ELSEWHERE
        rows.append((number, show(g["started_min"], g["started_max"]), GAME_LABELS.get(g["game"], g["game"]), players, status,
                     len(g["timeline"]["points"]) - 1, refs[game_ref(g)]))
    if not rows:
        print(none_found("%s games" % args.status, games, store.path))
        return 0
    caption = DATES_CAPTION + ("\n" + ELSEWHERE_CAPTION if any(row[4] == ELSEWHERE for row in rows) else "")
    print_table("Games (* = winner)", ["#", "started", "game", "players", "status", "cards", "id"], rows,
                caption=caption)
    return 0


def went_on_elsewhere(game_id, held):
    """A game's records follow each other from its `new` (seq game_id). When the seqs held
    from there stop at a gap before the last one held, the game's next record (a card, its
    end, its abandon) is in the gap: another host acknowledged it, and it never came here."""
    present = set(held)
    if game_id not in present:
        return False
    seq = game_id
    while seq + 1 in present:
        seq += 1
    return seq < held[-1]
