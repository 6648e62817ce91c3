"""pytest plugin: the Croupier board under test as fixtures, the same on a real and a virtual board.

Loaded with `-p croupier.hil.plugin` (as `croupier hil` does). Options:
  --port URL            a real board (device path or any pyserial URL); default: a fresh
                        virtual board for the session
  --hil-transcripts DIR where each test's raw serial transcript is saved (default: a temp dir)
  --hil-timeout S       deadline of every request and wait (default 5 s; boot: --hil-boot-timeout)
  --hil-firmware DIR    virtual board only: run this firmware tree instead of the packaged one
  --hil-heap SIZE       virtual board only: MicroPython heap (default croupier.sim.FIRMWARE_HEAP)
  --hil-force           run on a board holding unacknowledged records or an unfinished game,
                        after saving them into --hil-db (see croupier.hil.safety)
  --hil-db FILE         the user's database for --hil-force (default: croupier's default one)
  --pace esp32|none     virtual board only: the chip's speed and limits (default none: full speed)
Fixtures: `device` (the protocol link, croupier.hil.device.Device), `keys`, `screen`,
`reset`, `vboard` (the virtual board's side channel; needs @pytest.mark.virtual_board).
"""
import re
import tempfile
from pathlib import Path

import pytest

from croupier.hil import NO_BOARD, REFUSED
from croupier.hil.boards import SerialTarget, VirtualTarget
from croupier.hil.device import Device
from croupier.hil.safety import Guard, Refused
from croupier.hil.screen import Frame
from croupier.hil.transcript import Transcript
from croupier.link import LinkError

RUN = pytest.StashKey()
TRANSCRIPT = pytest.StashKey()
SIDE_CHANNEL = "needs the virtual board's side channel"


def pytest_addoption(parser):
    group = parser.getgroup("croupier-hil", "Croupier hardware-in-the-loop")
    group.addoption("--port", dest="hil_port", metavar="URL",
                    help="serial port of a real board (device path or pyserial URL); default: a fresh virtual board")
    group.addoption("--hil-transcripts", metavar="DIR", help="save each test's serial transcript here (default: a temp dir)")
    group.addoption("--hil-timeout", type=float, default=5.0, metavar="S", help="deadline of every request and wait")
    group.addoption("--hil-boot-timeout", type=float, default=30.0, metavar="S", help="deadline for the board to boot")
    group.addoption("--hil-firmware", metavar="DIR", help="virtual board only: firmware tree to run (default: the packaged one)")
    group.addoption("--hil-heap", default=None, metavar="SIZE", help="virtual board only: MicroPython heap (default croupier.sim.FIRMWARE_HEAP)")
    group.addoption("--hil-force", action="store_true",
                    help="run on a board holding unacknowledged records or an unfinished game: save them into --hil-db first")
    group.addoption("--hil-db", metavar="FILE", help="the database --hil-force saves into (default: croupier's default database)")
    group.addoption("--pace", dest="hil_pace", choices=("esp32", "none"), default=None,
                    help="virtual board only: run at the chip's speed and limits (default none: full speed)")


class Run:
    """What the session knows about the board under test; the board starts on first use."""

    def __init__(self, config):
        self.config = config
        self.port = config.getoption("hil_port")
        self.board = None
        self.device = None
        self.info = None
        self._transcripts = config.getoption("hil_transcripts")
        self.guard = None       # set once the board was checked: then it is put back at the end
        self.first_seq = None   # the first journal seq the run writes

    @property
    def transcripts(self):
        """The folder of the serial transcripts, made on first use."""
        if self._transcripts is None:
            self._transcripts = tempfile.mkdtemp(prefix="croupier-hil-")
        folder = Path(self._transcripts)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def start(self):
        """The board's Device, started on first use; a board that does not come up ends the run."""
        if self.device is None:
            opt = self.config.getoption
            try:
                if self.port:
                    self.board = SerialTarget(self.port)
                else:
                    self.board = VirtualTarget(heap=opt("hil_heap"), firmware=opt("hil_firmware"), pace=opt("hil_pace"))
                self.device = Device(self.board, opt("hil_timeout"), opt("hil_boot_timeout"))
                self.info = self.device.wait_ready()
            except Exception as exc:  # no board, no firmware, no port: nothing else can run
                pytest.exit("the board under test did not come up: %s" % exc, returncode=NO_BOARD)
            self._check_board()
        return self.device

    def _check_board(self):
        """Stop before any test when the board holds what the run could lose (exit status REFUSED)."""
        guard = Guard(self.board.url, self.config.getoption("hil_db") or _default_db(), self.config.getoption("hil_force"))
        try:
            guard.before(self.device.link)
            self.first_seq = self.device.last_seq() + 1
        except Refused as exc:
            pytest.exit(str(exc), returncode=REFUSED)
        except LinkError as exc:
            pytest.exit("the board under test did not answer while it was checked: %s" % exc, returncode=NO_BOARD)
        self.guard = guard

    def put_back(self):
        """Leave the board as the user had it (croupier.hil.safety.Guard.after)."""
        if self.guard is None:
            return
        self.device.transcript = Transcript()  # the last test's transcript is saved already
        try:
            self.guard.after(self.device.link, self.first_seq)
        except LinkError as exc:
            self.guard.notes.append("could not put the board back (%s): check its clock and roster" % exc)

    def check_alive(self, nodeid):
        """End the run when the board no longer answers (a crashed firmware would otherwise fail
        every later test on its deadlines)."""
        try:
            self.device.link.hello(within=self.device.boot_timeout)
        except LinkError as exc:
            pytest.exit("the board stopped answering before %s (%s); the last bytes it sent:\n%s"
                        % (nodeid, exc, self.device.transcript.tail()), returncode=NO_BOARD)

    def stop(self):
        if self.device is not None:
            self.device.close()
        if self.board is not None:
            self.board.close()

    def describe(self):
        where = self.board.description if self.board else (self.port or "virtual board (not started)")
        if not self.info:
            return where
        return "%s: %s firmware %s, device %s" % (where, self.info.get("board"), self.info.get("fw"), self.info.get("device"))


