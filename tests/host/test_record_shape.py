"""The shapes of journal record sync accepts from a board: five elements (older firmware) or
six, the sixth [boot, ms]; anything else is a malformed record, refused before storing."""
import pytest

from croupier.link import LinkError
from croupier.sync import _check_record

NEW = {"game": "lobo77", "players": ["Ana", "Ben"], "options": {}}


@pytest.mark.parametrize("record", [
    [3, None, 1, "play", "5"],
    [3, 1_767_225_600, 1, "play", "5", [2, 41_250]],
    [3, None, 3, "new", NEW, [1, 0]],
])
def test_five_and_six_element_records_are_accepted(record):
    _check_record(record, 2)


@pytest.mark.parametrize("record", [
    [3, None, 1, "play", "5", None],
    [3, None, 1, "play", "5", [2]],
    [3, None, 1, "play", "5", [2, 41_250, 7]],
    [3, None, 1, "play", "5", [2, "41250"]],
    [3, None, 1, "play", "5", [True, 41_250]],
    [3, None, 1, "play", "5", [2, -1]],
    [3, None, 1, "play", "5", [2, 41_250], "more"],
    [3, None, 1, "play"],
])
def test_a_malformed_record_is_refused(record):
    with pytest.raises(LinkError, match="malformed journal record after seq 2"):
        _check_record(record, 2)
