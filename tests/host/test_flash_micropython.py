"""`croupier flash` end to end where no Croupier firmware runs: MicroPython written through a
mock ESP32 ROM bootloader on a pty (esp32-mock-bootloader speaks esptool's protocol and keeps
a 4 MB flash in memory), an image or a board with a MicroPython too old for the firmware, a
blank board, bad ports."""
import os
import re
import subprocess
import sys
import threading
import time

import pytest

from esp32_images import APP_OFFSET, BOOT_OFFSET, app_image, merged_image
from esptool.bin_image import ELFSection, ESP32FirmwareImage, ESP32S3FirmwareImage
from croupier.esp_image import check_image
from croupier.repl import MARK, RAW_PROMPT

FLASH_TIMEOUT = 180
FAR = 0x300000  # a flash sector no image reaches: erased by the full erase
# The command line, with shorter waits for boards that never answer here: the mock ROM starts
# no MicroPython after a write (repl.FIRST_BOOT_TIMEOUT, 15 s for a real first boot) and
# runs no firmware to say hello (flash.HELLO_WAIT, 3 s).
CLI = ("import sys, croupier.repl, croupier.commands.flash as flash; croupier.repl.FIRST_BOOT_TIMEOUT = 2.0; "
       "flash.HELLO_WAIT = 1.0; from croupier.cli import main; sys.exit(main())")


