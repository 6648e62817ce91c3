"""Mau-Mau against the computer in the terminal: the match (session), its journal, the Textual app."""