def pytest_configure(config):
    config.addinivalue_line("markers", "virtual_board(what): the test uses the virtual board's side channel "
                                       "(power cut, serial faults, tone log, glass); skipped on a real board")
    config.stash[RUN] = Run(config)


def _default_db():
    from croupier.store import default_path

    return default_path()


def pytest_sessionfinish(session):
    run = session.config.stash.get(RUN, None)
    if run is not None:
        run.put_back()  # before the summary, which reports it


def pytest_unconfigure(config):
    run = config.stash.get(RUN, None)
    if run is not None:
        run.stop()


def pytest_runtest_setup(item):
    marker = item.get_closest_marker("virtual_board")
    if marker:
        what = marker.args[0] if marker.args else "side channel"
        item.user_properties.append(("virtual_board", what))  # reports (JUnit XML) tell which tests need it
        if item.config.stash[RUN].port:
            pytest.skip("%s (%s)" % (SIDE_CHANNEL, what))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    transcript = item.stash.get(TRANSCRIPT, None)
    if transcript is not None and report.failed:
        report.sections.append(("last bytes received from the board", transcript.tail()))
        report.sections.append(("serial transcript", str(_transcript_path(item))))


def _transcript_path(item):
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid.split("/")[-1])
    return item.config.stash[RUN].transcripts / (name + ".log")


# -- fixtures ----------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def hil_run(pytestconfig):
    return pytestconfig.stash[RUN]


@pytest.fixture
def device(request, hil_run):
    """The board's protocol link, with this test's transcript."""
    dev = hil_run.start()
    hil_run.check_alive(request.node.nodeid)
    dev.transcript = transcript = Transcript()
    request.node.stash[TRANSCRIPT] = transcript
    dev.quiet()
    yield dev
    _transcript_path(request.node).write_text(transcript.text())


class Keys:
    """Key presses by logical name (docs/protocol.md): electrical on the virtual board, `key` on a real one."""

    def __init__(self, device):
        self.device = device

    def press(self, *keys):
        for key in keys:
            self.device.transcript.note("press %s" % key)
            self.device.board.press(self.device, key)

    def hold(self, key):
        self.device.transcript.note("hold %s" % key)
        self.device.board.press(self.device, key, hold=True)


@pytest.fixture
def keys(device):
    return Keys(device)


@pytest.fixture
def screen(request, device):
    """screen() -> Frame of the display now (protocol `screen`), also saved as PNG beside the transcript."""
    shots = []

    def capture():
        frame = Frame.from_answer(device.call("screen"))
        shots.append(frame)
        frame.save_png(str(_transcript_path(request.node))[:-4] + "-screen%d.png" % len(shots))
        return frame

    return capture


@pytest.fixture
def reset(device):
    """reset() hard-resets the board and returns its `boot` event."""
    return device.reset


@pytest.fixture
def vboard(request, device):
    """The virtual board's side channel (croupier.sim.VirtualBoard)."""
    if request.node.get_closest_marker("virtual_board") is None:
        pytest.fail("this test uses the virtual board's side channel: mark it @pytest.mark.virtual_board('what for') "
                    "so that it is skipped on a real board")
    return device.board.sim


# -- summary -----------------------------------------------------------------------------------
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    run = config.stash[RUN]
    stats = terminalreporter.stats
    if not any(stats.get(key) for key in ("passed", "failed", "error", "skipped")):
        return  # nothing ran (--collect-only, or nothing selected)
    write = terminalreporter.write_line
    terminalreporter.section("Croupier HIL summary")
    write("board:       %s" % run.describe())
    failed = stats.get("failed", []) + stats.get("error", [])
    verdict = "PASS" if exitstatus == 0 else "FAIL"
    write("result:      %s (%d passed, %d failed, %d skipped)"
          % (verdict, len(stats.get("passed", [])), len(failed), len(stats.get("skipped", []))))
    for report in failed:
        write("  failed:    %s: %s" % (report.nodeid.split("::", 1)[-1], _first_line(report)))
    reasons = {}
    for report in stats.get("skipped", []):
        reasons.setdefault(_skip_reason(report), []).append(report)
    for reason, reports in sorted(reasons.items()):
        write("  skipped:   %d, %s" % (len(reports), reason))
    for note in run.guard.notes if run.guard else ():
        write("board care:  %s" % note)
    write("transcripts: %s" % run.transcripts)


def _first_line(report):
    """The failure's own message (what was expected), first line only."""
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash else str(report.longrepr)
    return text.strip().splitlines()[0][:200] if text.strip() else "?"


def _skip_reason(report):
    if isinstance(report.longrepr, tuple):
        return report.longrepr[2].replace("Skipped: ", "")
    return str(report.longrepr)
