"""When each record was made: reconstructed from [boot, ms] and the syncs' hellos across
reboots and power cuts, stored as bounds, and shown the same way everywhere."""
import time

import pytest

from journal_records import journal, stamped
from croupier import dates
from croupier.sync import replay

H = 1_800_000_000.0  # the host's clock at the latest sync's hello
PLAYERS = ["Ann", "Bob"]


def game(first_seq, cards=("10", "9", "3")):
    return journal("lobo77", PLAYERS, list(cards), first_seq=first_seq)


def truths(records, power_up):
    """The true Unix time of each record: its power-up plus its ms."""
    return {r[0]: power_up + r[5][1] / 1000 for r in records}


def store_journal(store, records, sightings):
    with store.transaction():
        store.add_records("dev", "ep", records)
        for seq in sorted({r[2] for r in records}):
            g, results = replay([r for r in records if r[2] == seq])
            g.update(device="dev", log_epoch="ep")
            store.save_game(g, results)
        for sighting in sightings:
            store.add_sighting("dev", "ep", *sighting)
        store.date_journal("dev", "ep")
    return {seq: (lo, hi) for seq, lo, hi in store.db.execute("SELECT seq, t_min, t_max FROM records")}


def assert_contains(found, truth):
    for seq, moment in truth.items():
        lo, hi = found[seq]
        assert (lo is None or lo <= moment) and (hi is None or moment <= hi), (seq, lo, moment, hi)


def test_records_of_the_current_boot_get_their_exact_time_from_hello(store):
    # boot 3 began 60 s before the hello (answered within 0.4 s); no clock was ever set
    power_up = H + 0.2 - 60
    records = stamped(game(1), boot=3, first_ms=5000, step_ms=7000)
    found = store_journal(store, records, [(len(records), H, H + 0.4, 3, 60_000)])
    assert_contains(found, truths(records, power_up))
    assert all(hi - lo <= 2 for lo, hi in found.values())
    assert store.records("dev", "ep") == records  # [boot, ms] kept as the board sent it
    [g] = store.games()
    assert g["started"] == pytest.approx(power_up + 5, abs=1)
    assert dates.exact(g["started_min"], g["started_max"]) is not None


def test_earlier_boots_are_bounded_by_the_syncs_and_boots_around_them(store):
    # sync 1 in boot 1 (uptime 10 s), then game A in boot 1, game B in boot 2 (no clock: the
    # board was unplugged after sync 1), game C in boot 3, then sync 2
    p1, p2, p3 = H - 3 * 86400, H - 86400, H - 600
    a = stamped(game(1), boot=1, first_ms=20_000, step_ms=30_000)
    b = stamped(game(5), boot=2, first_ms=4_000, step_ms=60_000)
    c = stamped(game(9), boot=3, first_ms=3_000)
    records = a + b + c
    found = store_journal(store, records, [(0, p1 + 9.9, p1 + 10.2, 1, 10_000), (12, H, H + 0.3, 3, 600_000)])
    truth = {**truths(a, p1), **truths(b, p2), **truths(c, p3)}
    assert_contains(found, truth)
    assert all(found[s][1] - found[s][0] <= 2 for s in list(truths(a, p1)) + list(truths(c, p3)))
    # B: after A's last record, before boot 3 started: both sides bounded, not a date
    lo, hi = found[5]
    assert lo >= truth[4] - 1 and hi <= p3 + 1 and hi - lo > dates.EXACT_WITHIN
    # B's records keep their spacing: each bound moves with the ms
    assert found[6][0] - found[5][0] == pytest.approx(60, abs=1)
    started = {g["game_id"]: g for g in store.games()}
    assert started[5]["started"] is None and started[1]["started"] is not None


def test_a_game_cut_by_a_power_cut_and_resumed_is_dated_on_both_sides_of_the_cut(store):
    # one game: its first cards in boot 4 (no clock), the power cut, the rest after the box
    # came back (boot 5, the one the sync sees)
    p4, p5 = H - 7200, H - 1800
    records = game(1, cards=("10", "9", "3", "5", "6"))
    before, after = stamped(records[:3], boot=4, first_ms=30_000), stamped(records[3:], boot=5, first_ms=4_000)
    found = store_journal(store, before + after, [(6, H, H + 0.3, 5, 1_800_000)])
    assert_contains(found, {**truths(before, p4), **truths(after, p5)})
    assert all(found[s][1] - found[s][0] <= 2 for s in (4, 5, 6))      # after the cut: known
    assert found[3][0] is None and found[3][1] <= p5 + 1               # before it: before boot 5
    [g] = store.games()
    assert g["started"] is None and g["started_max"] <= p5 - 2 + 1


def test_one_known_time_pins_every_record_of_its_boot(store):
    # boot 2: a game before the clock was set, then one after (the board then stamps records)
    p2 = H - 5000
    before = stamped(game(1), boot=2, first_ms=1000)
    after = stamped(game(5), boot=2, first_ms=100_000, power_up=p2)
    records = before + after
    found = store_journal(store, records, [(8, H, H + 0.3, 4, 30_000)])
    assert_contains(found, {**truths(before, p2), **truths(after, p2)})
    assert all(hi - lo <= 2 * dates.BOARD_STAMP_SLACK + 2 for lo, hi in found.values())


