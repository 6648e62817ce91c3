"""Who uses which serial port on this machine: the croupier command that holds each port, and
the virtual boards running.

A command holds a port for as long as it has it open (link.open_serial) or works on it
(`flash`); a second one is refused at once with PortBusy, which names the holder. The lock
is an flock on a file in the user's runtime folder: the kernel drops it when its process
ends, however it ends, so a file a dead process left behind holds nothing. Both kinds of
record are JSON files in that folder, removed when their process lets go.
"""
import contextlib
import errno
import json
import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

_held = {}  # lock path -> [open lock file, depth]: a command may reopen a port it holds (flash)
_process = {"name": None}  # what this process is called in its records (name_process)


class PortBusy(OSError):
    """Another process holds the port; the message names it."""

    def __init__(self, message):
        super().__init__(errno.EBUSY, message)

    def __str__(self):
        return self.strerror  # the one line, without "[Errno 16]"


def name_process(name):
    """Call this process `name` ("croupier mirror") in the records it leaves."""
    _process["name"] = name


def process_name():
    return _process["name"] or Path(sys.argv[0]).name or "python"


def runtime_dir() -> Path:
    """$XDG_RUNTIME_DIR/croupier (emptied at logout), else croupier-UID in the temp folder;
    private to the user."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(base) / "croupier" if base and os.path.isdir(base) else \
        Path(tempfile.gettempdir()) / ("croupier-%d" % os.getuid())
    folder.mkdir(mode=0o700, exist_ok=True)
    if os.lstat(folder).st_uid != os.getuid():
        raise PermissionError("%s belongs to another user: set XDG_RUNTIME_DIR to a folder of yours" % folder)
    return folder


def port_key(name):
    """One name per device: a symlink (a board's --link, /dev/serial/by-id/...) and what it
    points to are the same port. URLs are their own name."""
    return name if "://" in name else os.path.realpath(name)


def _lock_path(name):
    return runtime_dir() / ("port-%s.lock" % quote(port_key(name), safe=""))


def _read(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None  # gone, or its writer has not written it yet


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process
    return True


def _lock(path, name):
    """The open lock file, flocked; PortBusy when another process has it."""
    import fcntl

    while True:
        lock = open(path, "a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            record = _read(path) or {}
            holder = "%s, pid %d" % (record["holder"], record["pid"]) if "pid" in record else "another croupier command"
            raise PortBusy("port busy: %s has %s open; try again when it ends" % (holder, name)) from None
        try:
            same = os.fstat(lock.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return lock
        lock.close()  # its holder removed the file as we opened it: lock the new one


@contextlib.contextmanager
def hold(name):
    """Hold the port `name` for this process (again, if it holds it already). PortBusy when
    another process holds it. Windows opens a COM port for one program only by itself."""
    if os.name == "nt":
        yield
        return
    path = _lock_path(name)
    if path not in _held:
        lock = _lock(path, name)
        lock.truncate(0)
        lock.write(json.dumps({"pid": os.getpid(), "holder": process_name(), "port": name}))
        lock.flush()
        _held[path] = [lock, 0]
    _held[path][1] += 1
    try:
        yield
    finally:
        _held[path][1] -= 1
        if not _held[path][1]:
            lock = _held.pop(path)[0]
            path.unlink(missing_ok=True)  # while still locked: nobody takes a file on its way out
            lock.close()


def holders():
    """{port key: "croupier mirror, pid 4242"} for the ports held now. A file whose process is
    gone is left for the next holder to take (removing it could race one taking it now)."""
    held = {}
    for path in runtime_dir().glob("port-*.lock"):
        record = _read(path)
        if record and _alive(record["pid"]):
            held[port_key(record["port"])] = "%s, pid %d" % (record["holder"], record["pid"])
    return held


@contextlib.contextmanager
def board_running(board):
    """Record a started virtual board (its port, link and flash image) while the block runs."""
    path = runtime_dir() / ("board-%d-%d.json" % (os.getpid(), id(board)))
    path.write_text(json.dumps({"pid": os.getpid(), "holder": process_name(), "port": board.port,
                                "link": str(board.link) if board.link else None, "flash": str(board.flash)}))
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def running_boards():
    """The records of the virtual boards running, by port; a dead process's are removed."""
    boards = []
    for path in runtime_dir().glob("board-*.json"):
        record = _read(path)
        if record and _alive(record["pid"]):
            boards.append(record)
        elif record:
            path.unlink(missing_ok=True)
    return sorted(boards, key=lambda record: record["port"])
