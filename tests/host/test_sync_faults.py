"""Sync under faults on the virtual board: a few seeded runs of tests/stress/sync_faults.py.

Each run strikes mid-sync (bytes dropped and corrupted both ways, a hard reset, a power cut)
and the database must end with exactly the board's records, none twice.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "stress"))
from sync_faults import KINDS, run_once  # noqa: E402


@pytest.mark.parametrize("seed", range(len(KINDS)), ids=KINDS)
def test_sync_ends_with_exactly_the_boards_records(vboard, tmp_path, seed):
    kind, attempts = run_once(vboard, seed, tmp_path / "faults.sqlite3")
    assert kind == KINDS[seed] and 1 <= attempts <= 4
