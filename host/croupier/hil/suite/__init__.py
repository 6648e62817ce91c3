"""The HIL suite itself: run it with `croupier hil` (see docs/hil.md)."""
