"""Start-up work the first screen does not need is left until after it: the journal counts
the boot (its first write since littlefs mounted) once the first screen is up, and boot.py
mounts the flash with caches that read it in fewer, larger pieces. boot.py never fails, and
a MicroPython older than 1.23 is refused with its reason."""
import json

from croupier.deploy import Mpremote

COUNTING = r'''
import json
from ramflash import RamFlash, mount
from croupier.journal import Journal
from croupier import journal_sync

flash = RamFlash(blocks=64)
mount(flash, fresh=True)
j = Journal("/flash/j")
j.append(None, "new", {"game": "lobo77", "players": ["A", "B"], "options": {}})
out = {}
for step in ("quiet", "counted"):
    mount(flash)  # power cycle
    writes = flash.writes
    j = Journal("/flash/j")
    out[step] = {"opened_writes": flash.writes - writes, "boots": j.boots}
    if step == "counted":
        j.count_boot()
        out[step]["count_writes"] = flash.writes - writes
        writes = flash.writes
        j.count_boot()
        out[step]["again_writes"] = flash.writes - writes
mount(flash)
out["after_count"] = Journal("/flash/j").boots
mount(flash)
j = Journal("/flash/j")  # this boot writes a record without count_boot: the append counts it
seq = j.append(1, "play", "9")
mount(flash)
j = Journal("/flash/j")
out["stamped"] = journal_sync.records(j, seq, 1)[0][5][0]
out["after_append"] = j.boots
print(json.dumps(out))
'''


def test_the_boot_is_counted_after_the_first_screen_or_by_the_first_record(mpy):
    out = json.loads(mpy(COUNTING))
    # opening the journal writes nothing; a boot that wrote nothing is not counted
    assert out["quiet"] == {"opened_writes": 0, "boots": 2}
    assert out["counted"]["opened_writes"] == 0 and out["counted"]["boots"] == 2
    assert out["counted"]["count_writes"] > 0 and out["counted"]["again_writes"] == 0
    assert out["after_count"] == 3
    # the record carries boot 3, and the head counted it before the record was written
    assert out["stamped"] == 3 and out["after_append"] == 4


READS = '''
import vfs
from flashbdev import bdev

def reads(path):
    n = bdev.reads
    with open(path, "rb") as f:
        f.read()
    return bdev.reads - n

vfs.mount(vfs.VfsLfs2(bdev), "/ported")  # the port's _boot.py settings, beside boot.py's mount
print("reads", reads("/ported/croupier/ui/history.mpy"), reads("/croupier/ui/history.mpy"))
vfs.umount("/ported")
'''


def test_boot_py_mounts_the_flash_to_read_it_in_fewer_pieces(board):
    board.wait_boot()
    out = Mpremote(board.port).run("exec", READS, timeout=60)
    ported, mounted = [int(n) for n in out.split("reads")[-1].split()[:2]]
    assert 0 < mounted * 3 < ported, (mounted, ported)


def test_the_chip_runs_at_240_mhz_once_booted(board):
    board.wait_boot()
    assert Mpremote(board.port).run("exec", "import machine; print(machine.freq())", timeout=60).split()[-1] \
        == "240000000"


REMOUNT = r'''
import json, os, sys, vfs
from ramflash import RamFlash, Powered
import flashbdev

out = {}
flashbdev.bdev = None  # a board without a vfs partition: boot.py leaves the mount alone
import boot
out["without"] = "tmp" in os.listdir("/")
flash = RamFlash(blocks=64)
device = Powered(flash)
vfs.VfsLfs2.mkfs(device)
fs = vfs.VfsLfs2(device)
with fs.open("/marker", "w") as f:
    f.write("on the flash")
flashbdev.bdev = device
del sys.modules["boot"]
import boot  # noqa: F811 (boot.py runs again, as at the next reset)
out["root"] = os.listdir("/")
out["cwd"] = os.getcwd()
with open("marker") as f:
    out["marker"] = f.read()
print(json.dumps(out))
'''


def test_boot_py_mounts_the_flash_at_the_root_and_never_fails(mpy, tmp_path):
    (tmp_path / "flashbdev.py").write_text("bdev = None  # the ESP32 port's frozen module\n")
    out = json.loads(mpy(REMOUNT))
    assert out["without"], "no flash partition: the mount _boot.py made stays"
    assert out["root"] == ["marker"] and out["cwd"] == "/" and out["marker"] == "on the flash"


WITHOUT_VFS = r'''
import builtins, json, os
import flashbdev

real = builtins.__import__


def release_1_22(name, *args):  # MicroPython before 1.23 has no `vfs` module
    if name == "vfs":
        raise ImportError("no module named 'vfs'")
    return real(name, *args)


flashbdev.bdev = object()  # a partition there: boot.py would mount it on a newer release
builtins.__import__ = release_1_22
import boot
builtins.__import__ = real
print(json.dumps({"cwd": os.getcwd(), "kept": "flashbdev.py" in os.listdir()}))
'''


def test_boot_py_leaves_the_mount_alone_on_a_release_without_vfs(mpy, tmp_path):
    (tmp_path / "flashbdev.py").write_text("bdev = None  # the ESP32 port's frozen module\n")
    out = json.loads(mpy(WITHOUT_VFS).strip().splitlines()[-1])
    assert out == {"cwd": str(tmp_path), "kept": True}, out


TOO_OLD = r'''
import framebuf, json
import croupier
from croupier.app import refuse


class Glass(framebuf.FrameBuffer):
    def __init__(self):
        self.buffer = bytearray(1024)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self.shown = 0

    def show(self):
        self.shown += 1


verdicts = [croupier.too_old(v) for v in ((1, 22, 2), (0, 99, 0), (1, 23, 0, ""), (1, 28, 0, ""),
                                           (1, 29, 0, "preview"), (2, 0, 0))]
glass = Glass()
refuse(glass, croupier.too_old((1, 22, 2)))
print(json.dumps({"verdicts": verdicts, "shown": glass.shown, "lit": sum(glass.buffer) > 0}))
'''


def test_a_micropython_older_than_1_23_is_refused_with_the_reason_on_the_glass(mpy):
    lines = mpy(TOO_OLD).strip().splitlines()
    out = json.loads(lines[-1])
    assert out["verdicts"] == [["MicroPython 1.22", "too old: 1.23+"], ["MicroPython 0.99", "too old: 1.23+"],
                               None, None, None, None]
    assert out["shown"] == 1 and out["lit"]
    assert "MicroPython 1.22, too old: 1.23+" in lines[-2], "and on the console"
