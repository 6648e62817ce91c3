"""`croupier sync`: pull new journal records into the database, verified by replay."""
from croupier.cli import add_db_option, add_port_option
from croupier.commands.common import connect_board, open_store, progress_bar, reports_errors

HELP = "pull finished and running games from the board into the database (idempotent)"


def add_arguments(parser):
    add_port_option(parser)
    add_db_option(parser)


def sync_with_progress(link, store):
    """One sync with a progress bar over the journal's records; returns the report."""
    from croupier.sync import sync

    with progress_bar("syncing records") as update:
        return sync(link, store, on_page=update)


@reports_errors
def run(args):

    # The board first: a port that does not answer leaves no new database behind.
    with connect_board(args.port) as link, open_store(args) as store:
        report = sync_with_progress(link, store)
    for line in report.lines():
        print(line)
    print("database: %s" % store.path)
    return 1 if report.refused else 0
