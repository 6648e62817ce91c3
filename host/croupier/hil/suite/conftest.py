"""Fixtures of the Croupier HIL suite (the board fixtures come from croupier.hil.plugin)."""
import pytest

from croupier.hil.table import Table


@pytest.fixture
def table(device, keys):
    """A game at the table: `table.new(...)`, then `table.enter("33")` through the keypad."""
    return Table(device, keys)
