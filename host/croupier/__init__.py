"""Croupier's laptop tool: flash, sync, standings, virtual board and HIL tests."""
__version__ = "0.1.0"
