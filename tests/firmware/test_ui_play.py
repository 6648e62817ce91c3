"""The play screen: card entry, preview, soft keys, refusals, undo/redo, announcements,
history, and inputs arriving over the link."""
import json

from ui_run import BOOTED, by_name, lit, play_booted as play, run_ui

LOBO3 = ("keys", "1 3 ok ok ok")  # Lobo 77, P1 P2 P3, 3 tokens, P1 deals, P2 opens
BASTA3 = ("keys", "2 3 ok ok ok")  # BASTA, P1 P2 P3, limit 4, P1 starts


def test_typing_previews_the_result_before_ok(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "1 0 ok 9 ok 3"), ("snap", "typed"),
             ("keys", "ok"), ("snap", "played"))
    typed, played = s["typed"], s["played"]
    assert typed["preview"] == ["3 -> 22 DOUBLET!", "P1 pays a token"]
    assert typed["state"]["total"] == 19  # nothing played yet
    assert played["state"]["total"] == 22
    assert played["state"]["players"][0]["tokens"] == 2
    assert played["news"] == ["DOUBLET!"] and played["tunes"] == ["doublet"]


def test_a_card_that_ends_the_round_previews_the_total_it_reaches(micropython, tmp_path):
    (tmp_path / "lobo").mkdir()
    s = play(micropython, tmp_path / "lobo", LOBO3, ("keys", "6 6 ok ok 1 5"), ("snap", "lobo"))
    assert s["lobo"]["preview"] == ["15 -> 81 77!", "P3 pays a token"]  # 66 + 15, not 0
    (tmp_path / "basta").mkdir()
    s = play(micropython, tmp_path / "basta", BASTA3, ("keys", "4 0 ok 2 0"), ("snap", "basta"))
    assert s["basta"]["preview"][0] == "20 -> 60 OVER 50"


def test_undo_while_typing_deletes_a_digit_and_the_preview_follows(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "4 4 undo"), ("snap", "s"))
    assert s["s"]["preview"] == ["4 -> 4"]
    assert s["s"]["inputs"] == []


def test_illegal_card_buzzes_shows_the_reason_and_changes_nothing(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "a"), ("snap", "before"),
             ("keys", "a"), ("snap", "refused"), ("tick", 2100), ("snap", "later"))
    before, refused = s["before"], s["refused"]
    assert refused["state"] == before["state"] and refused["inputs"] == ["2x"]
    assert refused["tunes"] == ["error"]
    assert "2x" in refused["message"]
    assert lit(refused["fb"], 4, 23, 120, 16) > 0  # the reason is on screen
    assert s["later"]["message"] is None


def test_a_finished_game_shows_no_soft_keys_and_refuses_them(micropython, tmp_path):
    # Lobo 77, 2 players with 1 token: P1 busts three times and is out, P2 wins
    s = play(micropython, tmp_path, ("keys", "1 2 ok 1 1 1 ok ok 1 1 ok ok 1 1 ok ok 1 1 ok"),
             ("tick", 1600), ("tick", 1600), ("keys", "ok"), ("snap", "over"),  # ok closes WINNER
             ("keys", "a"), ("snap", "refused"))
    over, refused = s["over"], s["refused"]
    assert over["state"]["over"] and over["news"] == []
    assert lit(over["fb"], 0, 56, 128, 8) == 128 * 8 - 2 * 8  # the bar: lit but for its two dividers
    assert refused["message"] == "game over" and refused["tunes"] == ["error"]
    assert refused["state"] == over["state"] and refused["inputs"] == over["inputs"]


def test_lobo_soft_keys_and_empty_ok_ends_a_two_card_turn(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "5 0 ok a b ok c"), ("snap", "s"))
    # P2 50, P3 2x, P1 -10 then ends the turn early, P2 rev
    assert s["s"]["inputs"] == ["50", "2x", "-10", "end", "rev"]
    state = s["s"]["state"]
    assert state["total"] == 40 and state["dir"] == -1 and state["turn"] == 0


def test_basta_action_page_and_seat_choice(micropython, tmp_path):
    s = play(micropython, tmp_path, BASTA3, ("snap", "set"),
             ("keys", "c a"), ("snap", "asking"),
             ("keys", "3"), ("snap", "doubled"),
             ("keys", "c b ok c b 1 c c a b 4 ok"), ("snap", "later"))
    assert s["asking"]["inputs"] == [] and s["asking"]["tunes"] == ["click", "click"]
    assert s["doubled"]["inputs"] == ["dbl:2"]
    assert s["doubled"]["state"]["players"][2]["double"] is True
    # P2 swaps (no seat), P3 owes two: swaps with P1, then rev; P2 basta; P1 -5 and 4
    assert s["later"]["inputs"] == ["dbl:2", "swap", "swap:0", "rev", "basta", "-5", "4"]
    assert s["later"]["state"]["total"] == 49


