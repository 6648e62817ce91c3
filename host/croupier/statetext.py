"""A game state (the protocol's `state` object) and its effects in one line a person reads:
what the box's play screen shows, the cards owed and the direction included.

    lobo77 round 1 · total 12 · Bob to play 2 cards · clockwise · Ann tokens 3 · Bob tokens 2 · Cy out
"""
from croupier.rules.maumau_match import SYMBOLS

# What each game counts per player, in the order shown (a game shows those it has).
PLAYER_FIELDS = ("tokens", "penalties", "score", "markers", "hand")


def summary(state) -> str:
    if state is None:
        return "no game"
    players = state["players"]
    parts = ["%s round %s" % (state["game"], state["round"])]
    if state.get("total") is not None:
        parts.append("total %s" % state["total"])
    if state["over"]:
        winners = [players[seat]["name"] for seat in state["winners"]]
        parts.append("game over: %s" % (" and ".join(winners) + (" wins" if len(winners) == 1 else " win")
                                         if winners else "no winner"))
    else:
        parts.append("%s to play%s" % (players[state["turn"]]["name"], _owed(state)))
        parts.append("clockwise" if state["dir"] == 1 else "counter-clockwise")
        if state.get("suit"):  # Mau-Mau: the suit a jack wished
            parts.append("jack wished %s" % SYMBOLS[state["suit"]])
    parts.extend(_player(p) for p in players)
    return " · ".join(parts)


def _owed(state):
    """What the player on turn owes beyond one card, as the box shows it (x2, "one more
    card", +4 from stacked 7s)."""
    if state.get("second_card"):  # Lobo 77, between the two cards of a two-card turn
        return " one more card"
    if state.get("draw"):  # Mau-Mau
        return " a 7 or draw %d" % state["draw"]
    return " %d cards" % state["owed"] if state["owed"] > 1 else ""


def _player(player):
    if player.get("out"):
        return "%s out" % player["name"]
    return " ".join([player["name"]] + ["%s %s" % (field, player[field]) for field in PLAYER_FIELDS if field in player])


# An effect told in the box's words where they are not its kind's name (the announcements of
# firmware croupier/ui/games/*.py TEXTS): {(game, kind): (title, what befalls the player)}.
BOX_WORDS = {("basta", "bust"): ("OVER 50", "{} takes a penalty")}


def effects(effect_list, state) -> str:
    """What the card in `state` (the state after it) did: `doublet Ann, bust Bob`, in BASTA
    `OVER 50: Bob takes a penalty`; "" when nothing happened beyond the card."""
    return ", ".join(_effect(e, state) for e in effect_list)


def _effect(effect, state):
    players, seat = state["players"], effect.get("seat")
    name = players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else None
    words = BOX_WORDS.get((state["game"], effect["kind"]))
    if words:
        return "%s: %s" % (words[0], words[1].format(name)) if name else words[0]
    return effect["kind"].replace("_", " ") + (" " + name if name else "")
