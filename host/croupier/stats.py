"""Standings and summaries computed from rebuilt games (store.Store.games()). Pure functions."""
from collections import Counter, defaultdict

from croupier.plural import count
from croupier.scoring import MEASURES
# A game type counted with another under --game: Mau-Mau against the computer is Mau-Mau.
FAMILY = {"maumau_match": "maumau"}
# Each game kind as a sentence names it.
KIND_NAMES = {"lobo77": "Lobo 77", "basta": "BASTA", "maumau": "Mau-Mau", "maumau_match": "computer Mau-Mau",
              "factors": "factor race", "duo": "two-player sums"}


def finished(games, game_type=None):
    """Only games that ended with a result (not abandoned, not still playing); of game_type
    (its own name, or its family's: "maumau" includes "maumau_match") when given."""
    return [g for g in games if g["status"] == "over"
            and (game_type is None or game_type in (g["game"], FAMILY.get(g["game"])))]


def label(player):
    """A player's name as listed: a computer player's says so, with its strength (the same name
    at another strength is another player)."""
    if player.get("computer"):
        return "%s (computer %d)" % (player["name"], player["computer"])
    return player["name"]


def kinds(games):
    """The game kinds among `games`, by name."""
    return sorted({g["game"] for g in games})


def standings(games, kind=None):
    """One row per player over finished games, best first: games, wins, win_rate, and with
    `kind` (only that kind's games) its MEASURES, summed or averaged per game."""
    measures = MEASURES.get(kind, ()) if kind else ()
    rows = {}
    for game in games:
        if kind and game["game"] != kind:
            continue
        for p in game["players"]:
            row = rows.setdefault(label(p), dict({"name": label(p), "games": 0, "wins": 0},
                                                  **{key: 0 for key, _, _ in measures}))
            row["games"] += 1
            row["wins"] += p["won"]
            for key, _, _ in measures:
                row[key] += p["measures"].get(key, 0)
    for row in rows.values():
        row["win_rate"] = row["wins"] / row["games"]
        for key, _, how in measures:
            if how == "mean":
                row[key] = row[key] / row["games"]
    return sorted(rows.values(), key=lambda r: (-r["win_rate"], -r["wins"], r["name"]))


def holdings(games):
    """What `games` are, for a sentence: `3 Lobo 77 games (1 playing) and 1 computer Mau-Mau
    game`; unfinished ones counted by status."""
    parts = []
    for kind in kinds(games):
        of_kind = [g for g in games if g["game"] == kind]
        unfinished = Counter(g["status"] for g in of_kind if g["status"] != "over")
        parts.append(count(len(of_kind), KIND_NAMES.get(kind, kind) + " game")
                     + (" (%s)" % ", ".join("%d %s" % (unfinished[s], s) for s in sorted(unfinished))
                        if unfinished else ""))
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def head_to_head(games):
    """{(a, b): [games together, games a won]} for every ordered pair of players who met."""
    table = defaultdict(lambda: [0, 0])
    for game in games:
        for a in game["players"]:
            for b in game["players"]:
                if label(a) != label(b):
                    cell = table[(label(a), label(b))]
                    cell[0] += 1
                    cell[1] += a["won"]
    return dict(table)


def by_game_type(games):
    """Per game type: played, finished, abandoned, and per finished game the average number of
    cards and rounds (None without a finished game: there is no average)."""
    rows = {}
    for g in games:
        row = rows.setdefault(g["game"], {"game": g["game"], "played": 0, "over": 0, "abandoned": 0,
                                          "cards": 0, "rounds": 0})
        row["played"] += 1
        if g["status"] in ("over", "abandoned"):
            row[g["status"]] += 1
        if g["status"] == "over":
            row["cards"] += len(g["timeline"]["points"]) - 1
            row["rounds"] += g["final_state"].get("round") or 0
    for row in rows.values():
        for key in ("cards", "rounds"):
            row[key] = row[key] / row["over"] if row["over"] else None
    return [rows[k] for k in sorted(rows)]
