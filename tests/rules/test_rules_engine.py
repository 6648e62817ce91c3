# The machinery every game shares (croupier.rules.engine): registry, setup checks,
# play / peek / undo / redo, and "a refused input changes nothing".
from croupier.rules import new_game, game_key, GAMES, Illegal, SetupError
from croupier.rules.canon import dumps
from check import game, play, illegal, snapshot, raises, retraces, NAMES


def test_games_registry_lists_every_game_with_player_ranges():
    assert GAMES == {"lobo77": (2, 8), "basta": (2, 6), "maumau": (2, 5),
                     "factors": (2, 6), "duo": (2, 2), "maumau_match": (2, 5)}


def test_illegal_and_setup_error_are_value_errors_with_a_reason():
    exc = raises(ValueError, new_game, "chess", ["A", "B"])
    assert isinstance(exc, SetupError) and "unknown game" in exc.reason
    assert str(exc) == exc.reason
    exc = raises(ValueError, game("lobo77").undo)
    assert isinstance(exc, Illegal) and exc.reason == "nothing to undo"


def test_new_game_rejects_bad_game_names_listing_the_games():
    for name in ("chess", "", None, 7, "lobo 77"):
        reason = raises(SetupError, new_game, name, ["A", "B"]).reason
        assert "unknown game" in reason and "basta, duo, factors, lobo77, maumau" in reason


def test_game_names_are_case_insensitive():
    for name in ("LOBO77", "Basta", "MauMau"):
        assert new_game(name, ["A", "B"]).setup()["game"] == name.lower()
    assert game_key("DUO") == "duo"


def test_new_game_rejects_bad_players():
    cases = [
        ("A", "list"), (None, "list"), ({"A": 1}, "list"),
        (["A"], "2 to 8"), (NAMES + ["I"], "2 to 8"), ([], "2 to 8"),
        (["A", ""], "name"), (["A", "   "], "name"), (["A", None], "name"), (["A", 5], "name"),
        (["Ann", "ann"], "two players"), (["Ann", " Ann "], "two players"),
        (["A", "x" * 25], "at most"),
    ]
    for players, words in cases:
        assert words in raises(SetupError, new_game, "lobo77", players).reason, players
    assert new_game("lobo77", ("A", "x" * 24)).setup()["players"] == ["A", "x" * 24]


def test_new_game_rejects_unknown_options_and_bad_option_values():
    assert "unknown option" in raises(SetupError, game, "lobo77", 3, {"limit": 4}).reason
    assert "unknown option" in raises(SetupError, game, "basta", 3, {"tokens": 3}).reason
    assert "unknown option" in raises(SetupError, game, "basta", 3, {1: 3}).reason
    assert "object" in raises(SetupError, game, "basta", 3, [("limit", 4)]).reason
    assert "object" in raises(SetupError, game, "basta", 3, "limit=4").reason


def test_setup_fills_in_every_option_default():
    assert game("lobo77").setup() == {
        "game": "lobo77", "players": ["A", "B", "C"],
        "options": {"tokens": 3, "negative_doublets": False, "strict_winner": False}}
    assert game("basta", 2, {}).setup() == {
        "game": "basta", "players": ["A", "B"], "options": {"limit": 4}}
    g = game("lobo77", 3, {"strict_winner": True})
    setup = g.setup()
    setup["options"]["tokens"] = 1  # a copy: the game keeps its own
    assert g.setup()["options"]["tokens"] == 3


def test_state_is_a_fresh_object_each_call():
    g = game("basta")
    s = g.state()
    s["total"] = 99
    s["players"][0]["penalties"] = 9
    s["winners"].append(1)
    assert g.state()["total"] == 0 and g.state()["players"][0]["penalties"] == 0
    assert g.state()["winners"] == []
    log = g.round_log()
    log.append([0, "x", 0])
    assert g.round_log() == []


def test_inputs_lists_accepted_cards_only():
    g = game("lobo77")
    play(g, "10 9")
    illegal(g, "nine")
    play(g, "2x")
    assert g.inputs == ["10", "9", "2x"]


def test_non_text_cards_are_illegal():
    g = game("basta")
    for card in (9, None, ["9"], b"9"):
        assert "text" in illegal(g, card).reason


