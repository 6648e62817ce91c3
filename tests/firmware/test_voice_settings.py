"""The voice's settings on the box's menu (docs/at-the-table.md "The voice"): changed with
the keypad, kept across power-offs, a damaged file read as the defaults."""
from ui_run import BOOTED, by_name, golden_pixels, pixels, run_ui


def test_voice_settings_survive_a_power_cycle(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "6 1 2"),  # voice off, English
        ("reboot",), BOOTED, ("keys", "6 b"),  # the voice menu again, cursor on row 2
        ("snap", "after")]))
    assert pixels(snaps["after"]["fb"]) == golden_pixels("voice_menu")


def test_the_voice_menu_from_a_game_in_play_goes_back_to_the_menu(micropython, tmp_path):
    snaps = by_name(run_ui(micropython, tmp_path, [
        BOOTED, ("keys", "1 ok ok ok ok 9 ok menu 4 3 3"), ("snap", "voice"),
        ("keys", "undo"), ("snap", "menu"), ("keys", "3"), ("snap", "game")]))
    assert snaps["voice"]["screen"] == "ListScreen"
    assert snaps["menu"]["screen"] == "ListScreen"
    assert snaps["game"]["screen"] == "Play"
    assert snaps["game"]["state"]["total"] == 9  # the game untouched


def test_settings_read_back_and_refuse_bad_values(mpy):
    out = mpy("""
from croupier import settings
print(settings.load("none"))
with open("bad", "w") as f:
    f.write('{"voice": 1, "lang": "de", "volume": 3')  # cut short by a power cut
print(settings.load("bad"))
with open("odd", "w") as f:
    f.write('{"voice": 1, "lang": "de", "volume": 3}')
print(settings.load("odd"))
settings.save("s", {"voice": False, "lang": "en", "volume": 1})
print(settings.load("s"))
try:
    settings.save("s", {"voice": False, "lang": "de", "volume": 1})
except ValueError as e:
    print(e)
print(settings.load("s"))
""")
    lines = [eval(line) if line.startswith("{") else line for line in out.splitlines()]
    defaults = {"voice": True, "lang": "fr", "volume": 2}
    assert lines[0] == defaults
    assert lines[1] == defaults
    assert lines[2] == {"voice": True, "lang": "fr", "volume": 3}
    assert lines[3] == {"voice": False, "lang": "en", "volume": 1}
    assert lines[4] == "bad setting lang: 'de'"
    assert lines[5] == lines[3]
