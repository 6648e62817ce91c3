# Property tests (CPython, hypothesis): random legal and illegal play from random setups never
# breaks the invariants of docs/rules.md, and undo/redo always lands on the exact earlier state.
import json

from hypothesis import given, settings, strategies as st

from croupier.rules import new_game, Illegal
from croupier.rules.canon import dumps
import randplay
from check import retraces

KINDS = {"doublet", "bust", "swimming", "eliminated", "round_end", "game_end"}


@st.composite
def setups(draw):
    game = draw(st.sampled_from(["lobo77", "basta"]))
    count = draw(st.integers(2, 8 if game == "lobo77" else 6))
    if game == "lobo77":
        options = draw(st.none() | st.fixed_dictionaries({
            "tokens": st.integers(1, 5), "negative_doublets": st.booleans(),
            "strict_winner": st.booleans()}))
    else:
        options = draw(st.none() | st.fixed_dictionaries({"limit": st.integers(1, 6)}))
    return game, randplay.NAMES[:count], options


def next_total(game, total, card):
    """The total after card (docs/rules.md card tables)."""
    if card == "basta":
        return 50
    if card == "-5" and game == "basta":
        return total - 5
    if card.lstrip("-").isdigit():
        return total + int(card)
    return total


def is_number(card):
    return card.lstrip("-").isdigit() and int(card) != 0


class Referee:
    """Checks one game's states against the rules, step by step."""

    def __init__(self, g):
        self.g = g
        self.game = g.setup()["game"]
        self.options = g.setup()["options"]
        self.paid = [0] * len(g.setup()["players"])  # doublets + busts per seat
        self.round_cards = []
        self.history = [dumps(g.state())]

    def accepted(self, card, before, effects):
        after = self.g.state()
        assert all(e["kind"] in KINDS and 0 <= e["seat"] < len(self.paid) for e in effects)
        kinds = [e["kind"] for e in effects]
        for e in effects:
            if e["kind"] in ("doublet", "bust"):
                self.paid[e["seat"]] += 1
        self.round_cards.append(card)
        landed = next_total(self.game, before["total"], card)
        if self.game == "lobo77":
            doublets = (11, 22, 33, 44, 55, 66)
            magnitude = -landed if self.options["negative_doublets"] else landed
            assert ("bust" in kinds) == (is_number(card) and landed >= 77)
            assert ("doublet" in kinds) == (is_number(card) and landed < 77
                                            and (landed in doublets or magnitude in doublets))
        else:
            assert ("bust" in kinds) == (landed > 50)
        if "round_end" in kinds:
            self.round_cards = []
            if not after["over"]:
                assert (after["round"], after["total"], after["dir"], after["owed"]) == \
                    (before["round"] + 1, 0, 1, 1)
        else:
            assert after["round"] == before["round"]
            total = 0
            for played in self.round_cards:
                total = next_total(self.game, total, played)
            assert after["total"] == total == landed
        assert after["over"] == ("game_end" in kinds)
        (self.check_lobo77 if self.game == "lobo77" else self.check_basta)(before, after)
        if not after["over"]:
            assert not after["players"][after["turn"]]["out"]
            assert after["owed"] in (1, 2)
        self.history.append(dumps(after))

    def check_lobo77(self, before, after):
        start = self.options["tokens"]
        for seat, (was, now) in enumerate(zip(before["players"], after["players"])):
            assert now["tokens"] <= was["tokens"]
            assert was["out"] <= now["out"]
            assert start - now["tokens"] + now["out"] == self.paid[seat]
        left = [s for s, p in enumerate(after["players"]) if not p["out"]]
        holders = [s for s in left if after["players"][s]["tokens"]]
        if after["over"]:
            expected = holders if self.options["strict_winner"] and len(left) > 1 else left
            assert after["winners"] == expected and len(expected) == 1
        else:
            assert len(left) >= 2 and after["winners"] == []
            if self.options["strict_winner"]:
                assert len(holders) >= 2

    def check_basta(self, before, after):
        now = [p["penalties"] for p in after["players"]]
        assert all(n >= p["penalties"] for n, p in zip(now, before["players"]))
        assert now == self.paid
        assert not any(p["out"] for p in after["players"])
        if after["over"]:
            assert max(now) == self.options["limit"]
            assert after["winners"] == [s for s, n in enumerate(now) if n == min(now)]
        else:
            assert max(now) < self.options["limit"] and after["winners"] == []
            assert not after["players"][after["turn"]]["double"]


@settings(max_examples=150, deadline=None)
@given(setup=setups(), choices=st.lists(st.integers(0, 1 << 16), min_size=80, max_size=400),
       data=st.data())
def test_random_play_keeps_the_invariants_and_undo_redo_is_exact(setup, choices, data):
    game, players, options = setup
    g = new_game(game, players, options)
    referee = Referee(g)
    for choice in choices:
        card = randplay.card(game, choice, len(players))
        before = g.state()
        try:
            effects = g.play(card)
        except Illegal:
            assert dumps(g.state()) == dumps(before)
            continue
        referee.accepted(card, before, effects)
    history = referee.history
    assert len(history) == len(g.inputs) + 1
    retraces(g, history, data.draw(st.integers(0, len(g.inputs))))


@settings(max_examples=100, deadline=None)
@given(setup=setups(), actions=st.lists(st.integers(0, 1 << 16), min_size=40, max_size=200))
def test_state_is_a_pure_function_of_the_inputs_through_any_undo_redo(setup, actions):
    game, players, options = setup
    g = new_game(game, players, options)
    for action in actions:
        if action % 8 == 0 and g.can_undo():
            g.undo()
        elif action % 8 == 1 and g.can_redo():
            g.redo()
        else:
            try:
                g.play(randplay.card(game, action // 8, len(players)))
            except Illegal:
                pass
        fresh = new_game(game, players, options)
        for card in g.inputs:
            fresh.play(card)
        assert dumps(fresh.state()) == dumps(g.state())
        assert fresh.round_log() == g.round_log()


def test_finished_games_only_refuse_cards():
    finished = [randplay.play_game(seed) for seed in range(20)]
    assert all(summary["state"]["over"] for summary in finished)
    for summary in finished:
        setup = summary["setup"]
        g = new_game(setup["game"], setup["players"], setup["options"])
        for card in summary["inputs"]:
            g.play(card)
        for card in set(randplay.DECKS[setup["game"]]):
            try:
                g.play(card)
            except Illegal as exc:
                assert exc.reason == "the game is over"
            else:
                raise AssertionError("%s accepted after game over" % card)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(obj=JSON)
def test_canon_dumps_equals_cpython_json_dumps(obj):
    assert dumps(obj) == json.dumps(obj, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=True)
