"""Per-game screen modules: one module per game, named after the rules engine.

A game module describes what differs between games on screen; the screens themselves are
shared. It defines:
  NAME        the rules engine's name of the game
  FIRST       the setup step that picks seat 0: "deals" or "starts" (the list is rotated so
              the chosen player becomes seat 0; the seat order stays clockwise)
  LABELS      option name -> short label (the options themselves, their values and
              defaults come from the rules engine's OPTIONS)
  PAGES       soft-key pages: each three (label, action); an action is a card, MORE (next
              page), or a card prefix ending in ":" that asks for a seat ("dbl:")
  EMPTY_OK    card played by `ok` with nothing typed (Lobo's "end" of a 2x turn) or None
  badge(p)    one character after a player's name: tokens, penalties, "~" swimming
  marked(p)   True for a mark under the player's chip (a double lying in front of them)
  TEXTS       effect kind -> (title, line with {} for the player's name)
Optional, for games whose screen is not a running total (the play screen uses each hook the
module defines, else its plain behaviour):
  VALUES      option name -> the values setup cycles through (a long range, a free string)
  typed(state, entry)       the card `ok` plays for the typed digits ("hand:2:23")
  result(state, entry, after)  preview text after "23 -> " instead of the total
  pages(state)              the soft-key pages now (they differ per phase)
  choices(prefix, ctrl)     (label, value) pairs a prefix card picks by digit instead of a seat;
                            the pick appends value, asks again if value ends in ":", and
                            plays the card as it stands (as `ok` does) for value ""
  body(fb, state)           draws everything above the soft keys (no total, no chips)
  owing(game)               a line for the empty entry row, from the rules engine, on what
                            the player on turn still owes that the state's `owed` does not
                            say (Lobo's second card of a 2x turn), or None
A soft-key action may also be a card with "{}" for the typed digits ("{}x"), or a function
f(play) returning a sub-screen (key(k, hold) -> card to play, "" to close, None; draw(fb)).
Adding a game = adding its module and a line to MENU.
"""
# (game, title) in menu order: the games that have a screen module. The menu lists those
# the rules registry knows, without loading any module.
MENU = (("lobo77", "Lobo 77"), ("basta", "BASTA 50"), ("maumau", "Mau-Mau"),
        ("factors", "Factor race"), ("duo", "Duo sums"))
MORE = "more"


def load(name):
    return __import__("croupier.ui.games." + name, None, None, (name,))
