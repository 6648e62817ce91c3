"""Acceptance on the virtual board, through key presses only: the whole firmware (keypad
scan, UI, controller, journal on littlefs, display driver) plays whole games to the rules
engine's winners, and shows the reviewed screens on the way."""
import pytest

from ui_run import (board_heap, game_keys, press_keys, random_game, setup_keys, wait_for_screen,
                    wait_until)

sim = pytest.importorskip("croupier.sim", reason="virtual board not built yet")


@pytest.fixture
def vb():
    with sim.VirtualBoard(heap=board_heap()) as board:
        board.wait_boot(timeout=20)
        wait_for_screen(board, "game_menu", timeout=15)  # after the splash
        yield board


def device_state(frames):
    return frames.ok("state")["state"]


def wait_for_end(frames, timeout=20):
    """The device's state once its game is over (read over the link)."""
    return wait_until(lambda: (lambda s: s if s and s["over"] else None)(device_state(frames)),
                      timeout, "the game to end")


@pytest.fixture
def link(vb):
    """Read-only look at the game over the serial protocol (inputs go through keys only)."""
    serial = pytest.importorskip("serial")
    from fwlink import Frames

    with serial.Serial(vb.port, 115200, timeout=0.1) as port:
        yield Frames(port)


@pytest.mark.parametrize("game, count, options, seed", [
    ("lobo77", 3, {"tokens": 1}, 5),
    ("basta", 3, {"limit": 2}, 6),
])
def test_whole_game_by_keys_on_the_board_ends_with_the_right_winner(vb, link, game, count,
                                                                    options, seed):
    cards, engine, effects = random_game(game, count, options, seed)
    expected = engine.state()
    press_keys(vb, setup_keys(game, count, options))
    press_keys(vb, game_keys(game, cards, effects))
    state = wait_for_end(link)
    assert state == expected
    assert state["winners"] == expected["winners"]


def test_first_card_of_default_lobo_and_screens_on_the_board(vb):
    press_keys(vb, "1 ok ok ok ok")  # no roster on a fresh board: P1..P4
    press_keys(vb, "9 ok")
    wait_for_screen(vb, "board_lobo_first_card")
    press_keys(vb, "a a")  # a second 2x as the first of two cards: refused
    wait_for_screen(vb, "board_illegal")
    assert vb.tones  # click and error buzz went out on the PWM pin
