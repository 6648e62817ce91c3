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


@reports_errors
def run(args):
    with open_store(args, readonly=True) as store:
        games = store.games()
    refs = short_refs(games)
    rows = []
    for number, g in enumerate(games, 1):
        if args.status and g["status"] != args.status:
            continue
        players = ", ".join(label(p) + ("*" if p["won"] else "") for p in g["players"])
        rows.append((number, show(g["started_min"], g["started_max"]), GAME_LABELS.get(g["game"], g["game"]), players, g["status"],
                     len(g["timeline"]["points"]) - 1, refs[game_ref(g)]))
    if not rows:
        print(none_found("%s games" % args.status, games, store.path))
        return 0
    print_table("Games (* = winner)", ["#", "started", "game", "players", "status", "cards", "id"], rows,
                caption=DATES_CAPTION)
    return 0
