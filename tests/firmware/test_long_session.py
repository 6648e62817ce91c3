"""A long session over the link with nobody at the keys: the firmware's heap must not grow
with the number of cards (announcements nobody closes once piled up until it ran out), and
a new game must find room while the last one is still on the screen."""
from croupier.commands.demo import play_through_link, script_game
from croupier.link import connect

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4
# The games with the biggest engines, one after another: the old game's screens and the new
# game's engine together once left `new` no room for its journal file (a 1 KB allocation).
BIG_ENGINES = [("maumau", ["Ana", "Ben"]), ("factors", ["Ana", "Ben", "Cleo"]),
               ("duo", ["Dev", "Eve"])] * 2


def _play_all(board, games, seeds):
    with connect(board.port) as link:
        for (game, players), seed in zip(games, seeds):
            final = play_through_link(link, game, players, script_game(game, players, seed=seed))
            assert final["over"], (seed, game)
        return link.hello()["last_seq"]


def test_eight_games_over_the_link_fit_the_heap(board):
    assert _play_all(board, GAMES, range(len(GAMES))) > 300


def test_the_biggest_engines_follow_each_other_over_the_link(board):
    assert _play_all(board, BIG_ENGINES, [1] * len(BIG_ENGINES)) > 200
