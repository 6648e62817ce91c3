"""The play screen reads at a glance: chips apart, a big 1 that is a 1, what a 2x turn still
owes, reasons wrapped inside the screen, titles clear of its edge."""
from ui_run import lit, play_booted as play

LOBO4 = ("keys", "1 4 ok ok ok")  # Lobo 77, P1..P4, 3 tokens, P1 deals, P2 opens
CHIPS_Y, CHIP_ROW = 8, 8
GAP_X = 93  # the two columns of dark pixels between the chips of a row
ENTRY = (0, 40, 128, 16)  # the entry rows: preview, seat prompt, what is still owed


def test_the_chips_of_a_row_stand_apart(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "9 ok"), ("snap", "s"))
    fb = s["s"]["fb"]
    # P2's turn: its chip is lit all over, P1's badge is lit; neither reaches the gap
    assert lit(fb, 61, CHIPS_Y, 32, 2 * CHIP_ROW) > 0 and lit(fb, 95, CHIPS_Y, 32, 2 * CHIP_ROW) > 0
    assert lit(fb, GAP_X, CHIPS_Y, 2, 2 * CHIP_ROW) == 0
    assert lit(fb, 127, CHIPS_Y, 1, 2 * CHIP_ROW) == 0, "the right chips stop short of the edge"


def test_a_big_1_has_a_flag_and_a_base(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "1 1 ok ok"), ("snap", "s"))
    fb = s["s"]["fb"]
    assert s["s"]["state"]["total"] == 11
    right = 58  # TOTAL_RIGHT: the units digit ends there, the tens digit 20 px before
    for left in (right - 16, right - 36):
        assert lit(fb, left + 2, 8 + 20, 12, 4) == 12 * 4, "a base under the stem"
        assert lit(fb, left + 6, 8, 4, 24) == 4 * 24, "a stem in the middle"
        assert lit(fb, left + 2, 8 + 2, 4, 4) == 4 * 4, "a flag at its top left"
        assert lit(fb, left + 12, 8, 4, 18) == 0, "not the right-hand bar of a seven-segment 1"


def test_after_the_first_card_of_a_2x_turn_the_screen_says_one_more_is_owed(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "9 ok a"), ("snap", "owes_two"),
             ("keys", "5 ok"), ("snap", "one_more"), ("keys", "ok"), ("snap", "ended"))
    assert s["owes_two"]["state"]["owed"] == 2 and lit(s["owes_two"]["fb"], *ENTRY) == 0
    one_more = s["one_more"]
    assert one_more["state"]["owed"] == 1 and one_more["state"]["turn"] == s["owes_two"]["state"]["turn"]
    assert lit(one_more["fb"], *ENTRY) > 0, "one more card is owed: the entry row says so"
    ended = s["ended"]
    assert ended["inputs"] == ["9", "2x", "5", "end"] and lit(ended["fb"], *ENTRY) == 0


def test_ok_before_the_first_card_of_a_2x_turn_is_refused(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "9 ok a"), ("snap", "before"),
             ("keys", "ok"), ("snap", "refused"))
    before, refused = s["before"], s["refused"]
    assert refused["message"] == "a turn plays at least one card" and refused["tunes"] == ["error"]
    assert refused["state"] == before["state"] and refused["inputs"] == ["9", "2x"]


def test_a_long_reason_wraps_inside_its_box(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "a a"), ("snap", "s"))
    refused = s["s"]
    assert refused["message"] == "the first of two cards cannot be 2x"
    fb = refused["fb"]
    # the box's frame runs down columns 0 and 127; the text keeps a column clear inside
    assert lit(fb, 0, 20, 1, 20) == 20 and lit(fb, 127, 20, 1, 20) == 20
    assert lit(fb, 1, 20, 1, 20) == 0 and lit(fb, 126, 20, 1, 20) == 0
    assert lit(fb, 8, 20, 112, 30) > 3 * 40, "three lines of text, none cut off"


def test_an_illegal_entry_shows_its_whole_reason(micropython, tmp_path):
    s = play(micropython, tmp_path, ("keys", "3 3 ok ok ok"), ("keys", "1 5"), ("snap", "s"))
    lines = s["s"]["preview"]
    assert " ".join(lines) == '15 -> ? unknown card "15"; ranks are 2-10, J:x, Q, K, A, or draw'
    assert all(len(line) <= 16 for line in lines)


def test_the_history_title_keeps_clear_of_the_edge(micropython, tmp_path):
    s = play(micropython, tmp_path, LOBO4, ("keys", "9 ok 1 0 ok a 0 ok menu 1"), ("snap", "s"))
    fb = s["s"]["fb"]
    assert lit(fb, 0, 0, 128, 9) > 0
    assert lit(fb, 126, 0, 2, 9) == 2 * 9, "the title bar's last columns hold no text"
