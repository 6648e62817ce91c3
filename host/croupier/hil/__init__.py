"""Hardware-in-the-loop testing for Croupier: a pytest plugin and the suite it runs.

`croupier hil` runs the suite (suite/) against a real board (`--port`) or a fresh virtual
board. The plugin (plugin.py) gives each test the board under test through fixtures that
work the same on both; see docs/hil.md.
"""
from pathlib import Path

SUITE_DIR = Path(__file__).resolve().parent / "suite"
PLUGIN = "croupier.hil.plugin"
NO_BOARD = 3  # exit status: the board did not come up, or stopped answering
REFUSED = 4   # exit status: the board holds what the run could lose (croupier.hil.safety)
