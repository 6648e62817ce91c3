"""The one-line game summaries of croupier console and croupier mirror, on real game states."""
import pytest

from croupier import statetext
from croupier.commands.demo import DECKS, script_game
from croupier.rules import GAMES, new_game


def test_no_game():
    assert statetext.summary(None) == "no game"


def test_a_fresh_lobo77_game():
    state = new_game("lobo77", ["Ann", "Bob"]).state()
    assert statetext.summary(state) == "lobo77 round 1 · total 0 · Bob to play · clockwise · Ann tokens 3 · Bob tokens 3"


@pytest.mark.parametrize("game", sorted(DECKS))  # the box's games
def test_a_finished_game_names_its_winners_and_who_is_out(game):
    players = ["Ann", "Bob"] if GAMES[game][1] == 2 else ["Ann", "Bob", "Cy"]
    engine = new_game(game, players)
    for card in script_game(game, players, seed=3):
        effects = engine.play(card)
    state = engine.state()
    text = statetext.summary(state)
    winners = [players[seat] for seat in state["winners"]]
    assert text.startswith("%s round %d · " % (game, state["round"]))
    assert ("game over: %s win" % " and ".join(winners)) in text if winners else "game over: no winner" in text
    assert "to play" not in text
    for player in state["players"]:
        assert (player["name"] + " out") in text if player["out"] else player["name"] + " " in text
    said = statetext.effects(effects, state)
    assert "game end" in said  # the last card ended it, and the summary of effects says so


def test_basta_tells_a_card_over_50_in_the_boxs_words():
    engine = new_game("basta", ["Ann", "Bob"])
    engine.play("30")
    effects = engine.play("25")  # Bob: 55
    said = statetext.effects(effects, engine.state())
    assert said.startswith("OVER 50: Bob takes a penalty") and "bust" not in said
    lobo = new_game("lobo77", ["Ann", "Bob"])
    assert statetext.effects(lobo.play("80"), lobo.state()).startswith("bust Bob")


def test_the_boxs_words_are_the_firmwares():
    """BOX_WORDS quotes the announcements of firmware croupier/ui/games/*.py (TEXTS)."""
    import ast
    from pathlib import Path

    import croupier

    for (game, kind), words in statetext.BOX_WORDS.items():
        source = Path(croupier.__file__).parent / "firmware" / "croupier" / "ui" / "games" / (game + ".py")
        [texts] = [node.value for node in ast.parse(source.read_text()).body
                   if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["TEXTS"]]
        assert ast.literal_eval(texts)[kind] == words
