"""The sync's progress counts records: what was pulled of what there is to pull."""
from journal_records import BASTA, LOBO
from croupier.commands.demo import play_through_link, script_game
from croupier.link import connect
from croupier.store import Store
from croupier.sync import PAGE_MAX, sync


def pages_of_a_sync(link, store):
    pages = []
    sync(link, store, on_page=lambda done, total: pages.append((done, total)))
    return pages


def test_progress_counts_the_records_of_this_sync(vboard, tmp_path):
    with connect(vboard.port) as link, Store(tmp_path / "games.sqlite3") as store:
        assert pages_of_a_sync(link, store) == [(0, 0)]  # an empty journal: nothing of nothing
        seed = 0
        while link.hello()["last_seq"] <= link.info.get("log_max", PAGE_MAX):  # more than a page
            seed += 1
            play_through_link(link, "lobo77", LOBO, script_game("lobo77", LOBO, seed=seed))
        records = link.hello()["last_seq"]
        pages = pages_of_a_sync(link, store)
        assert len(pages) > 1 and {total for _, total in pages} == {records}
        assert [done for done, _ in pages] == sorted(done for done, _ in pages) and pages[-1] == (records, records)
        play_through_link(link, "basta", BASTA, script_game("basta", BASTA, seed=1)[:11])
        # 12 new records behind the synced (and acknowledged) ones: counted as 12, not by seq
        assert pages_of_a_sync(link, store) == [(12, 12)]
