"""Power-on and game setup with the keypad alone (docs/at-the-table.md, "Starting a game")."""
from ui_run import BOOTED, by_name, run_ui



def test_power_on_shows_the_splash_then_the_game_menu(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        ("snap", "splash"), BOOTED, ("snap", "menu")]))
    assert snaps["splash"]["screen"] == "Splash"
    assert snaps["splash"]["tunes"] == ["boot"]
    assert snaps["menu"]["screen"] == "ListScreen"
    assert snaps["menu"]["state"] is None


def test_first_card_of_a_default_four_player_lobo_within_ten_keys(micropython, tmp_path):
    keys = "1 ok ok ok ok 9 ok".split()
    assert len(keys) <= 10
    snap = run_ui(micropython, tmp_path, [BOOTED, ("keys", " ".join(keys)), ("snap", "s")])[0]
    state = snap["state"]
    assert state["game"] == "lobo77"
    assert [p["name"] for p in state["players"]] == ["P1", "P2", "P3", "P4"]
    assert [p["tokens"] for p in state["players"]] == [3, 3, 3, 3]
    assert state["total"] == 9
    assert state["turn"] == 2  # P1 dealt, P2 played the 9
    assert snap["tunes"] == ["boot"] + ["click"] * len(keys)


def test_roster_names_digits_cycle_names_options_and_who_deals(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [
        ("roster", ["Ann", "Bob", "Cy", "Dee", "Eve"]), BOOTED,
        ("keys", "1 3"),  # Lobo 77, 3 players: Ann Bob Cy
        ("keys", "2"),  # seat 2 takes the next free roster name: Dee
        ("keys", "ok 1 1 2 ok"),  # tokens 3 -> 4 -> 5, negative doublets on
        ("keys", "3"),  # Cy deals
        ("snap", "s")])[0]
    state = snap["state"]
    assert [p["name"] for p in state["players"]] == ["Cy", "Ann", "Dee"]  # clockwise kept
    assert [p["tokens"] for p in state["players"]] == [5, 5, 5]
    assert state["turn"] == 1  # left of the dealer opens


def test_back_from_a_later_step_keeps_the_names_picked(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [
        ("roster", ["Ann", "Bob", "Cy", "Dee"]), BOOTED,
        ("keys", "1 3 2 ok"),  # Lobo 77, 3 players, seat 2 takes Dee: Ann Dee Cy
        ("keys", "undo ok ok 1"),  # back from the options to the names, on, P1 deals
        ("snap", "s")])[0]
    assert [p["name"] for p in snap["state"]["players"]] == ["Ann", "Dee", "Cy"]


def test_back_from_who_starts_of_a_game_without_options_reaches_the_names(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "4 3 ok"),  # factor race (no options), 3 players, names: who starts?
        ("keys", "undo undo 4 ok 1"),  # back to the names, to the count: 4 players, P1 starts
        ("snap", "s")])[0]
    assert [p["name"] for p in snap["state"]["players"]] == ["P1", "P2", "P3", "P4"]


def test_basta_setup_picks_who_starts_and_the_limit(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "2 3 ok 1 ok 2"), ("keys", "7 ok"), ("snap", "s")])[0]
    state = snap["state"]
    assert state["game"] == "basta"
    assert [p["name"] for p in state["players"]] == ["P2", "P3", "P1"]
    assert state["total"] == 7 and state["turn"] == 1  # P2 started


def test_player_count_outside_the_limits_is_refused_with_a_reason(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [BOOTED, ("keys", "2 9"), ("snap", "s")])[0]
    assert snap["screen"] == "NumberPrompt"
    assert snap["message"] == "2 to 6"
    assert snap["tunes"] == ["boot", "click", "error"]


def test_back_steps_out_of_setup_without_starting_a_game(micropython, tmp_path):
    snap = run_ui(micropython, tmp_path, [BOOTED, ("keys", "1 ok undo undo 2"), ("snap", "s")])[0]
    assert snap["screen"] == "NumberPrompt"  # back at the menu, then BASTA picked
    assert snap["state"] is None


def test_new_game_while_one_is_unfinished_asks_first(micropython, tmp_path):
    start = "1 ok ok ok ok 9 ok"
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", start + " menu 2"), ("snap", "asked"),
        ("keys", "undo"), ("snap", "kept"),
        ("keys", "menu 2 ok"), ("snap", "setup")]))
    assert snaps["asked"]["screen"] == "Confirm"
    assert snaps["kept"]["screen"] == "Play" and snaps["kept"]["state"]["total"] == 9
    assert snaps["setup"]["screen"] == "ListScreen"  # the game menu of a new setup
    assert snaps["setup"]["state"]["total"] == 9  # nothing replaced until the new game starts


def test_power_on_resumes_the_game_exactly_where_it_was(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "1 ok ok ok ok 9 ok a 5 ok 8 ok undo"), ("snap", "before"),
        ("reboot",), ("snap", "splash"), BOOTED, ("snap", "after"),
        ("keys", "undo!"), ("snap", "redone")]))
    before, after = snaps["before"], snaps["after"]
    assert snaps["splash"]["screen"] == "Splash"
    assert after["screen"] == "Play"
    assert after["state"] == before["state"]
    assert before["state"]["owed"] == 1  # second card of the 2x still owed
    assert snaps["redone"]["state"]["total"] == 22  # the undone 8 survives the reboot


def test_a_card_typed_during_the_splash_reaches_the_resumed_game(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "1 ok ok ok ok 9 ok"), ("reboot",), ("keys", "5 ok"), ("snap", "played"),
        ("reboot",), ("keys", "ok"), ("snap", "ok_only_skips")]))
    assert snaps["played"]["screen"] == "Play" and snaps["played"]["state"]["total"] == 14
    skipped = snaps["ok_only_skips"]  # `ok` never plays a card the player did not see
    assert skipped["screen"] == "Play" and skipped["state"]["total"] == 14
    assert skipped["message"] is None


def test_only_the_screens_and_the_engine_in_use_stay_loaded(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("snap", "menu"), ("keys", "3 ok"), ("snap", "mau_setup"),
        ("keys", "ok ok ok"), ("snap", "maumau"),
        ("keys", "menu 2 ok 1 3 ok ok ok"), ("snap", "lobo"), ("keys", "menu 1"), ("snap", "history"),
        ("keys", "ok"), ("snap", "back")]))
    loaded = {name: set(s["modules"]) for name, s in snaps.items()}
    setup = {"ui.setup", "ui.menu"}
    assert setup <= loaded["menu"] and "ui.play" not in loaded["menu"]
    assert {"ui.games.maumau", "rules.maumau"} <= loaded["mau_setup"]
    assert {"ui.play", "ui.games.maumau", "ui.pad", "rules.maumau"} <= loaded["maumau"]
    assert not setup & loaded["maumau"]
    # a game of another kind: the other game's screen module, its helper and engine are gone
    assert {"ui.play", "ui.games.lobo77", "rules.lobo77"} <= loaded["lobo"]
    assert not {"ui.games.maumau", "ui.pad", "rules.maumau"} & loaded["lobo"]
    assert not setup & loaded["lobo"]
    assert "ui.history" in loaded["history"] and "ui.play" not in loaded["history"]
    assert "ui.history" not in loaded["back"] and snaps["back"]["screen"] == "Play"
