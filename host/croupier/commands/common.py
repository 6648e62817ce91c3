"""What the device and database commands share: error reporting, the database, progress, tables."""
import functools
import sqlite3
import sys
from contextlib import contextmanager

from croupier.link import LinkError


def reports_errors(run):
    """Turn the errors a user can act on into one clear line on stderr and exit status 1."""

    @functools.wraps(run)
    def wrapper(args):
        try:
            return run(args)
        except (LinkError, ValueError, OSError, sqlite3.Error) as exc:
            print("croupier %s: %s" % (args.command, exc), file=sys.stderr)
            return 1

    return wrapper


def open_store(args):
    from croupier.store import Store, default_path

    return Store(args.db or default_path())


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


TEXT_COLUMNS = ("name", "player", "game", "players", "status", "started", "id")
WRAPPED_COLUMNS = ("players",)  # lists of names wrap between names; every other cell stays whole


def print_table(title, columns, rows, caption=None):
    """rows: lists of cells (anything str() can show), one per column. Fits the terminal, or 80
    columns when piped: light borders, headers wrapped between words, names lists wrapped;
    the title above the table (as wide as the screen), the caption below it."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(caption=caption, caption_justify="left", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False, show_edge=False)
    for name in columns:
        table.add_column(name, justify="left" if name in TEXT_COLUMNS else "right", overflow="fold",
                         no_wrap=name not in WRAPPED_COLUMNS, min_width=max(len(word) for word in name.split()))
    for row in rows:
        table.add_row(*[str(cell) for cell in row])
    console = Console()
    console.print(title, style="bold", markup=False, highlight=False)  # as wide as the screen, not the table
    console.print(table)
    console.print()
