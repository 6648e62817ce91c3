"""Deploy planning and board detection: the parts that need no board."""
import pytest

from croupier.deploy import _folders, chip_in, plan
from croupier.link import LinkError
from croupier.ports import bridge_name, choose_board


def test_plan_copies_only_what_differs_and_removes_stale_files():
    wanted = {"main.py": "a", "croupier/app.mpy": "b", "croupier/ui/menu.mpy": "c"}
    present = {"main.py": "a", "croupier/app.mpy": "old", "croupier/app.py": "x"}
    copy, stale, unchanged = plan(wanted, present)
    assert copy == ["croupier/app.mpy", "croupier/ui/menu.mpy"]
    assert stale == ["croupier/app.py"]  # a stale .py would shadow the new .mpy
    assert unchanged == 1
    assert plan(wanted, dict(wanted)) == ([], [], 3)


def test_folders_are_created_parents_first():
    assert _folders(["main.py", "croupier/ui/menu.mpy", "boards/sim.mpy"]) == ["boards", "croupier", "croupier/ui"]


def test_the_chip_is_read_from_what_esptool_says():
    v5 = "Connecting....\nDetecting chip type... ESP32-S3\nChip type:          ESP32-S3 (QFN56) (revision v0.2)\n"
    v4 = "Connecting.....\nDetecting chip type... Unsupported detection protocol, switching and trying again...\n" \
         "Detecting chip type... ESP32\nChip is ESP32-D0WD-V3 (revision v3.1)\n"
    assert chip_in(v5) == "ESP32-S3"
    assert chip_in(v4) == "ESP32"
    assert chip_in("A fatal error occurred: Failed to connect to Espressif device") is None


def test_boards_are_recognised_by_usb_bridge():
    assert bridge_name(0x10C4, 0xEA60) == "CP210x"
    assert bridge_name(0x1A86, 0x55D4) == "CH9102"
    assert bridge_name(0x1A86, 0x7523) == "CH340"
    assert bridge_name(0x0403, 0x6001).startswith("FTDI")
    assert bridge_name(0x303A, 0x1001) == "Espressif native USB"
    assert bridge_name(0x046D, 0xC52B) is None and bridge_name(None, None) is None


def test_the_only_board_is_picked_and_none_or_several_are_explained():
    mouse = ("/dev/ttyS0", None, "serial")
    board = ("/dev/ttyUSB0", "CP210x", "CP2102")
    other = ("/dev/ttyACM0", "Espressif native USB", "ESP32-S3")
    assert choose_board([mouse, board]) == "/dev/ttyUSB0"
    with pytest.raises(LinkError, match="no ESP32 board found"):
        choose_board([mouse])
    with pytest.raises(LinkError, match=r"several ESP32 boards found \(/dev/ttyUSB0, /dev/ttyACM0\)"):
        choose_board([board, other])


def test_ports_command_lists_what_the_machine_has(capsys):
    from croupier.cli import main

    assert main(["ports"]) == 0
    out = capsys.readouterr().out
    assert "Serial ports" in out or "no serial ports found" in out
