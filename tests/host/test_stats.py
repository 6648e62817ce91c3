"""Standings, head-to-head and per-type summaries."""
from croupier.stats import by_game_type, finished, head_to_head, standings


def player(seat, name, won, tokens_lost=0, doublets=0, busts=0, eliminated=0):
    return {"seat": seat, "name": name, "won": won, "tokens_lost": tokens_lost, "doublets": doublets,
            "busts": busts, "eliminated": eliminated}


def game(kind, status, players, cards=10, rounds=2):
    return {"game": kind, "status": status, "players": players, "final_state": {"round": rounds},
            "timeline": {"meter": None, "points": [[0, []]] * (cards + 1)}}


GAMES = [
    game("lobo77", "over", [player(0, "Ann", 1, 1, 1, 0), player(1, "Bob", 0, 4, 2, 2, 1)], cards=20, rounds=3),
    game("lobo77", "over", [player(0, "Ann", 0, 4, 3, 1, 1), player(1, "Bob", 1, 2, 1, 1), player(2, "Cy", 0, 4, 0, 4, 1)],
         cards=30, rounds=5),
    game("basta", "over", [player(0, "Ann", 1), player(1, "Cy", 1), player(2, "Bob", 0, 4, 0, 4)], cards=40, rounds=4),
    game("basta", "abandoned", [player(0, "Ann", 0), player(1, "Cy", 0)]),
    game("lobo77", "playing", [player(0, "Bob", 0), player(1, "Cy", 0)]),
]


def test_only_finished_games_count():
    assert len(finished(GAMES)) == 3
    assert len(finished(GAMES, "basta")) == 1


def test_standings_sum_per_player_and_rank_by_win_rate():
    rows = standings(finished(GAMES))
    assert [r["name"] for r in rows] == ["Ann", "Cy", "Bob"]
    ann, cy, bob = rows
    assert (ann["games"], ann["wins"], ann["tokens_lost"], ann["doublets"], ann["busts"], ann["eliminated"]) == (3, 2, 5, 4, 1, 1)
    assert abs(ann["win_rate"] - 2 / 3) < 1e-9
    assert (cy["games"], cy["wins"], cy["win_rate"]) == (2, 1, 0.5)
    assert (bob["games"], bob["wins"], bob["tokens_lost"], bob["busts"], bob["eliminated"]) == (3, 1, 10, 7, 1)


def test_head_to_head_counts_meetings_and_wins():
    table = head_to_head(finished(GAMES))
    assert table[("Ann", "Bob")] == [3, 2]
    assert table[("Bob", "Ann")] == [3, 1]
    assert table[("Cy", "Ann")] == [2, 1]
    assert ("Ann", "Ann") not in table


def test_per_type_summary_averages_finished_games():
    lobo, basta = None, None
    for row in by_game_type(GAMES):
        lobo = row if row["game"] == "lobo77" else lobo
        basta = row if row["game"] == "basta" else basta
    assert (lobo["played"], lobo["over"], lobo["abandoned"]) == (3, 2, 0)
    assert (lobo["cards"], lobo["rounds"], lobo["doublets"], lobo["busts"]) == (25.0, 4.0, 3.5, 4.0)
    assert (basta["played"], basta["over"], basta["abandoned"], basta["busts"]) == (2, 1, 1, 4.0)
