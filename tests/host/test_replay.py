"""Rebuilding games from journal records with the firmware's own rules engines."""
import pytest

from journal_records import journal
from croupier.commands.demo import script_game
from croupier.rules import new_game
from croupier.sync import ReplayError, replay

PLAYERS3 = ["Ann", "Bob", "Cy"]


def test_worked_example_doublet_is_counted_for_the_player_who_made_it():
    # docs/rules.md: B 10, C 9, A 3 -> 22, a doublet: A loses a token.
    game, results = replay(journal("lobo77", PLAYERS3, ["10", "9", "3"]))
    assert game["status"] == "playing"
    assert game["final_state"]["total"] == 22
    ann = results[0]
    assert ann["name"] == "Ann"
    assert ann["measures"] == {"tokens_lost": 1, "doublets": 1, "busts": 0, "eliminated": 0}
    assert [r["measures"]["doublets"] for r in results[1:]] == [0, 0]
    assert game["timeline"]["meter"] == "tokens"
    assert game["timeline"]["points"] == [[0, [3, 3, 3]], [10, [3, 3, 3]], [19, [3, 3, 3]], [22, [2, 3, 3]]]


def test_finished_game_replays_to_its_end_record_and_names_the_winner():
    cards = script_game("lobo77", ["Ann", "Bob", "Cy", "Dee"], seed=3)
    records = journal("lobo77", ["Ann", "Bob", "Cy", "Dee"], cards)
    game, results = replay(records)
    assert records[-1][3] == "end"
    assert game["status"] == "over" and game["ended"] == records[-1][1]
    winners = [r["name"] for r in results if r["won"]]
    assert winners == [game["final_state"]["players"][s]["name"] for s in game["final_state"]["winners"]]
    assert len(winners) == 1
    assert sum(r["measures"]["eliminated"] for r in results) == 3
    assert len(game["timeline"]["points"]) == len(cards) + 1


def test_undone_cards_count_for_nothing():
    game, results = replay(journal("lobo77", PLAYERS3, ["10", "9", "3", "undo", "4"]))
    assert game["final_state"]["total"] == 23
    assert [r["measures"]["doublets"] for r in results] == [0, 0, 0]
    redone, _ = replay(journal("lobo77", PLAYERS3, ["10", "9", "3", "undo", "redo"]))
    assert redone["final_state"]["total"] == 22


def test_an_illegal_card_is_refused_with_its_seq_and_reason():
    records = journal("basta", PLAYERS3, ["dbl:2"])
    records.append([3, None, 1, "play", "dbl:2"])  # a second double on seat 2: illegal
    with pytest.raises(ReplayError) as err:
        replay(records)
    assert err.value.seq == 3 and "already has a double" in str(err.value)


def test_an_end_record_with_another_state_is_refused_naming_the_difference():
    records = journal("basta", PLAYERS3, script_game("basta", PLAYERS3, seed=1))
    records[-1][4] = dict(records[-1][4], total=records[-1][4]["total"] + 1)
    with pytest.raises(ReplayError, match="final state differs: total: replay gives"):
        replay(records)


def test_the_devices_current_state_must_match():
    records = journal("lobo77", PLAYERS3, ["10", "9"])
    engine = new_game("lobo77", PLAYERS3)
    engine.play("10")
    with pytest.raises(ReplayError, match="current state differs"):
        replay(records, expected_state=engine.state())
    engine.play("9")
    assert replay(records, expected_state=engine.state())[0]["final_state"] == engine.state()


def test_records_that_cannot_be_a_game_are_refused():
    records = journal("lobo77", PLAYERS3, ["10"])
    with pytest.raises(ReplayError, match="first record is 'play'"):
        replay(records[1:])
    with pytest.raises(ReplayError, match="unknown record kind 'teleport'"):
        replay(records + [[3, None, 1, "teleport", None]])
    with pytest.raises(ReplayError, match="cannot set the game up"):
        replay([[1, None, 1, "new", {"game": "lobo77", "players": ["Solo"], "options": {}}]])
    finished = journal("lobo77", PLAYERS3, script_game("lobo77", PLAYERS3, seed=2))
    with pytest.raises(ReplayError, match="after the game ended"):
        replay(finished + [[finished[-1][0] + 1, None, 1, "play", "5"]])


def test_an_abandoned_game_is_kept_as_abandoned():
    records = journal("lobo77", PLAYERS3, ["10", "9"]) + [[4, T0 := 1_700_000_100, 1, "abandon", None]]
    game, results = replay(records)
    assert game["status"] == "abandoned" and game["ended"] == T0
    assert not any(r["won"] for r in results)


def test_a_maumau_player_who_joined_between_rounds_has_results_too():
    # docs/rules.md 3.4: a player joining between rounds starts with the worst active score.
    game, results = replay(journal("maumau", ["Ann", "Bob"], ["out:0", "hand:1:10", "join:Cy"]))
    assert [r["name"] for r in results] == ["Ann", "Bob", "Cy"]
    assert game["final_state"]["players"][2]["score"] == -10
    assert game["timeline"]["meter"] == "score"
    assert game["timeline"]["points"][-1][1] == [0, -10, -10]
    assert [r["measures"] for r in results] == [{"score": 0, "rounds_won": 1, "eliminated": 0},
                                                {"score": -10, "rounds_won": 0, "eliminated": 0},
                                                {"score": -10, "rounds_won": 0, "eliminated": 0}]


def test_the_timeline_keeps_the_total_a_bust_reached_and_who_paid():
    # B 66 (a doublet), C 10 -> 76, A 11 -> 87: a bust for A (docs/rules.md), the next round at 0
    game, results = replay(journal("lobo77", PLAYERS3, ["66", "10", "11", "5"]))
    steps = game["timeline"]["steps"]
    assert steps[0] == [1, "66", 66, [["doublet", 1]]]
    assert steps[2] == [0, "11", 87, [["bust", 0], ["round_end", 0]]]
    assert game["timeline"]["points"][3][0] == 0 and steps[3][2] == 5
    assert [r["measures"]["busts"] for r in results] == [1, 0, 0]


def test_each_game_counts_its_own_measures():
    _, basta = replay(journal("basta", PLAYERS3, ["5", "basta", "3"]))  # Bob calls Basta!, Cy busts
    assert [r["measures"] for r in basta] == [{"penalties": 0, "bastas": 0}, {"penalties": 0, "bastas": 1},
                                             {"penalties": 1, "bastas": 0}]
    _, factors = replay(journal("factors", PLAYERS3, ["pen:2", "pen:2", "hand:0:4", "hand:1:0", "hand:2:1"]))
    assert [(r["measures"]["penalty_cards"], r["measures"]["score"]) for r in factors] == [(0, 4), (0, 0), (2, 7)]