def test_seat_choice_refuses_a_seat_that_does_not_exist(micropython, tmp_path):
    s = play(micropython, tmp_path, BASTA3, ("keys", "c a 7"), ("snap", "s"))
    assert s["s"]["inputs"] == [] and s["s"]["message"] == "no seat 7"


def test_undo_and_redo_cross_round_ends(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "6 6 ok ok"), ("snap", "66"),
             ("keys", "1 1 ok"), ("snap", "bust"),
             ("tick", 1600), ("snap", "round_end"), ("tick", 5000), ("snap", "still"),
             ("keys", "ok"), ("snap", "round2"),
             ("keys", "undo undo"), ("snap", "undone"),
             ("keys", "undo! undo!"), ("snap", "redone"))
    assert s["bust"]["news"] == ["77!", "ROUND 2"]
    assert s["bust"]["tunes"] == ["click", "click", "bust"]
    assert s["round_end"]["news"] == ["ROUND 2"] and s["round_end"]["tunes"] == ["round_end"]
    assert s["still"]["news"] == ["ROUND 2"]  # stays until a key
    assert s["round2"]["news"] == [] and s["round2"]["state"]["round"] == 2
    assert s["undone"]["state"]["round"] == 1 and s["undone"]["state"]["total"] == 0
    assert s["undone"]["inputs"] == []
    assert s["redone"]["state"] == s["round2"]["state"]


def test_typing_during_an_announcement_is_not_lost(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "1 1 ok 5 ok"), ("snap", "s"))
    assert s["s"]["inputs"] == ["11", "5"]


def test_swimming_and_elimination_each_announce_with_their_tune(micropython, tmp_path):
    # 2 players with 1 token: P2 11 (doublet, swims), P1 11 (doublet, swims), P2 11 (out)
    s = play(micropython, tmp_path, ("keys", "1 2 ok 1 1 1 ok ok"),
             ("keys", "1 1 ok"), ("snap", "swim"), ("tick", 1600), ("snap", "swim2"),
             ("keys", "ok 1 1 ok ok 1 1 ok"), ("snap", "out"))
    assert s["swim"]["news"] == ["DOUBLET!", "SWIMMING"]
    assert s["swim2"]["tunes"] == ["swimming"]
    assert s["out"]["news"] == ["DOUBLET!", "OUT", "WINNER"]
    assert s["out"]["state"]["over"] and s["out"]["state"]["winners"] == [0]


def test_history_lists_the_rounds_cards(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "1 0 ok 9 ok a"),
             ("keys", "menu 1"), ("snap", "history"), ("keys", "ok"), ("snap", "back"))
    assert s["history"]["screen"] == "History"
    assert lit(s["history"]["fb"], 0, 10, 128, 27) > 0  # three rows
    assert lit(s["history"]["fb"], 0, 37, 128, 27) == 0
    assert s["back"]["screen"] == "Play"


def test_inputs_over_the_link_are_announced_like_keys(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("snap", "set"), ("link", "play", "11"),
             ("snap", "s"),
             ("link", "new", "basta", ["Ann", "Bob"]), ("snap", "new"))
    assert s["s"]["news"] == ["DOUBLET!"] and s["s"]["tunes"] == ["doublet"]
    assert s["new"]["screen"] == "Play" and s["new"]["state"]["game"] == "basta"


def test_a_new_game_refused_over_the_link_gives_back_the_game_on_screen(micropython, tmp_path):
    # the play screen makes room for the new game first; refused, the splash times out back
    out = run_ui(micropython, tmp_path, [
        BOOTED, LOBO3, ("keys", "9 ok 4"), ("link", "new", "basta", ["Ann"]),
        ("snap", "refused"), ("tick", 1200), ("snap", "back")])
    assert [o["link_error"] for o in out if "link_error" in o] == ["basta takes 2 to 6 players, not 1"]
    s = by_name(out)
    assert s["refused"]["screen"] == "Splash"
    assert "ui.play" not in s["refused"]["modules"]
    assert s["back"]["screen"] == "Play" and s["back"]["inputs"] == ["9"]
    assert "rules.basta" not in s["back"]["modules"]
    assert s["back"]["state"]["game"] == "lobo77" and s["back"]["state"]["total"] == 9


