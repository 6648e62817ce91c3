"""A long session over the link with nobody at the keys: the firmware's heap must not grow
with the number of cards (announcements nobody closes once piled up until it ran out)."""
from croupier.commands.demo import play_through_link, script_game
from croupier.link import connect

GAMES = [("lobo77", ["Ana", "Ben", "Cleo", "Dev"]), ("basta", ["Ana", "Ben", "Cleo"])] * 4


def test_eight_games_over_the_link_fit_the_heap(board):
    with connect(board.port) as link:
        for seed, (game, players) in enumerate(GAMES):
            final = play_through_link(link, game, players, script_game(game, players, seed=seed))
            assert final["over"], (seed, game)
        assert link.hello()["last_seq"] > 300
