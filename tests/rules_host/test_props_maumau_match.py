# Mau-Mau against the computer, properties (CPython, hypothesis): whatever is played, the 104
# cards are all somewhere, exactly the legal inputs are accepted, the scores follow the hands,
# and the state is a pure function of setup + inputs that undo/redo retraces.
from hypothesis import given, settings, strategies as st

from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps
from croupier.rules.maumau import POINTS, card_points
from croupier.rules.maumau_match import CARDS, SUITS
from croupier.rules.prng import Rng
from maumau_decks import accounted, whole_deck
from props_more import undo_redo_retraces
from randplay import NAMES

KINDS = {"dealt", "mau", "drew", "forgot", "reshuffled", "skipped", "maumau", "eliminated",
         "round_end", "game_end", "joined", "left"}
# Inputs that are never legal or only sometimes: cards of every kind, words, junk.
TRIES = list(CARDS) + ["J%s:%s" % (s, w) for s in SUITS for w in SUITS] + \
    ["draw", "mau", "deal:", "deal:x", "Jh", "11h", "7h:h", "", "leave:9", "join:Ann"]

SETUPS = st.tuples(st.integers(2, 5),
                   st.fixed_dictionaries({"limit": st.integers(-120, -10),
                                          "points": st.sampled_from(sorted(POINTS))}))
CHOICES = st.lists(st.integers(0, 1 << 30), min_size=20, max_size=700)


def pick(g, rng):
    """The next input: mostly a legal one, sometimes anything from TRIES, a join or leave."""
    roll = rng.below(20)
    if g.phase == "deal":
        if roll == 0:
            return "join:%s%d" % (NAMES[rng.below(len(NAMES))], rng.below(3))
        if roll == 1:
            return "leave:%d" % rng.below(len(g.names) + 1)
        return "deal:%d" % rng.word()
    if roll < 2:
        return TRIES[rng.below(len(TRIES))]
    legal = g.legal()
    cards = [text for text in legal if text not in ("draw", "mau")]
    if roll < 5 or not cards:
        return legal[rng.below(len(legal))]
    return cards[rng.below(len(cards))]  # mostly a card: rounds come to their end


def hand_points(hand, preset):
    return sum(card_points(card[:-1], POINTS[preset]) for card in hand)


def check(before, after, card, effects, legal, options):
    kinds = [e["kind"] for e in effects]
    for e in effects:
        assert e["kind"] in KINDS and 0 <= e["seat"] < len(after["players"]), e
    cards = accounted(after)
    assert cards == whole_deck() or (cards == [] and after["round"] == 1)
    if before["phase"] == "play":
        assert card in legal  # accepted while playing: it was listed as legal
    for seat, (was, now) in enumerate(zip(before["players"], after["players"])):
        assert now["score"] <= was["score"] <= 0
        if "round_end" in kinds and not card.startswith("leave:") and not was["out"]:
            assert was["score"] - now["score"] == hand_points(now["hand"], options["points"])
            assert now["lost"] == was["score"] - now["score"]
        if not now["left"]:
            assert now["out"] == (now["score"] <= options["limit"])
    assert after["over"] == ("game_end" in kinds) or before["over"] == after["over"]
    if after["over"]:
        assert [s for s, p in enumerate(after["players"]) if not p["out"]] == after["winners"]
    else:
        assert not after["players"][after["turn"]]["out"]


@settings(max_examples=60, deadline=None)
@given(SETUPS, CHOICES)
def test_maumau_match_random_play_keeps_the_rules(setup, choices):
    count, options = setup
    g = new_game("maumau_match", NAMES[:count], options)
    history = [dumps(g.state())]
    for choice in choices:
        if g.over:
            break
        rng = Rng(choice)
        card = pick(g, rng)
        before = g.state()
        legal = g.legal()
        try:
            effects = g.play(card)
        except Illegal:
            assert dumps(g.state()) == history[-1]
            assert before["phase"] != "play" or card not in legal  # a legal input is taken
            continue
        check(before, g.state(), card, effects, legal, g.options)
        history.append(dumps(g.state()))
    undo_redo_retraces(g, history, min(12, len(history) - 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(0, 1 << 30))
def test_maumau_match_view_is_the_seat_share_of_the_state(count, seed):
    g = new_game("maumau_match", NAMES[:count])
    rng = Rng(seed)
    g.play("deal:%d" % rng.word())
    for _ in range(rng.below(60)):
        if g.phase != "play":
            break
        legal = g.legal()
        g.play(legal[rng.below(len(legal))])
    state = g.state()
    for seat in range(count):
        view = g.view(seat)
        assert view["hand"] == state["players"][seat]["hand"]
        assert view["counts"] == [len(p["hand"]) for p in state["players"]]
        assert view["pile"] == state["pile"] and view["stock"] == len(state["stock"])
        assert view["legal"] == (g.legal() if seat == state["turn"] else [])
        others = set()
        for other, player in enumerate(state["players"]):
            if other != seat:
                others.update(player["hand"])
        laid = set(entry[1].split(":")[0] for entry in view["log"])
        hidden = others - set(view["hand"]) - set(view["pile"]) - laid
        text = dumps(view)
        for card in hidden:
            assert '"%s"' % card not in text and '"%s:' % card not in text