def test_a_game_started_over_the_link_during_the_splash_keeps_the_typed_card(micropython,
                                                                             tmp_path):
    # the splash's timeout passes while "3" is typed: it must not reopen the play screen
    s = by_name(run_ui(micropython, tmp_path, [
        ("link", "new", "lobo77", ["Ann", "Bob", "Cy"]), ("keys", "9 ok 3"), ("tick", 1500),
        ("keys", "ok"), ("snap", "s")]))
    assert s["s"]["inputs"] == ["9", "3"] and s["s"]["screen"] == "Play"


def test_ok_just_after_an_announcement_went_by_itself_only_closes_it(micropython, tmp_path):
    # P2 2x; P3's first card makes 11: the doublet goes by itself, then P3 presses `ok` to
    # close it; only a later `ok` ends P3's turn early
    s = play(micropython, tmp_path, LOBO3, ("keys", "a 1 1 ok"), ("tick", 1600),
             ("keys", "ok"), ("snap", "closed"), ("tick", 1200), ("keys", "ok"),
             ("snap", "ended"))
    assert s["closed"]["inputs"] == ["2x", "11"] and s["closed"]["message"] is None
    assert s["ended"]["inputs"] == ["2x", "11", "end"]


def test_redrawing_a_screen_that_did_not_change_allocates_nothing(micropython, tmp_path):
    # what the refresh task redraws: the table, a preview, a refusal, an announcement
    out = run_ui(micropython, tmp_path, [
        BOOTED, LOBO3, ("keys", "9 ok"), ("draw_locked", "table"),
        ("keys", "4"), ("draw_locked", "preview"), ("keys", "ok a a"), ("draw_locked", "refusal"),
        ("keys", "9 ok"), ("draw_locked", "announcement"), ("snap", "s")])
    locked = {o["draw_locked"]: o["allocates"] for o in out if "draw_locked" in o}
    assert locked == {"table": False, "preview": False, "refusal": False, "announcement": False}
    assert by_name(out)["s"]["news"] == ["DOUBLET!"]


def test_a_total_too_wide_for_big_digits_is_shown_small_beside_the_chips(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO3, ("keys", "b " * 9), ("snap", "-90"),
             ("keys", "b"), ("snap", "-100"))
    assert s["-100"]["state"]["total"] == -100
    assert lit(s["-90"]["fb"], 0, 8, 60, 8) > 0  # "-90": big digits from the top row
    assert lit(s["-100"]["fb"], 0, 8, 60, 8) == 0  # "-100": one text row lower, small
    assert lit(s["-100"]["fb"], 0, 16, 40, 8) > 0


TIMEOUTS = r'''
import json
from croupier.controller import Controller
from croupier.journal import Journal
from croupier.ui.root import Ui

class Tunes:
    def play(self, name):
        pass

clock = [0]
controller = Controller(Journal("journal"))
ui = Ui(controller, Tunes(), clock=lambda: clock[0])
out = []
ui.splash(0)
out.append(["splash", ui.next_timeout(0), ui.next_timeout(1000), ui.next_timeout(5000)])
ui.tick(1200)  # the splash is over: the game menu, nothing can time out
out.append(["menu", ui.next_timeout(1200)])
controller.new("lobo77", ["Ann", "Bob", "Cy"])
clock[0] = 4000  # a doublet from the link, read on the Ui's own clock
controller.play("11")
out.append(["doublet", ui.next_timeout(4000), ui.next_timeout(4400)])
ui.tick(5500)  # the announcement went by itself
out.append(["gone", ui.next_timeout(5500)])
clock[0] = 6000  # too many digits: a refusal, shown for 2 s from the key
for _ in range(4):
    ui.key("9", False)
out.append(["error", ui.next_timeout(6000), ui.next_timeout(7500)])
ui.tick(8000)
out.append(["idle", ui.next_timeout(8000)])
print(json.dumps(out))
'''


def test_the_ui_says_when_it_next_times_out_and_nothing_while_idle(mpy):
    """The app ticks the UI only when next_timeout says something is due; without a
    timeout pending (a menu, the play screen) it sleeps."""
    assert json.loads(mpy(TIMEOUTS)) == [
        ["splash", 1200, 200, 0], ["menu", None], ["doublet", 1500, 1100], ["gone", None],
        ["error", 2000, 500], ["idle", None]]
