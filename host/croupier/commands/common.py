"""What the device and database commands share: error reporting, the board of `--port`, the
database, progress, tables."""
import functools
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

from croupier import __version__
from croupier.link import DEFAULT_TIMEOUT, LinkError
from croupier.micropython_release import release


def reports_errors(run):
    """Turn the errors a user can act on into one clear line on stderr and exit status 1."""

    @functools.wraps(run)
    def wrapper(args):
        try:
            return run(args)
        except BrokenPipeError:
            raise  # the reader of the output left: croupier.cli ends quietly
        except Exception as exc:
            # imported here: a command that never starts a virtual board never loads croupier.sim
            from croupier.sim.toolchain import SimError

            # a board that cannot run (no interpreter, no pystone offline, a busy --link) says how to fix it
            if not isinstance(exc, (LinkError, ValueError, OSError, sqlite3.Error, SimError)):
                raise
            print("croupier %s: %s" % (args.command, exc), file=sys.stderr)
            return 1

    return wrapper


@contextmanager
def virtual_board(audio_out=None):
    """A fresh virtual board with the firmware and the voices, as `croupier flash` leaves a
    box, for the duration; its speech goes to the WAV file audio_out at the end."""
    from croupier.sim import SimError, VirtualBoard

    from croupier.port_registry import board_running
    from croupier.sound import save_wav

    try:  # the block gets the board alone: a SimError can only come from starting it
        with VirtualBoard(voices=True) as board, board_running(board):
            try:
                yield board
            finally:
                if audio_out:
                    save_wav(board, audio_out)
    except SimError as exc:
        raise LinkError("cannot start a virtual board: %s" % exc) from exc


@contextmanager
def board_port(port_arg):
    """The serial port `--port` names, for the duration: `sim` starts a fresh virtual board
    (virtual_board), None picks the only ESP32 board plugged in (croupier.ports); anything
    else is the port."""
    if port_arg == "sim":
        with virtual_board() as board:
            yield board.port
        return
    if port_arg is None:
        from croupier.ports import pick_board

        port_arg = pick_board()
    yield port_arg


@contextmanager
def connect_board(port_arg, timeout=DEFAULT_TIMEOUT):
    """A Link to the board `--port` names (see board_port), once its firmware has answered hello."""
    from croupier.link import connect

    with board_port(port_arg) as name, connect(name, timeout=timeout) as link:
        note = older_firmware(link.info.get("fw"), name)
        if note:
            print(note, file=sys.stderr)
        yield link


def older_firmware(fw, port):
    """A warning when the board's firmware `fw` (its hello) is older than this croupier, else None."""
    board, host = release(fw), release(__version__)
    if board is None or host is None or board >= host:
        return None
    return ("warning: the board runs Croupier firmware %s, older than this croupier (%s): `croupier flash "
            "--port %s` updates it (the journal stays)" % (fw, __version__, port))


def open_store(args, readonly=False):
    """The database of `--db` (default: the user's). readonly: for the commands that only
    read, which must not create the file nor change it."""
    from croupier.store import Store, default_path

    return Store(args.db or default_path(), readonly=readonly)


def none_found(what, games, path):
    """The line for a command that found no `what` ("finished BASTA games") among `games`, all
    the games of the database at `path`: an empty one says how to fill it, another what it holds."""
    from croupier.stats import holdings

    if not games:
        return "no games in %s yet (run `croupier sync`)" % path
    return "no %s; the database holds %s" % (what, holdings(games))


def output_path(name, suffix=None):
    """The file an `--out` option names, as it will be written: `suffix` (".png") added when
    the name has none, and required when it has one. Its folder must exist: a typo must not
    leave new folders behind."""
    path = Path(name)
    if path.is_dir():
        raise ValueError("%s is a folder: give a file name" % path)
    if suffix and not path.suffix:
        path = path.with_name(path.name + suffix)
    if suffix and path.suffix.lower() != suffix:
        raise ValueError("%s: this writes a %s file: give it a %s name" % (path, suffix[1:].upper(), suffix))
    if not path.parent.is_dir():
        raise ValueError("no folder %s to write %s in (create it first)" % (path.parent, path.name))
    return path