def test_a_power_up_the_boot_count_missed_is_not_pinned_by_the_one_before(store):
    # a full flash left boot 2 uncounted: two power-ups wrote boot 2; the ms start again
    p_first, p_second = H - 9000, H - 4000
    first = stamped(game(1), boot=2, first_ms=5000, power_up=p_first)
    second = stamped(game(5), boot=2, first_ms=1000)
    found = store_journal(store, first + second, [(8, H, H + 0.3, 3, 60_000)])
    assert_contains(found, {**truths(first, p_first), **truths(second, p_second)})
    lo, hi = found[5]
    assert lo >= p_first + 8 - dates.BOARD_STAMP_SLACK and hi <= H + 0.3 - 60 and hi - lo > dates.EXACT_WITHIN


def test_records_without_boot_and_ms_are_still_accepted_and_bounded(store):
    # older firmware: five elements; the clock was set for the second game only
    old = game(1) + [r[:1] + [int(H - 100 + r[0])] + r[2:] for r in game(5)]
    for r in old[:4]:
        r[1] = None
    found = store_journal(store, old, [(8, H, H + 0.3, 7, 200_000)])
    # made before record 5, which the board stamped: no earlier bound, a later one from it
    assert found[1] == (None, H - 100 + 5 + dates.BOARD_STAMP_SLACK)
    assert found[5] == (H - 100 + 5 - dates.BOARD_STAMP_SLACK, H - 100 + 5 + dates.BOARD_STAMP_SLACK)
    assert store.records("dev", "ep") == old


def test_a_resync_tightens_nothing_it_cannot_and_keeps_every_bound_true(store):
    # the same journal dated twice (a second hello without new records) changes nothing
    records = stamped(game(1), boot=3, first_ms=5000)
    first = store_journal(store, records, [(4, H, H + 0.3, 3, 60_000)])
    with store.transaction():
        store.add_sighting("dev", "ep", 4, H + 50, H + 50.3, 3, 110_000)
        store.date_journal("dev", "ep")
    again = {seq: (lo, hi) for seq, lo, hi in store.db.execute("SELECT seq, t_min, t_max FROM records")}
    assert all(again[s][0] >= first[s][0] and again[s][1] <= first[s][1] for s in first)


def test_a_pulled_record_may_carry_boot_and_ms_and_nothing_else():
    from croupier.link import LinkError
    from croupier.sync import _check_record

    good = [7, None, 1, "play", "9"]
    _check_record(good, 6)
    _check_record(good + [[3, 81_250]], 6)
    for bad in ([3], [3, -1], [3, True], "3:81250", [3, 1.5]):
        with pytest.raises(LinkError, match="malformed journal record after seq 6"):
            _check_record(good + [bad], 6)
    with pytest.raises(LinkError):
        _check_record(good + [[3, 81_250], "more"], 6)


def test_the_display_marks_every_kind_of_date(utc):
    day = 1_796_066_520.0  # 2026-11-30 19:22 UTC
    assert dates.show(day, day + 3) == "2026-11-30 19:22"
    assert dates.show(day - 3600, day) == "~2026-11-30"
    assert dates.show(day - 2 * 86400, day) == "2026-11-28/30"
    assert dates.show(day, day + 3 * 86400) == "2026-11-30/12-03"
    assert dates.show(day + 31 * 86400, day + 34 * 86400) == "2026-12-31/2027-01-03"
    assert dates.show(None, day) == "≤ 2026-11-30 19:22"
    assert dates.show(day, None) == "≥ 2026-11-30 19:22"
    assert dates.show(None, None) == "?"
    assert dates.iso_fields("started", day, day + 2) == {
        "started": "2026-11-30T19:22:01Z", "started_min": "2026-11-30T19:22:00Z", "started_max": "2026-11-30T19:22:02Z"}
    assert dates.iso_fields("ended", None, day) == {"ended": "", "ended_min": "", "ended_max": "2026-11-30T19:22:00Z"}


def test_a_sync_dates_the_boards_records_truly_and_exactly_once_its_clock_runs(vboard, tmp_path):
    from croupier.commands.demo import play_through_link
    from croupier.link import connect
    from croupier.store import Store
    from croupier.sync import sync

    db = tmp_path / "games.sqlite3"
    with connect(vboard.port) as link, Store(db) as store:
        first_from = time.time()
        play_through_link(link, "lobo77", PLAYERS, ["10", "9"])  # the board's clock is not set yet
        first_to = time.time()
        sync(link, store)  # sets the clock
        second_from = time.time()
        play_through_link(link, "basta", PLAYERS, ["10", "9"])
        second_to = time.time()
        sync(link, store)
        rows = store.db.execute("SELECT game_id, t_min, t_max FROM records ORDER BY seq").fetchall()
        [lobo, basta] = store.games()
    slack = dates.BOARD_STAMP_SLACK
    for game_id, lo, hi in rows:
        made_from, made_to = (first_from, first_to) if game_id == lobo["game_id"] else (second_from, second_to)
        assert (lo is None or lo <= made_to + slack) and hi >= made_from - slack, (game_id, lo, hi)
    assert basta["started"] is not None and second_from - slack <= basta["started"] <= second_to + slack
    assert lobo["started_max"] is not None
