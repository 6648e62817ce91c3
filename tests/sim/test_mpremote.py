"""Acceptance: stock mpremote and pyserial against a virtual board, files in a real image."""
import signal

import pytest
import serial

from croupier.sim import VirtualBoard, toolchain
from image_files import read_files
from mpremote_run import mpremote


def test_exec_cp_ls_and_files_survive_resets_and_restarts(make_board, tmp_path):
    board = make_board(link=tmp_path / "tty")
    assert mpremote(board.link, "exec", "print(6 * 7)").strip() == "42"
    long_code = "x = 0\n" + "x += 1\n" * 600 + "print(x)"  # 4 KB: raw-paste flow control, window by window
    assert mpremote(board.link, "exec", long_code).strip() == "600"
    source = tmp_path / "notes.txt"
    source.write_bytes(b"line\n" * 300)
    mpremote(board.link, "fs", "cp", str(source), ":notes.txt")
    assert "1500 notes.txt" in mpremote(board.link, "fs", "ls")
    assert read_files(board.flash)["/notes.txt"] == b"line\n" * 300

    mpremote(board.link, "soft-reset")
    mark = board.mark()
    mpremote(board.link, "reset")  # machine.reset() after 100 ms: a new interpreter, flash kept
    board.wait_output(b'Type "help()"', since=mark)  # its friendly REPL banner
    assert mpremote(board.link, "exec", "import machine; print(machine.reset_cause())").strip() == "5"
    boots = board.boots
    board.hard_reset()
    board.wait_boot(boots + 1)
    assert "1500 notes.txt" in mpremote(board.port, "fs", "ls")
    image = board.flash
    board.close()

    with VirtualBoard(flash=image) as again:  # the same image on a new virtual board
        again.wait_boot()
        assert mpremote(again.port, "exec", "print(open('notes.txt').read().count('line'))").strip() == "300"


def test_pyserial_friendly_repl_ctrl_c_and_soft_reboot(make_board):
    board = make_board()
    with serial.Serial(board.port, 115200, timeout=5) as port:
        port.write(b"\r")
        assert port.read_until(b">>> ").endswith(b">>> ")
        port.write(b"for i in range(3):\r")
        assert port.read_until(b"... ").endswith(b"... ")  # a compound statement continues
        port.write(b"    print(i * 11)\r\r")
        assert b"0\r\n11\r\n22\r\n>>> " in port.read_until(b"22\r\n>>> ")
        port.write(b"def spin():\r")
        port.write(b"    print('spinning')\r    while True: pass\r\r")
        port.read_until(b">>> ")
        port.write(b"spin()\r")
        port.read_until(b"spinning\r\n")
        port.write(b"\x03")  # Ctrl-C interrupts the running loop
        assert b"KeyboardInterrupt" in port.read_until(b">>> ")
        mark = board.mark()
        port.write(b"\x04")  # Ctrl-D at the prompt: soft reboot
        assert port.read_until(b">>> ").count(b"MPY: soft reboot\r\n") == 1
        board.wait_boot(2)
        assert board.output(mark).count(b"MicroPython v") == 1


def test_raw_repl_soft_reset_stays_raw_and_skips_main(make_board):
    board = make_board(main="print('main ran')", files={"boot.py": "print('boot ran')"})
    board.wait_output(b"main ran")
    with serial.Serial(board.port, timeout=5) as port:
        port.write(b"\r\x01")
        assert port.read_until(b"raw REPL; CTRL-B to exit\r\n>").endswith(b"raw REPL; CTRL-B to exit\r\n>")
        port.write(b"print('in raw')\x04")
        assert port.read_until(b"\x04>") == b"OKin raw\r\n\x04\x04>"
        port.write(b"\x04")  # Ctrl-D with no code: soft reset, back in the raw REPL
        text = port.read_until(b"raw REPL; CTRL-B to exit\r\n>")
        assert text.startswith(b"OK\r\nMPY: soft reboot\r\n") and b"boot ran" in text and b"main ran" not in text
        port.write(b"import machine; machine.soft_reset()\x04")
        assert port.read_until(b"raw REPL; CTRL-B to exit\r\n>").startswith(b"OK\x04\x04MPY: soft reboot")

@pytest.fixture
def esp32_ctrl_c():
    """Skips unless the board takes the host's Ctrl-C as the ESP32 does (the wheel's unix port,
    through croupier.sim.unixport); a port built by hand raises it inside C code
    (docs/virtual-board.md, "Not modelled")."""
    if toolchain.unix_port().interrupt != signal.SIGUSR1:
        pytest.skip("a unix port built by hand has its own Ctrl-C")


@pytest.mark.usefixtures("esp32_ctrl_c")
def test_a_ctrl_c_waiting_for_a_booting_board_always_reaches_its_repl(make_board):
    """Typed while the board is off, the bytes reach it as it boots: the Ctrl-C stops boot.py
    or main.py (or lands between them) and the REPL takes the Ctrl-A after it, each time."""
    board = make_board(main="while True:\n    pass\n", files={"boot.py": "import machine\nmachine.freq(240000000)\n"})
    with serial.Serial(board.port, timeout=10) as port:
        for _ in range(5):
            board.power_off()
            board.wait_off()
            mark = board.mark()
            port.write(b"\r\x03\r\x01")
            port.flush()
            board.restart()
            board.wait_output(b"raw REPL; CTRL-B to exit\r\n>", since=mark)
    assert board.crashes == 0


@pytest.mark.usefixtures("esp32_ctrl_c")
def test_a_ctrl_c_lands_after_the_c_function_it_came_during(make_board):
    """The ESP32's UART interrupt schedules the KeyboardInterrupt: the VM raises it at its next
    branch, so a C function running when the Ctrl-C came (sum over a range) ends first."""
    board = make_board()
    with serial.Serial(board.port, timeout=30) as port:
        port.write(b"\r\x01")
        port.read_until(b"raw REPL; CTRL-B to exit\r\n>")
        port.write(b"import time; print('summing'); t = time.ticks_ms(); total = sum(range(60000000)); "
                   b"took = time.ticks_diff(time.ticks_ms(), t); done = 1\nwhile True:\n    pass\n\x04")
        port.read_until(b"summing")
        port.write(b"\x03")  # while sum() runs
        assert b"KeyboardInterrupt" in port.read_until(b"\x04>")
        port.write(b"print(done, total, took)\x04")
        done, total, took = port.read_until(b"\x04>")[2:-4].split()
        assert (done, total) == (b"1", b"1799999970000000")
        assert int(took) >= 200, "the sum ended before the Ctrl-C could reach it: make it longer"


@pytest.mark.usefixtures("esp32_ctrl_c")
def test_two_ctrl_cs_in_one_write_stop_a_program_once(make_board):
    """One run of the UART's handler takes both: one KeyboardInterrupt, its traceback whole,
    then the prompt."""
    board = make_board()
    with serial.Serial(board.port, timeout=10) as port:
        port.write(b"\r")
        port.read_until(b">>> ")
        for _ in range(5):
            port.write(b"while True: pass\r\r")
            port.read_until(b"pass\r\n")
            mark = board.mark()
            port.write(b"\x03\x03")
            said = port.read_until(b">>> ")
            assert said.endswith(b"KeyboardInterrupt: \r\n>>> ") and said.count(b"Traceback") == 1, said
            assert board.output(mark).count(b"Traceback") == 1
