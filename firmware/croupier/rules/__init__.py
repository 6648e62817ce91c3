# Pure game engines, identical on CPython and MicroPython (no machine/asyncio/time imports).
#   g = new_game("lobo77", ["Ann", "Bob", "Cy"], {"tokens": 3}); g.play("9"); g.undo()
# Each game lives in a module named after it (lobo77.py, basta.py, ...) with a class Game;
# modules load on first use, so the board only pays for the games actually played.
from .engine import GAMES, HOST_GAMES, Illegal, SetupError


def game_key(name):
    """The key of GAMES for a game name in any case ("Lobo77" -> "lobo77"); SetupError
    naming the games this device has when there is no such game here."""
    key = name.lower() if isinstance(name, str) else None
    if key not in GAMES or not _here(key):
        raise SetupError("unknown game %s; games: %s" % (name, ", ".join(sorted(g for g in GAMES if _here(g)))))
    return key


def _here(game):
    """Is the game's engine on this device? Only a host-only game's module may be absent."""
    if game not in HOST_GAMES:
        return True
    try:
        engine_class(game)
    except ImportError:
        return False
    return True


def new_game(game, players, options=None):
    """A fresh engine for game (a game_key name); SetupError(reason) when it cannot start."""
    game = game_key(game)
    try:
        engine = engine_class(game)
    except ImportError as exc:
        raise SetupError("%s is not available on this device (%s)" % (game, exc))
    return engine(players, options)


def engine_class(game):
    """The Game class of a game in GAMES, its module loaded now if it was not."""
    return __import__("croupier.rules." + game, None, None, ["Game"]).Game
