"""`croupier export`: the games for a spreadsheet (CSV, one row per player per game) or a program (JSON)."""
import csv
import json
import sys

from croupier.cli import add_db_option
from croupier.commands.common import open_store, output_path, reports_errors
from croupier.store import game_ref

HELP = "export games as CSV (a row per player per game) or JSON (games with results and journal records)"
CSV_GAME_COLUMNS = ("device", "log_epoch", "game_id", "game", "status", "started", "ended")
CSV_PLAYER_COLUMNS = ("seat", "name", "won", "tokens_lost", "doublets", "busts", "eliminated")


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument("--out", metavar="FILE", help="write here instead of standard output")


def write_csv(games, out):
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_GAME_COLUMNS + CSV_PLAYER_COLUMNS)
    for g in games:
        for p in g["players"]:
            writer.writerow([g[c] for c in CSV_GAME_COLUMNS] + [p[c] for c in CSV_PLAYER_COLUMNS])


def write_json(games, store, out):
    doc = []
    for g in games:
        entry = dict(g, id=game_ref(g), records=store.records(g["device"], g["log_epoch"], g["game_id"]))
        doc.append(entry)
    json.dump({"games": doc}, out, indent=1, sort_keys=True)
    out.write("\n")


@reports_errors
def run(args):
    path = output_path(args.out) if args.out else None
    with open_store(args, readonly=True) as store:
        games = store.games()
        out = open(path, "w", newline="", encoding="utf-8") if path else sys.stdout
        try:
            if args.format == "csv":
                write_csv(games, out)
            else:
                write_json(games, store, out)
        finally:
            if path:
                out.close()
    if path:
        print("%d game(s) written to %s" % (len(games), path), file=sys.stderr)
    return 0
