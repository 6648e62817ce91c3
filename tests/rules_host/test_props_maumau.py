# Mau-Mau properties (CPython, hypothesis): random tracking, scoring, joining and leaving never
# break docs/rules.md section 3, and undo/redo retraces every step.
from hypothesis import given, settings, strategies as st

from randplay import NAMES
from props_more import CHOICES, active, effect_kinds, play_out, undo_redo_retraces, \
    winners_or_turn

KINDS = {"mau", "maumau", "round_end", "eliminated", "game_end", "joined", "left"}
FACES = {"default": {"J": 20, "Q": 10, "K": 10, "A": 11},  # docs/rules.md 3.2
         "skat": {"J": 2, "Q": 3, "K": 4, "A": 11}}

SETUPS = st.tuples(
    st.integers(2, 5),
    st.fixed_dictionaries({"limit": st.integers(-150, -10),
                           "points": st.sampled_from(["default", "skat"]),
                           "jack_finish_doubles": st.booleans()}))


def next_seat(state, seat, step):
    """The next seat still in from seat, in direction step."""
    while True:
        seat = (seat + step) % len(state["players"])
        if not state["players"][seat]["out"]:
            return seat


def entered_points(card, options):
    """The points a "hand:S:..." input enters (docs/rules.md 3.2 card points)."""
    text = card.split(":", 2)[2]
    if text.isdigit():
        return int(text)
    faces = FACES[options["points"]]
    return sum(faces[rank] if rank in faces else int(rank) for rank in text.split(","))


class MauMauReferee:
    def __init__(self, options):
        self.options = options
        self.jack_out = False

    def __call__(self, before, after, card, effects):
        players_before, players = before["players"], after["players"]
        kinds = effect_kinds(effects, KINDS, len(players))
        added = len(players) - len(players_before)
        assert added == (1 if card.startswith("join:") else 0)
        if added:
            assert players[-1]["score"] == min(players_before[s]["score"]
                                               for s in active(before))
        limit = self.options["limit"]
        for was, now in zip(players_before, players):
            assert now["score"] <= was["score"] <= 0 and now["hand"] >= 0
            assert was["out"] <= now["out"] and was["left"] <= now["left"]
            if not now["left"]:
                assert now["out"] == (now["score"] <= limit)
        if card[:2] == "J:" or ":" not in card:
            self.tracked(before, after, card)
        if "maumau" in kinds:
            self.jack_out = card.startswith("J:") or card.endswith(":J")
        if "round_end" in kinds and card.startswith("leave:"):
            assert after["over"]  # only a leave that ends the game ends a round
        elif "round_end" in kinds:
            self.round_scored(before, after, card)
        else:
            assert after["round"] == before["round"]
        if after["phase"] == "count":
            assert after["draw"] == 0 and after["owed"] == 0 and after["suit"] is None
        winners_or_turn(after, "game_end" in kinds)
        if after["over"]:
            assert after["winners"] == active(after)
        else:
            assert len(active(after)) >= 2

    def tracked(self, before, after, card):
        """A card or draw by the seat on turn (docs/rules.md 3, the tracker)."""
        seat, way = before["turn"], before["dir"]
        hands = [p["hand"] for p in before["players"]]
        hands[seat] += (before["draw"] or 1) if card == "draw" else -1
        assert [p["hand"] for p in after["players"]] == hands
        if after["phase"] == "count":  # the seat went out: the count begins
            return
        way = -way if card == "9" else way
        turn = seat
        for _ in range({"A": 0, "8": 2}.get(card, 1)):
            turn = next_seat(before, turn, way)
        stacked = {"7": before["draw"] + 2, "draw": 0}.get(card, before["draw"])
        assert (after["dir"], after["turn"], after["draw"]) == (way, turn, stacked)

    def round_scored(self, before, after, card):
        factor = 2 if self.jack_out and self.options["jack_finish_doubles"] else 1
        counted = [p["counted"] for p in before["players"]]
        counted[int(card.split(":")[1])] = entered_points(card, self.options)
        for seat, (was, now) in enumerate(zip(before["players"], after["players"])):
            assert was["score"] - now["score"] == factor * (counted[seat] or 0)
        if not after["over"]:
            assert (after["round"], after["phase"], after["dir"]) == \
                (before["round"] + 1, "play", 1)
            assert all(p["hand"] == (0 if p["out"] else 7) for p in after["players"])


@settings(max_examples=120, deadline=None)
@given(setup=SETUPS, choices=CHOICES, data=st.data())
def test_maumau_random_play_keeps_the_rules_and_undo_redo_retraces(setup, choices, data):
    count, options = setup
    g, history = play_out("maumau", NAMES[:count], options, choices, MauMauReferee(options))
    undo_redo_retraces(g, history, data.draw(st.integers(0, len(g.inputs))))