def test_peek_shows_the_result_without_changing_anything():
    g = game("lobo77")
    play(g, "10 9")
    before = snapshot(g)
    state, effects = g.peek("3")
    assert state["total"] == 22 and effects == [{"kind": "doublet", "seat": 0}]
    assert state["players"][0]["tokens"] == 2
    assert snapshot(g) == before
    state, effects = g.peek("58")
    assert state["round"] == 2 and effects[0]["kind"] == "bust"
    assert snapshot(g) == before
    assert g.play("3") == [{"kind": "doublet", "seat": 0}]
    assert g.state() == state_after_replay(g)


def test_check_card_refuses_as_play_would_without_changing_anything():
    g = game("lobo77")
    play(g, "10 2x")
    before = snapshot(g)
    assert g.check_card("58") is None and snapshot(g) == before  # legal: a bust, not applied
    exc = raises(Illegal, g.check_card, "2x")
    assert exc.reason == illegal(g, "2x").reason and snapshot(g) == before


def state_after_replay(g):
    fresh = new_game(g.setup()["game"], g.setup()["players"], g.setup()["options"])
    for card in g.inputs:
        fresh.play(card)
    return fresh.state()


def test_undo_and_redo_step_back_and_forth():
    g = game("lobo77")
    assert not g.can_undo() and not g.can_redo()
    assert raises(Illegal, g.redo).reason == "nothing to redo"
    states = [dumps_state(g)]
    for card in "10 9 3 2x 0".split():
        g.play(card)
        states.append(dumps_state(g))
    assert g.undo() == [] and g.can_redo()
    assert g.inputs == ["10", "9", "3", "2x"]
    assert dumps_state(g) == states[4]
    g.undo()
    g.undo()
    assert dumps_state(g) == states[2] and g.round_log()[-1] == [2, "9", 19]
    assert g.redo() == [{"kind": "doublet", "seat": 0}]
    assert g.redo() == []
    assert g.redo() == [] and not g.can_redo()
    assert dumps_state(g) == states[5]


def dumps_state(g):
    return dumps(g.state())


def test_a_new_play_after_undo_clears_redo():
    g = game("basta")
    play(g, "10 20")
    g.undo()
    assert g.can_redo()
    g.play("5")
    assert not g.can_redo() and g.inputs == ["10", "5"]
    raises(Illegal, g.redo)


def test_illegal_play_keeps_the_redo_stack():
    g = game("basta")
    play(g, "10 20")
    g.undo()
    illegal(g, "dbl:1")
    assert g.can_redo()
    g.redo()
    assert g.inputs == ["10", "20"]


def test_undo_and_redo_across_round_ends_eliminations_and_game_end():
    g = game("lobo77", 3, {"tokens": 1})
    cards = "40 1 3 1 1 9 1 1 20 11 11".split()  # swim, eliminate, round end, game end
    history = [dumps_state(g)]
    for card in cards:
        g.play(card)
        history.append(dumps_state(g))
    assert g.state()["over"]
    retraces(g, history, len(cards))
    assert g.inputs == cards
    retraces(g, history, 4)
    for _ in cards:
        g.undo()
    assert not g.can_undo() and dumps_state(g) == history[0]
    raises(Illegal, g.undo)


def test_undo_and_redo_through_more_rounds_than_the_engine_checkpoints():
    g = game("basta", 2, {"limit": 20})
    history = [dumps_state(g)]
    for card in ("10 rev 45 " * 12).split():  # a round ends every third card
        g.play(card)
        history.append(dumps_state(g))
    assert g.state()["round"] == 13
    retraces(g, history, len(g.inputs))
    retraces(g, history, 20)


def test_undo_after_game_over_reopens_the_game():
    g = game("basta", 2, {"limit": 1})
    play(g, "51")
    illegal(g, "1", "over")
    g.undo()
    assert not g.state()["over"] and g.state()["winners"] == []
    play(g, "1 51")
    assert g.state()["winners"] == [0]


def test_a_game_bug_mid_input_leaves_the_state_as_it_was():
    from croupier.rules.lobo77 import Game

    class Faulty(Game):
        def _apply(self, move):
            effects = Game._apply(self, move)
            if move[0] == "13":
                raise RuntimeError("bug after the state changed")
            return effects

    g = Faulty(["A", "B", "C"])
    play(g, "10 2x")
    before = snapshot(g)
    raises(RuntimeError, g.play, "13")
    assert snapshot(g) == before
    raises(RuntimeError, g.peek, "13")
    assert snapshot(g) == before
    play(g, "12")
    assert g.inputs == ["10", "2x", "12"]
