# Factor race properties (CPython, hypothesis): the referee agrees with the rule read off
# docs/rules.md section 4 on every pair of cards, and random score-pad entries keep the totals.
from hypothesis import given, settings, strategies as st

from croupier.rules.factors import judge, VALUES
from randplay import NAMES
from props_more import CHOICES, effect_kinds, play_out, undo_redo_retraces, winners_or_turn

KINDS = {"round_end", "game_end"}
CARDS = st.tuples(st.sampled_from(VALUES), st.integers(1, 6))


@settings(max_examples=300, deadline=None)
@given(previous=CARDS, played=CARDS)
def test_factors_referee_allows_exactly_the_cards_sharing_nothing(previous, played):
    (before, before_colour), (value, colour) = previous, played
    related = before % value == 0 or value % before == 0  # same value included
    verdict = judge("%d:%d" % previous, "%d:%d" % played)
    assert (verdict is None) == (colour != before_colour and not related)
    if verdict is not None:
        assert str(value) in verdict or verdict in ("same colour", "same value")


def check(before, after, card, effects):
    kinds = effect_kinds(effects, KINDS, len(after["players"]))
    count = len(after["players"])
    assert not any(p["out"] for p in after["players"])
    if "round_end" in kinds:
        held = [p["held"] for p in before["players"]]
        held[int(card.split(":")[1])] = int(card.split(":")[2])
        for seat, (was, now) in enumerate(zip(before["players"], after["players"])):
            assert now["score"] - was["score"] == held[seat] + 3 * was["penalties"]
    else:
        assert [p["score"] for p in after["players"]] == \
            [p["score"] for p in before["players"]]
    winners_or_turn(after, "game_end" in kinds)
    assert 1 <= after["round"] <= count
    if after["over"]:
        scores = [p["score"] for p in after["players"]]
        assert after["round"] == count
        assert after["winners"] == [s for s in range(count) if scores[s] == min(scores)]
    else:
        assert after["turn"] == (after["round"] - 1) % count  # first player moves left


@settings(max_examples=80, deadline=None)
@given(count=st.integers(2, 6), choices=CHOICES, data=st.data())
def test_factors_random_score_pad_keeps_the_totals_and_undo_redo_retraces(count, choices,
                                                                          data):
    g, history = play_out("factors", NAMES[:count], None, choices, check)
    undo_redo_retraces(g, history, data.draw(st.integers(0, len(g.inputs))))
