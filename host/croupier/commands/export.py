"""`croupier export`: the games for a spreadsheet (CSV, one row per player per game) or a program (JSON)."""
import csv
import json
import sys

from croupier.cli import add_db_option
from croupier.commands.common import open_store, output_path, reports_errors
from croupier.dates import iso_fields
from croupier.plural import count
from croupier.scoring import MEASURES
from croupier.store import DATE_COLUMNS, game_ref

HELP = "export games as CSV (a row per player per game) or JSON (games with results and journal records)"
CSV_GAME_COLUMNS = ("device", "log_epoch", "game_id", "game", "status")
CSV_DATE_COLUMNS = ("started", "started_min", "started_max", "ended", "ended_min", "ended_max")
CSV_PLAYER_COLUMNS = ("seat", "name", "computer", "won")  # computer: a computer player's strength
# Every game kind's own measures, each once: a row fills those of its game, the rest stay empty.
CSV_MEASURE_COLUMNS = tuple(dict.fromkeys(key for kind in MEASURES for key, _, _ in MEASURES[kind]))


def add_arguments(parser):
    add_db_option(parser)
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument("--out", metavar="FILE", help="write here instead of standard output")


def iso_dates(game):
    """started, ended and their bounds in ISO 8601 (UTC; "" where unknown): the moment only
    when it is known, the bounds always."""
    return dict(iso_fields("started", game["started_min"], game["started_max"]),
                **iso_fields("ended", game["ended_min"], game["ended_max"]))


def write_csv(games, out):
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_GAME_COLUMNS + CSV_DATE_COLUMNS + CSV_PLAYER_COLUMNS + CSV_MEASURE_COLUMNS)
    for g in games:
        when = iso_dates(g)
        for p in g["players"]:
            writer.writerow([g[c] for c in CSV_GAME_COLUMNS] + [when[c] for c in CSV_DATE_COLUMNS]
                            + [cell(p[c]) for c in CSV_PLAYER_COLUMNS]
                            + [p["measures"].get(c, "") for c in CSV_MEASURE_COLUMNS])


def cell(value):
    """A CSV cell: None (a person's `computer`) is empty."""
    return "" if value is None else value


def write_json(games, store, out):
    doc = []
    for g in games:
        entry = {k: v for k, v in g.items() if k not in DATE_COLUMNS}
        entry.update({k: v or None for k, v in iso_dates(g).items()},
                     id=game_ref(g), records=store.records(g["device"], g["log_epoch"], g["game_id"]))
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
        print("%s written to %s" % (count(len(games), "game"), path), file=sys.stderr)
    return 0
