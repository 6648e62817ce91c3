"""The box speaks (docs/at-the-table.md "What the box says") on the virtual board with the
synthesized voices on its flash: what its speaker plays is the bank's recordings of the
expected words, in order, for cards from the keypad and the link, undo and redo; a new card
cuts the announcement playing; keys typed while it speaks are handled in order; the voice's
settings survive a power cut; voice off is silence.

Silence is left out when comparing (the recording keeps the pauses between announcements);
every sample that is not silence must be the expected word's, at the volume's shift.
"""
import time
from array import array

import pytest

from croupier.rules import new_game
from croupier.sim import VirtualBoard
from croupier.voice import bank
from croupier.voice.board import NAMES, put
from croupier.voice.defaults import names_bank
from fwlink import HEAP, frames_on
from spoken import SHIFT, said, voiced
from ui_run import (BOOTED, by_name, golden_pixels, pixels, press_keys, run_ui, wait_for_screen,
                    wait_until)

SAID_S = 15  # an announcement is said within this (a few seconds of speech, at most)
LOBO4 = "1 ok ok ok ok"  # Lobo 77, P1..P4 (no roster: seats are said "joueur deux")
# The scripted Lobo 77 game: keys, then what the box says after them.
GAME = [
    ("9 ok", ["neuf"]),
    ("1 0 ok", ["dix", "neuf"]),
    ("3 ok", ["vingt", "deux", "doublet", "joueur", "quatre", "paie", "un", "jeton"]),
    ("5 0 ok", ["soixante", "douze"]),
    ("5 ok", ["soixante", "dix", "sept", "joueur", "deux", "paie", "un", "jeton",
              "joueur", "trois", "commence"]),  # 77: the round ends, P3 starts the next
    ("6 6 ok", ["soixante", "six", "doublet", "joueur", "trois", "paie", "un", "jeton"]),
]


def wait_said(vb, expected):
    """Until everything the speaker played equals expected (silence left out)."""
    wait_until(lambda: voiced(vb.audio.pcm()) == expected, SAID_S,
               "the speaker to say %d samples" % len(expected))


@pytest.fixture
def speaking():
    """A fresh virtual board with the synthesized voices, past its splash."""
    with VirtualBoard(heap=HEAP, voices=True) as board:
        board.wait_boot(timeout=20)
        wait_for_screen(board, "game_menu", timeout=15)
        yield board


def test_a_scripted_lobo_game_says_each_total_in_the_bank_recordings(speaking):
    press_keys(speaking, LOBO4)
    expected = array("h")
    for keys, words in GAME:
        press_keys(speaking, keys)
        expected += said(words)
        wait_said(speaking, expected)


def test_cards_over_the_link_and_undo_are_said_too(speaking):
    with frames_on(speaking.port) as frames:
        frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy", "Dee"])
        frames.ok("play", card="9")
        wait_said(speaking, said(["neuf"]))
        frames.ok("play", card="10")
        wait_said(speaking, said(["neuf"]) + said(["dix", "neuf"]))
    press_keys(speaking, "undo")  # back to 9
    wait_said(speaking, said(["neuf"]) + said(["dix", "neuf"]) + said(["neuf"]))
    press_keys(speaking, "undo!")  # held: redo, 19 again
    wait_said(speaking, said(["neuf"]) + said(["dix", "neuf"]) + said(["neuf"])
              + said(["dix", "neuf"]))


def test_a_seat_is_said_by_its_players_recorded_name(speaking):
    names = ["Ann", "Bob", "Cy", "Dee"]
    recorded = names_bank(["Bob", "Dee"], "fr")  # Ann and Cy have no recording
    put(speaking.port, {NAMES: recorded})  # as `croupier roster` does; the board resets
    wait_for_screen(speaking, "game_menu", timeout=20)
    with frames_on(speaking.port) as frames:
        frames.ok("roster", names=names)
    press_keys(speaking, LOBO4 + " 9 ok 1 0 ok 3 ok")  # Dee's 22: a doublet
    spoken = dict(bank.read(recorded)[1])
    expected = said(["vingt", "deux", "doublet"]) + voiced(spoken["Dee"], SHIFT) \
        + said(["paie", "un", "jeton"])
    wait_until(lambda: voiced(speaking.audio.pcm())[-len(expected):] == expected, SAID_S,
               "Dee's doublet said with her name")


def test_a_new_card_cuts_the_announcement_playing(speaking):
    press_keys(speaking, LOBO4)
    long = said(["trente", "trois", "doublet", "joueur", "deux", "paie", "un", "jeton"])
    short = said(["trente", "quatre"])
    press_keys(speaking, "3 3 ok 1 ok")  # 34 is typed while 33's doublet is said
    wait_until(lambda: voiced(speaking.audio.pcm())[-len(short):] == short, SAID_S,
               "34 said after the cut")
    played = voiced(speaking.audio.pcm())
    cut = played[:-len(short)]
    assert len(cut) < len(long)  # 33's announcement did not finish ...
    assert cut == long[:len(cut)]  # ... what of it was said came first, as recorded


def test_keys_typed_while_the_box_speaks_are_handled_in_order(speaking):
    press_keys(speaking, LOBO4)
    press_keys(speaking, " ".join(keys for keys, _ in GAME))  # no wait for any announcement
    last = said(GAME[-1][1])
    wait_until(lambda: voiced(speaking.audio.pcm())[-len(last):] == last, SAID_S,
               "the last card's announcement")
    game = new_game("lobo77", ["P1", "P2", "P3", "P4"], {})
    for card in ("9", "10", "3", "50", "5", "66"):
        game.play(card)
    with frames_on(speaking.port) as frames:
        assert frames.ok("state")["state"] == game.state()


def test_voice_off_survives_a_power_cycle_and_is_silent(speaking):
    press_keys(speaking, "6 1 2")  # the voice menu: voice off, English
    power_cycle(speaking, 2)
    press_keys(speaking, "6 b")
    wait_for_screen(speaking, "voice_menu")  # off, English, cursor on row 2: as left
    press_keys(speaking, "undo " + LOBO4 + " 9 ok")
    wait_for_screen(speaking, "board_lobo_first_card")
    time.sleep(1)  # speech would have begun 150 ms after that frame
    assert voiced(speaking.audio.pcm()) == array("h")


@pytest.mark.parametrize("write", [1, 2, 3, 4])
def test_a_power_cut_while_a_setting_is_stored_keeps_old_or_new(speaking, micropython,
                                                                  tmp_path, write):
    voice_on = pixels(by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "6 2"), ("snap", "on")]))["on"]["fb"])  # on, English, row 2
    press_keys(speaking, "6 2")  # English, stored
    speaking.cut_power(after_writes=write)
    press_keys(speaking, "1")  # voice off: the cut strikes one of its writes (or none)
    time.sleep(0.5)
    if speaking.powered:
        speaking.power_off()
    power_cycle(speaking, 2)
    press_keys(speaking, "6 b")
    wait_until(lambda: pixels(speaking.glass()) in (voice_on, golden_pixels("voice_menu")),
               5, "the voice menu with English, voice on or off")


def power_cycle(vb, boots):
    vb.power_off()
    vb.wait_off()
    vb.restart()
    vb.wait_boot(count=boots, timeout=20)
    wait_for_screen(vb, "game_menu", timeout=15)


def test_english_once_chosen(speaking):
    press_keys(speaking, "6 2 undo " + LOBO4 + " 9 ok")
    wait_said(speaking, said(["nine"], "en"))
    press_keys(speaking, "1 0 ok")
    wait_said(speaking, said(["nine"], "en") + said(["nineteen"], "en"))