@contextmanager
def progress_bar(description, total=None, stderr=False):
    """A rich progress bar (on stderr: the output stays the result alone); yields
    update(done, total) for the work to call."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=False, console=Console(stderr=stderr)) as bar:
        task = bar.add_task(description, total=total)

        def update(done, new_total=None):
            bar.update(task, completed=done, total=new_total if new_total is not None else bar.tasks[0].total)

        yield update


def copy_progress(stack, description, unchanged):
    """croupier.deploy's progress(kind, done, total): a bar named `description`, opened on
    `stack` once there are files to copy; with none, one line "nothing to copy: `unchanged`"
    instead of a bar counting 0 of 0."""
    updates = []

    def progress(kind, done, total):
        if not total:
            print("nothing to copy: %s" % unchanged)
        elif not updates:
            updates.append(stack.enter_context(progress_bar(description, total)))
        if updates:
            updates[0](done, total)

    return progress


TEXT_COLUMNS = ("name", "player", "game", "players", "status", "started", "id", "port", "ESP32 bridge", "description",
                "link", "flash", "run by", "held by")
WRAPPED_COLUMNS = ("players",)  # lists of names wrap between names; every other cell stays whole


def _least_width(name, cells):
    """The narrowest a column gets without cutting a word: its longest header word, and its
    longest cell (or, in a wrapped column, its longest word)."""
    from rich.cells import cell_len

    words = name.split() + [w for cell in cells for w in (cell.split() if name in WRAPPED_COLUMNS else [cell])]
    return max(cell_len(w) for w in words)


def _natural_width(name, cells):
    from rich.cells import cell_len

    return max([cell_len(name)] + [cell_len(cell) for cell in cells])


def _fitted(least, natural, width, gap=2):
    """Column widths that fit `width`: each its natural width if all fit; else its least, and
    what room is left goes to the columns that want more, in order."""
    room = width - gap * (len(least) - 1)
    if sum(natural) <= room:
        return natural
    widths = list(least)
    spare = room - sum(least)
    for i, want in enumerate(natural):
        extra = min(spare, want - widths[i])
        widths[i] += extra
        spare -= extra
    return widths


def _parts(least, width, gap=2):
    """Column indexes per part of a table too wide for `width` (least: each column's least
    width): each part repeats the first column and takes as many of the others as fit."""
    parts, used = [[0]], least[0]
    for i in range(1, len(least)):
        if used + gap + least[i] > width and len(parts[-1]) > 1:
            parts.append([0])
            used = least[0]
        parts[-1].append(i)
        used += gap + least[i]
    return parts


def print_table(title, columns, rows, caption=None):
    """rows: lists of cells (anything str() can show), one per column. Fits the terminal, or 80
    columns when piped: light borders, headers wrapped between words, names lists wrapped, no
    other cell cut; a table still too wide is printed in parts, each with the first column.
    The title goes above (as wide as the screen), the caption below."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    cells = [[str(cell) for cell in row] for row in rows]
    least = [_least_width(name, [row[i] for row in cells]) for i, name in enumerate(columns)]
    natural = [_natural_width(name, [row[i] for row in cells]) for i, name in enumerate(columns)]
    parts = _parts(least, console.width)
    for number, part in enumerate(parts, 1):
        table = Table(caption=caption if number == len(parts) else None, caption_justify="left", box=box.SIMPLE_HEAD,
                      collapse_padding=True, pad_edge=False, show_edge=False)
        widths = _fitted([least[i] for i in part], [natural[i] for i in part], console.width)
        for i, width in zip(part, widths):
            name = columns[i]
            # never narrower than its least width: only headers and name lists ever wrap
            table.add_column(name, justify="left" if name in TEXT_COLUMNS else "right", overflow="fold", width=width)
        for row in cells:
            table.add_row(*[row[i] for i in part])
        heading = title if len(parts) == 1 else "%s (part %d of %d)" % (title, number, len(parts))
        console.print(heading, style="bold", markup=False, highlight=False)  # as wide as the screen, not the table
        console.print(table)
        console.print()
