"""Standings (over all games, and per game kind in its own measures), head-to-head, per-type summaries."""
from croupier.stats import by_game_type, finished, head_to_head, kinds, standings


def player(seat, name, won, **measures):
    return {"seat": seat, "name": name, "won": won, "measures": measures}


def lobo(seat, name, won, tokens_lost=0, doublets=0, busts=0, eliminated=0):
    return player(seat, name, won, tokens_lost=tokens_lost, doublets=doublets, busts=busts, eliminated=eliminated)


def game(kind, status, players, cards=10, rounds=2):
    return {"game": kind, "status": status, "players": players, "final_state": {"round": rounds},
            "timeline": {"meter": None, "points": [[0, []]] * (cards + 1)}}


GAMES = [
    game("lobo77", "over", [lobo(0, "Ann", 1, 1, 1, 0), lobo(1, "Bob", 0, 4, 2, 2, 1)], cards=20, rounds=3),
    game("lobo77", "over", [lobo(0, "Ann", 0, 4, 3, 1, 1), lobo(1, "Bob", 1, 2, 1, 1), lobo(2, "Cy", 0, 4, 0, 4, 1)],
         cards=30, rounds=5),
    game("basta", "over", [player(0, "Ann", 1, penalties=1, bastas=2), player(1, "Cy", 1, penalties=1, bastas=0),
                           player(2, "Bob", 0, penalties=4, bastas=1)], cards=40, rounds=4),
    game("maumau", "over", [player(0, "Ann", 1, score=-20, rounds_won=3, eliminated=0),
                            player(1, "Bob", 0, score=-105, rounds_won=1, eliminated=1)]),
    game("maumau", "over", [player(0, "Ann", 0, score=-110, rounds_won=0, eliminated=1),
                            player(1, "Bob", 1, score=-35, rounds_won=2, eliminated=0)]),
    game("basta", "abandoned", [player(0, "Ann", 0), player(1, "Cy", 0)]),
    game("lobo77", "playing", [lobo(0, "Bob", 0), lobo(1, "Cy", 0)]),
]


def test_only_finished_games_count():
    assert len(finished(GAMES)) == 5
    assert len(finished(GAMES, "basta")) == 1
    assert kinds(finished(GAMES)) == ["basta", "lobo77", "maumau"]


def test_standings_over_all_kinds_count_games_and_wins_only():
    rows = standings(finished(GAMES))
    assert [(r["name"], r["games"], r["wins"]) for r in rows] == [("Ann", 5, 3), ("Cy", 2, 1), ("Bob", 5, 2)]
    assert abs(rows[0]["win_rate"] - 3 / 5) < 1e-9
    assert set(rows[0]) == {"name", "games", "wins", "win_rate"}


def test_lobo77_standings_sum_its_tokens_doublets_busts():
    ann, bob, cy = standings(finished(GAMES), "lobo77")
    assert (ann["name"], ann["games"], ann["wins"]) == ("Ann", 2, 1)
    assert (ann["tokens_lost"], ann["doublets"], ann["busts"], ann["eliminated"]) == (5, 4, 1, 1)
    assert (bob["tokens_lost"], bob["busts"], bob["eliminated"]) == (6, 3, 1)
    assert (cy["name"], cy["games"], cy["wins"], cy["busts"]) == ("Cy", 1, 0, 4)


def test_basta_standings_count_penalties_not_tokens_or_busts():
    rows = {r["name"]: r for r in standings(finished(GAMES), "basta")}
    assert set(rows["Bob"]) == {"name", "games", "wins", "win_rate", "penalties", "bastas"}
    assert (rows["Bob"]["penalties"], rows["Ann"]["bastas"], rows["Cy"]["penalties"]) == (4, 2, 1)


def test_score_measures_are_averaged_per_game_and_counts_summed():
    ann, bob = standings(finished(GAMES), "maumau")
    assert (ann["score"], ann["rounds_won"], ann["eliminated"]) == (-65.0, 3, 1)
    assert (bob["score"], bob["rounds_won"], bob["eliminated"]) == (-70.0, 3, 1)


def test_head_to_head_counts_meetings_and_wins():
    table = head_to_head(finished(GAMES))
    assert table[("Ann", "Bob")] == [5, 3]
    assert table[("Bob", "Ann")] == [5, 2]
    assert table[("Cy", "Ann")] == [2, 1]
    assert ("Ann", "Ann") not in table


def test_per_type_summary_averages_finished_games():
    rows = {row["game"]: row for row in by_game_type(GAMES)}
    lobo, basta = rows["lobo77"], rows["basta"]
    assert (lobo["played"], lobo["over"], lobo["abandoned"]) == (3, 2, 0)
    assert (lobo["cards"], lobo["rounds"]) == (25.0, 4.0)
    assert (basta["played"], basta["over"], basta["abandoned"], basta["cards"]) == (2, 1, 1, 40.0)