def croupier(*args, cwd=None, data_home=None):
    """Run the command; data_home: the user data folder it sees (where its default database is)."""
    env = None if data_home is None else dict(os.environ, XDG_DATA_HOME=str(data_home))
    proc = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True,
                          timeout=FLASH_TIMEOUT, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def rom(tmp_path):
    """The pty of a mock ESP32 in its ROM bootloader, with a blank flash."""
    proc = subprocess.Popen([sys.executable, "-m", "esp32_mock_bootloader.cli", "run", "--pty", "--chip", "esp32"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/"), "the mock bootloader did not name its pty: %r" % port
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stdout.close()


ESPTOOL_TRIES = 2  # the mock's pty garbles a SLIP frame now and then under a parallel suite's
# load ("Failed to read flash (result was 0105)"): a fault of the test's window onto the flash


def esptool(port, *args):
    """The test's own window onto the mock's flash. --no-stub: the mock's pty cannot reset it,
    so a stub left running would meet the next esptool, the command's, which then finds the
    stub "already running" while the mock's session answers as the ROM (an MD5 "result was
    6238": ASCII hex where the stub's binary digest was due)."""
    for _ in range(ESPTOOL_TRIES):
        proc = subprocess.run([sys.executable, "-m", "esptool", "--no-stub", "--port", port, *args],
                              capture_output=True, text=True, timeout=FLASH_TIMEOUT, stdin=subprocess.DEVNULL)
        if proc.returncode == 0:
            return
    assert proc.returncode == 0, proc.stdout + proc.stderr


def read_flash(port, offset, size, tmp_path):
    dump = tmp_path / ("dump-%x.bin" % offset)
    esptool(port, "read-flash", "0x%x" % offset, str(size), str(dump))
    return dump.read_bytes()


def write_flash(port, offset, data, tmp_path):
    path = tmp_path / ("put-%x.bin" % offset)
    path.write_bytes(data)
    esptool(port, "write-flash", "0x%x" % offset, str(path))


def image_file(tmp_path, data, name="micropython.bin"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def app_naming(banner):
    """An app image whose read-only data (mapped from flash) holds `banner`, as MicroPython's
    holds its own ("MicroPython v1.23.0 on 2024-06-02"): its sys.version and REPL banner."""
    image = ESP32FirmwareImage()
    image.entrypoint = 0x40080400
    rodata = b"\x00".join((b"3.4.0; " + banner, b"; Generic ESP32 module with ESP32", b"raw REPL; CTRL-B to exit"))
    image.segments = [ELFSection(b".flash.rodata", 0x3F400020, rodata + b"\x00" * (-len(rodata) % 4), 0),
                      ELFSection(b".iram0.text", 0x40080000, b"\x5a" * 2048, 0)]
    return image.save(None)


@pytest.mark.parametrize("banner,version", [
    (b"MicroPython v1.23.0 on 2024-06-02", "1.23.0"),
    (b"MicroPython v1.29.0-preview.45.g0123abc on 2026-11-30", "1.29.0-preview.45.g0123abc"),
    (b"MicroPython (with v2.0 preview) v1.22.2 on 2024-02-22", "1.22.2"),
    (b"MicroPython 0123abc on 2024-06-02", None),  # built where git knew no tag: no release named
], ids=["release", "preview", "v2-preview", "no-tag"])
def test_the_micropython_release_of_an_image_is_read_from_its_banner(banner, version):
    assert check_image(merged_image(app=app_naming(banner))).version == version
    assert check_image(app_naming(banner)).version == version
    assert check_image(merged_image()).version is None, "an app without MicroPython's banner names no release"


def test_an_image_older_than_supported_is_refused_before_the_board_is_touched(rom, tmp_path):
    write_flash(rom, BOOT_OFFSET, b"installed" * 100, tmp_path)
    old = image_file(tmp_path, merged_image(app=app_naming(b"MicroPython v1.22.2 on 2024-02-22")), "ESP32_GENERIC-1.22.bin")
    status, out, err = croupier("flash", "--port", rom, "--db", str(tmp_path / "db.sqlite3"), "--micropython", old, "--force")
    assert status == 1 and err.strip() == ("croupier flash: %s holds MicroPython 1.22.2, older than Croupier supports: "
                                           "download ESP32_GENERIC 1.23 or newer from "
                                           "https://micropython.org/download/ESP32_GENERIC/" % old), out + err
    assert read_flash(rom, BOOT_OFFSET, 900, tmp_path) == b"installed" * 100, "even with --force nothing was erased"

    image = merged_image(app=app_naming(b"MicroPython v1.23.0 on 2024-06-02"))
    status, out, err = croupier("flash", "--port", rom, "--db", str(tmp_path / "db.sqlite3"),
                                "--micropython", image_file(tmp_path, image), "--force")
    assert "MicroPython 1.23.0 (bootloader + partition table + app at 0x%x" % APP_OFFSET in out, out + err
    assert read_flash(rom, BOOT_OFFSET, len(image), tmp_path) == image, "the oldest supported release is written"


def test_a_good_image_is_erased_written_and_verified_then_the_missing_micropython_is_named(rom, tmp_path):
    write_flash(rom, FAR, b"old data" * 512, tmp_path)  # something the full erase must remove
    image = merged_image()
    status, out, err = croupier("flash", "--port", rom, "--db", str(tmp_path / "db.sqlite3"),
                                "--micropython", image_file(tmp_path, image))
    assert "nothing to lose: the flash is blank" in out, out + err
    assert ("MicroPython (bootloader + partition table + app at 0x%x, %d bytes at 0x%x) written to the ESP32 on %s; "
            "esptool verified its hash" % (APP_OFFSET, len(image), BOOT_OFFSET, rom)) in out, out + err
    assert read_flash(rom, BOOT_OFFSET, len(image), tmp_path) == image, "the flash holds exactly the image"
    assert read_flash(rom, FAR, 4096, tmp_path) == b"\xff" * 4096, "the whole flash was erased first"
    assert "deprecat" not in (out + err).lower(), "esptool is called by its current command names"
    # a mock ROM runs no MicroPython afterwards: the firmware copy stops with the one clear line
    assert status == 1 and err.strip().splitlines() == [err.strip()] and "no MicroPython answers on %s" % rom in err, err


def test_a_flash_that_is_not_blank_with_nothing_answering_is_erased_only_with_force(rom, tmp_path):
    first, second = merged_image(), merged_image(app=app_image(fill=0x33))
    write_flash(rom, BOOT_OFFSET, first, tmp_path)  # an installed board whose firmware does not answer
    db = str(tmp_path / "db.sqlite3")
    status, out, err = croupier("flash", "--port", rom, "--db", db, "--micropython", image_file(tmp_path, second))
    assert status == 1 and "neither the Croupier firmware nor MicroPython answers on %s, and its flash is not blank" % rom in err, \
        out + err
    assert "pass --force" in err and "written" not in out
    assert read_flash(rom, BOOT_OFFSET, len(first), tmp_path) == first, "refused: the flash is untouched"

    status, out, err = croupier("flash", "--port", rom, "--db", db, "--micropython", image_file(tmp_path, second), "--force")
    assert "--force: erasing without checking for games" in out and "esptool verified its hash" in out, out + err
    assert read_flash(rom, BOOT_OFFSET, len(second), tmp_path) == second


@pytest.mark.parametrize("data,reason", [
    (b"\x00" + os.urandom(64 * 1024 - 1), "no ESP32 image"),  # what was once written as "MicroPython"
    (app_image(ESP32S3FirmwareImage), "is built for the ESP32-S3, not the ESP32"),
    (merged_image()[:-0x800], "the app (at flash 0x10000) is a damaged ESP32 image: End of file"),
    (bytes(b ^ (i == 300) for i, b in enumerate(merged_image())), "fails its checksum"),
], ids=["random", "esp32s3", "cut-short", "checksum"])
def test_a_bad_image_is_refused_before_the_board_is_touched(rom, tmp_path, data, reason):
    write_flash(rom, BOOT_OFFSET, b"installed" * 100, tmp_path)
    status, out, err = croupier("flash", "--port", rom, "--db", str(tmp_path / "db.sqlite3"),
                                "--micropython", image_file(tmp_path, data), "--force")
    assert status == 1 and reason in err and "micropython.bin" in err, out + err
    assert len(err.strip().splitlines()) == 1, "one line says why: %r" % err
    assert read_flash(rom, BOOT_OFFSET, 900, tmp_path) == b"installed" * 100, "even with --force nothing was erased"


def test_micropython_is_never_written_to_a_virtual_board(tmp_path):
    status, out, err = croupier("flash", "--port", "sim", "--micropython", image_file(tmp_path, merged_image()))
    assert status == 1 and "--micropython writes a real ESP32's flash; a virtual board (--port sim)" in err, out + err


# -- boards without (the right) MicroPython, ports that are none ------------------------------
class FakeRepl:
    """The other end of a pty that answers the raw REPL like a MicroPython of a given version."""

    def __init__(self, version, mpy, journal_files=-1):
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave
        self.reply = b"OK%s %s %d %d\r\n\x04\x04>" % (MARK.encode(), version.encode(), mpy, journal_files)
        self.received = bytearray()
        threading.Thread(target=self._serve, daemon=True).start()

    def scripts_run(self):
        """The programs the host ran on this board through its raw REPL, in order: what came
        before each Ctrl-D, less what a Ctrl-A, -B or -C cleared."""
        chunks = (re.split(b"[\x01\x02\x03]", chunk)[-1] for chunk in bytes(self.received).split(b"\x04"))
        return [script for script in chunks if script]

    def _serve(self):
        try:
            while True:
                data = os.read(self.master, 4096)
                self.received += data
                if b"\x01" in data:
                    os.write(self.master, RAW_PROMPT)
                if data.endswith(b"\x04") and b"\x02" not in data:
                    os.write(self.master, self.reply)
        except OSError:
            return  # closed

    def close(self):
        os.close(self._slave)
        os.close(self.master)


@pytest.fixture
def fake_repl():
    """make(version, mpy, journal_files) -> a FakeRepl"""
    made = []

    def make(version, mpy, journal_files=-1):
        made.append(FakeRepl(version, mpy, journal_files))
        return made[-1]

    yield make
    for repl in made:
        repl.close()


MPY_NOW = 6 | 3 << 8 | 2 << 10  # .mpy 6.3, what MicroPython 1.23 and later load
INSTALL = ("flash ESP32_GENERIC 1.23 or newer from https://micropython.org/download/ESP32_GENERIC/ with "
           "`croupier flash --port {port} --micropython ESP32_GENERIC-<version>.bin`")


@pytest.mark.parametrize("version,mpy,says", [
    ("1.22.2", 6 | 2 << 8 | 2 << 10, "the board on {port} runs MicroPython 1.22.2, older than Croupier supports"),
    ("1.18.0", 5 | 2 << 10, "the board on {port} runs MicroPython 1.18.0, older than Croupier supports"),
    ("1.9.4", -1, "the board on {port} runs MicroPython 1.9.4, older than Croupier supports"),
    ("2.0.0", 7 | 2 << 10, "the MicroPython 2.0.0 on {port} loads .mpy version 7.0; the firmware is built as .mpy version 6"),
], ids=["1.22", "1.18", "1.9", "2.0"])
def test_a_micropython_that_cannot_run_the_firmware_is_named_before_anything_is_copied(fake_repl, version, mpy, says):
    repl = fake_repl(version, mpy)
    status, out, err = croupier("flash", "--port", repl.port)
    assert status == 1 and err.strip() == ("croupier flash: %s: %s" % (says, INSTALL)).format(port=repl.port), err
    assert "the board runs" not in out and "copying" not in out, out
    assert len(repl.scripts_run()) == 1 and MARK.encode() in repl.scripts_run()[0], \
        "only the probe ran on the board: %r" % repl.scripts_run()
    deadline = time.monotonic() + 5
    while not repl.received.endswith(b"\x02\x04") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert repl.received.endswith(b"\x02\x04"), "the program it stopped starts again (soft reset)"


def test_a_journal_on_a_board_whose_firmware_does_not_answer_is_never_erased(fake_repl, tmp_path):
    port = fake_repl("1.23.0", MPY_NOW, journal_files=3).port
    status, out, err = croupier("flash", "--port", port, "--db", str(tmp_path / "db.sqlite3"),
                                "--micropython", image_file(tmp_path, merged_image()))
    assert status == 1 and ("the Croupier firmware does not answer on %s, but its MicroPython holds a journal "
                            "(/journal)" % port) in err and "--force" in err, out + err


def test_micropython_without_a_journal_is_nothing_to_lose(fake_repl, tmp_path):
    port = fake_repl("1.23.0", MPY_NOW).port
    status, out, err = croupier("flash", "--port", port, "--db", str(tmp_path / "db.sqlite3"),
                                "--micropython", image_file(tmp_path, merged_image()))
    assert "nothing to lose: MicroPython 1.23.0 answers and holds no Croupier journal" in out, out + err
    assert status == 1 and err.strip() == ("croupier flash: esptool chip-id: no ESP32 ROM bootloader answers on %s; "
                                           "hold the board's BOOT button while esptool connects, or check the port"
                                           % port), "a REPL is no ROM bootloader: %s" % err


def test_a_blank_board_gets_one_line_saying_how_to_install_micropython():
    master, slave = os.openpty()  # a port where nothing answers at all
    try:
        port = os.ttyname(slave)
        status, out, err = croupier("flash", "--port", port)
    finally:
        os.close(slave)
        os.close(master)
    assert status == 1, out + err
    assert err.strip() == ("croupier flash: no MicroPython answers on %s (a blank board, or one in its bootloader): "
                           % port + INSTALL.format(port=port)), err


def test_a_missing_port_and_a_file_that_is_no_port_get_their_own_message(tmp_path):
    status, _, err = croupier("flash", "--port", str(tmp_path / "ttyUSB9"))
    assert status == 1 and err.strip() == ("croupier flash: there is no serial port %s: is the board plugged in? "
                                           "(`croupier ports` lists the ports)" % (tmp_path / "ttyUSB9")), err
    (tmp_path / "notes.txt").write_text("not a board")
    status, _, err = croupier("flash", "--port", str(tmp_path / "notes.txt"))
    assert status == 1 and "%s is not a serial device (it is a file)" % (tmp_path / "notes.txt") in err, err
    status, _, err = croupier("flash", "--port", str(tmp_path))
    assert status == 1 and "is not a serial device (it is a folder)" in err, err
    forced = croupier("flash", "--port", str(tmp_path / "ttyUSB9"), "--force",
                      "--micropython", image_file(tmp_path, merged_image()),  # straight to esptool
                      data_home=tmp_path / "data")
    assert forced[0] == 1 and forced[2].strip() == ("croupier flash: there is no serial port %s: is the board "
                                                    "plugged in? (`croupier ports` lists the ports)"
                                                    % (tmp_path / "ttyUSB9")), forced
    assert not (tmp_path / "data").exists(), "no database made (nor its folder) for a board that is not there"
