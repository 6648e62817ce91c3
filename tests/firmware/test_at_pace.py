"""The firmware on a virtual board throttled to the ESP32's pace (croupier.sim.pace): a smoke
check of what a box on the table does, its results not its timing: setup, a card, an undo
by keys, and a sync."""
import time

import pytest

from croupier.sim import VirtualBoard
from fwlink import HEAP, frames_on
from synced import synced_game
from ui_run import card_keys, setup_keys, wait_for_screen, wait_until

PACED_TIMEOUT = 60  # s: a boot or a reply at the chip's speed on a busy 2-core host
QUIET_S = 0.5  # no I2C write for this long: the board has finished its frame


def settle(vb, timeout=PACED_TIMEOUT):
    """Wait until the display has been quiet for QUIET_S: the board is done drawing."""
    def quiet():
        before = vb.i2c_bytes
        time.sleep(QUIET_S)
        return vb.i2c_bytes == before

    wait_until(quiet, timeout, "the display to settle")


def press_watching(vb, keys):
    """Press keys as a player watching the screen: each one after the last one's frame."""
    for key in keys.split():
        before = vb.i2c_bytes
        vb.press(key)  # a player's press: 100 ms down
        wait_until(lambda: vb.i2c_bytes != before, PACED_TIMEOUT, "a frame after key %r" % key)
        settle(vb)


@pytest.fixture
def paced():
    """A board at the ESP32's pace past its splash, and frames on its serial port."""
    with VirtualBoard(heap=HEAP, pace="esp32") as vb:
        vb.wait_boot(timeout=PACED_TIMEOUT)
        wait_for_screen(vb, "game_menu", timeout=PACED_TIMEOUT)
        settle(vb)
        with frames_on(vb.port) as link:
            yield vb, link


def test_setup_a_card_undo_and_a_sync_at_pace(paced, tmp_path, capsys):
    vb, link = paced
    press_watching(vb, setup_keys("lobo77", 4, {}))
    press_watching(vb, card_keys("lobo77", "5") + " " + card_keys("lobo77", "7") + " undo")
    state = wait_until(lambda: (link.ok("state")["state"] or {}).get("total") == 5 and link.ok("state")["state"],
                       PACED_TIMEOUT, "the 5 alone on the table after the undo")
    link.port.close()
    game, _ = synced_game(vb.port, tmp_path, capsys)
    assert game["game"] == "lobo77" and game["final_state"] == state
    assert vb.rx_overflow == 0
