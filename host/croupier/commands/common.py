"""What the device and database commands share: error reporting, the database, progress, tables."""
import functools
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

from croupier.link import LinkError


def reports_errors(run):
    """Turn the errors a user can act on into one clear line on stderr and exit status 1."""

    @functools.wraps(run)
    def wrapper(args):
        try:
            return run(args)
        except BrokenPipeError:
            raise  # the reader of the output left: croupier.cli ends quietly
        except (LinkError, ValueError, OSError, sqlite3.Error) as exc:
            print("croupier %s: %s" % (args.command, exc), file=sys.stderr)
            return 1

    return wrapper


def open_store(args, readonly=False):
    """The database of `--db` (default: the user's). readonly: for the commands that only
    read, which must not create the file nor change it."""
    from croupier.store import Store, default_path

    return Store(args.db or default_path(), readonly=readonly)


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
def progress_bar(description, total=None):
    """A rich progress bar; yields update(done, total) for the work to call."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=False) as bar:
        task = bar.add_task(description, total=total)

        def update(done, new_total=None):
            bar.update(task, completed=done, total=new_total if new_total is not None else bar.tasks[0].total)

        yield update


def print_table(title, columns, rows):
    """rows: lists of cells (anything str() can show), one per column."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for name in columns:
        table.add_column(name, justify="left" if name in ("name", "player", "game", "players", "status") else "right")
    for row in rows:
        table.add_row(*[str(cell) for cell in row])
    Console().print(table)
