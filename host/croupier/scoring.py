"""What a rebuilt game says about each player, in that game's own terms, and what it charts.

Each game kind names its own measures (Lobo 77 counts tokens and doublets, BASTA penalties,
the score pads points): MEASURES lists them, in the order the standings show them, with how
games add up (a count sums; a score is averaged per game).
"""
from croupier.rules import new_game

# The per-player count a game charts after every input.
METERS = {"lobo77": "tokens", "basta": "penalties", "maumau": "score", "maumau_match": "score", "factors": "score", "duo": "score"}
# Per game kind: (key, column title, "sum" | "mean"); the key is what results hold per seat.
MEASURES = {
    "lobo77": (("tokens_lost", "tokens lost", "sum"), ("doublets", "doublets", "sum"), ("busts", "busts", "sum"),
               ("eliminated", "out", "sum")),
    "basta": (("penalties", "penalties", "sum"), ("bastas", "Basta!", "sum")),
    "maumau": (("score", "avg score", "mean"), ("rounds_won", "rounds won", "sum"), ("eliminated", "out", "sum")),
    "maumau_match": (("score", "avg score", "mean"), ("rounds_won", "rounds won", "sum"), ("eliminated", "out", "sum")),
    "factors": (("score", "avg score", "mean"), ("penalty_cards", "penalty cards", "sum")),
    "duo": (("score", "avg points", "mean"), ("rounds_won", "rounds won", "sum")),
}
# Effects the timeline keeps per input, for the charts to mark.
MARKED = ("doublet", "bust", "swimming", "eliminated", "round_end", "game_end", "maumau")
# Effects that count once more for the seat they name.
EFFECT_MEASURES = {"doublet": "doublets", "bust": "busts"}
ROUND_WINS = {"maumau": "maumau", "maumau_match": "maumau", "duo": "round_end"}  # the effect that names a round's winner


def measure_keys(game):
    return [key for key, _, _ in MEASURES.get(game, ())]


def _meter(state, meter):
    return [p.get(meter) for p in state["players"]]


def _add(counts, seat, key):
    counts[seat][key] = counts[seat].get(key, 0) + 1


def _count(game, seat, card, kinds, counts):
    """Add one input's part to the per-seat counts: by its effects, and by who played it."""
    for kind, effect_seat in kinds:
        if effect_seat is None:
            continue
        if kind == "eliminated":
            counts[effect_seat]["eliminated"] = 1
        elif kind in EFFECT_MEASURES:
            _add(counts, effect_seat, EFFECT_MEASURES[kind])
        if kind == ROUND_WINS.get(game):
            _add(counts, effect_seat, "rounds_won")
    if game == "basta" and card == "basta" and seat is not None:
        _add(counts, seat, "bastas")
    if game == "factors" and card.startswith("pen:"):
        _add(counts, int(card[4:]), "penalty_cards")


def score(setup, inputs, final):
    """Replay the accepted inputs on a fresh engine: (timeline, per-seat results).

    timeline: {"meter": the charted count, "points": [[total, [meter per seat]]] from the
    start and after each input, "steps": [[seat, card, total reached, [[effect, seat], ...]]]
    per input} (the total reached is the round's last total, the one a bust went to, even
    when the state has started the next round at 0).
    results: per seat {"seat", "name", "won", "measures": {key: value}} with MEASURES' keys.
    """
    game = setup["game"]
    engine = new_game(game, setup["players"], setup.get("options") or {})
    meter = METERS.get(game)
    start = engine.state()
    points = [[start.get("total"), _meter(start, meter)]]
    steps = []
    counts = [{} for _ in final["players"]]  # sized by the final seats: Mau-Mau players may join
    for card in inputs:
        kinds = [[e["kind"], e.get("seat")] for e in engine.play(card) if e.get("kind") in MARKED]
        log = engine.round_log()
        seat, reached = (log[-1][0], log[-1][2]) if log and log[-1][1] == card else (None, None)
        state = engine.state()
        steps.append([seat, card, reached, kinds])
        points.append([state.get("total"), _meter(state, meter)])
        _count(game, seat, card, kinds, counts)
    winners = set(final.get("winners") or []) if final.get("over") else set()
    results = []
    for seat, player in enumerate(final["players"]):
        measures = dict.fromkeys(measure_keys(game), 0)
        measures.update((k, v) for k, v in counts[seat].items() if k in measures)
        if "tokens_lost" in measures:
            measures["tokens_lost"] = (points[0][1][seat] or 0) - (points[-1][1][seat] or 0)
        if "penalties" in measures:
            measures["penalties"] = player.get("penalties") or 0
        if "score" in measures:
            measures["score"] = player.get("score") or 0
        results.append({"seat": seat, "name": player["name"], "won": int(seat in winners), "measures": measures})
    return {"meter": meter, "points": points, "steps": steps}, results
