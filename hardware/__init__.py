"""Croupier hardware: the pin map and everything generated from it (`python -m hardware.generate`)."""
