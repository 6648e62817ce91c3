"""The game charts, read back from the matplotlib figures: what is plotted and marked."""
import math

import pytest

from journal_records import journal
from croupier import plots
from croupier.cli import main
from croupier.commands.demo import script_game
from croupier.store import Store
from croupier.sync import replay

LOBO = ["Ana", "Ben", "Cleo", "Dev"]
THREE = ["Ana", "Ben", "Cleo"]


def rebuilt(kind, players, seed=1, cards=None):
    game, results = replay(journal(kind, players, cards if cards is not None else script_game(kind, players, seed=seed)))
    game.update(device="dev", log_epoch="ep", players=results, started_min=None, started_max=None)
    return game


def by_gid(ax, gid):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    assert found, "nothing drawn as %r" % gid
    return found


def whole(ticks):
    return all(float(t).is_integer() for t in ticks)


def steps_with(game, kind):
    return [(x, reached, seat) for x, (seat, _, reached, marks) in enumerate(game["timeline"]["steps"], 1)
            if kind in [k for k, _ in marks]]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plots._pyplot().close("all")


def test_lobo77_busts_show_the_total_they_reached_not_a_drop_to_0():
    game = rebuilt("lobo77", LOBO)
    busts = steps_with(game, "bust")
    assert busts and all(reached >= 77 for _, reached, _ in busts)
    fig = plots.game_figure(game, number=3)
    total_ax, meter_ax = fig.axes[:2]
    [line] = by_gid(total_ax, "total")
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    for x, reached, _ in busts:
        i = xs.index(x)
        assert ys[i] == reached
        # after the bust the line breaks, and the next round starts from 0 at the same card
        assert math.isnan(ys[i + 1]) and (xs[i + 2], ys[i + 2]) == (x, 0)
    [marks] = by_gid(total_ax, "bust")
    assert [tuple(p) for p in marks.get_offsets()] == [(x, reached) for x, reached, _ in busts]
    labels = [t.get_text() for t in total_ax.texts]
    assert ["%s %d" % (LOBO[seat], reached) for _, reached, seat in busts] == labels


def test_lobo77_marks_doublets_round_ends_and_players_who_are_out():
    game = rebuilt("lobo77", LOBO)
    fig = plots.game_figure(game, number=3)
    total_ax, meter_ax = fig.axes[:2]
    [doublets] = by_gid(total_ax, "doublet")
    assert [tuple(p) for p in doublets.get_offsets()] == [(x, r) for x, r, _ in steps_with(game, "doublet")]
    ends = [x for x, _, _ in steps_with(game, "round_end")]
    assert sorted(line.get_xdata()[0] for line in by_gid(total_ax, "round_end")) == ends
    [out] = by_gid(meter_ax, "out")
    assert len(out.get_offsets()) == len(LOBO) - 1
    swims = steps_with(game, "swimming")
    assert swims and [p[0] for p in by_gid(meter_ax, "swimming")[0].get_offsets()] == [x for x, _, _ in swims]


def test_card_and_count_axes_have_whole_number_ticks_only():
    fig = plots.game_figure(rebuilt("lobo77", LOBO, cards=["10", "9", "3"]), number=1)  # a short game: few cards
    fig.canvas.draw()
    for ax in fig.axes[:2]:
        assert whole(ax.get_xticks()) and whole(ax.get_yticks())


def test_players_with_equal_counts_stay_apart_and_marked():
    game = rebuilt("lobo77", LOBO)
    fig = plots.game_figure(game)
    meter_ax = fig.axes[1]
    lines = [by_gid(meter_ax, "meter:%d" % seat)[0] for seat in range(len(LOBO))]
    starts = [line.get_ydata()[0] for line in lines]  # every player starts with 3 tokens
    assert len(set(starts)) == len(LOBO) and all(abs(y - 3) < 0.25 for y in starts)
    assert len({line.get_marker() for line in lines}) == len(LOBO)


def test_the_title_names_the_number_croupier_games_shows(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    first = journal("basta", THREE, script_game("basta", THREE, seed=1))
    second = journal("lobo77", LOBO, script_game("lobo77", LOBO, seed=1), first_seq=len(first) + 1)
    with Store(path) as store, store.transaction():
        for records in (first, second):
            store.add_records("dev", "ep", records)
            game, results = replay(records)
            game.update(device="dev", log_epoch="ep")
            store.save_game(game, results)
    titles = []
    monkeypatch.setattr(plots, "_save", lambda fig, out: titles.append(fig.texts[0].get_text()) or out)
    assert main(["plot", "game", "2", "--db", str(path), "--out", str(tmp_path / "g.png")]) == 0
    assert titles[0].startswith("Lobo 77, game #2 ") and "game #%d" % second[0][0] not in titles[0]


def test_basta_charts_its_total_against_50_with_busts_and_basta_cards_and_penalties_below():
    game = rebuilt("basta", THREE)
    fig = plots.game_figure(game, number=1)
    total_ax, meter_ax = fig.axes[:2]
    busts = steps_with(game, "bust")
    assert all(reached > 50 for _, reached, _ in busts)
    [marks] = by_gid(total_ax, "bust")
    assert len(marks.get_offsets()) == len(busts)
    bastas = [x for x, (_, card, _, _) in enumerate(game["timeline"]["steps"], 1) if card == "basta"]
    assert [p[0] for p in by_gid(total_ax, "basta")[0].get_offsets()] == bastas
    assert meter_ax.get_ylabel() == "penalties"
    ends = [round(line.get_ydata()[-1]) for line in (by_gid(meter_ax, "meter:%d" % s)[0] for s in range(3))]
    assert ends == [p["penalties"] for p in game["final_state"]["players"]]


@pytest.mark.parametrize("kind, players", [("maumau", THREE), ("factors", THREE), ("duo", ["Ana", "Ben"])])
def test_score_pad_games_chart_each_players_score_after_every_round(kind, players):
    game = rebuilt(kind, players)
    fig = plots.game_figure(game, number=1)
    [ax] = fig.axes
    rounds = len(steps_with(game, "round_end"))
    scores = [v for _, row in game["timeline"]["points"] for v in row]
    spread = plots.OVERLAP * len(players) * max(1, max(scores) - min(scores))  # lines drawn apart by at most
    fig.canvas.draw()
    assert ax.get_xlabel() == "rounds played" and whole(ax.get_xticks())
    for seat, player in enumerate(game["final_state"]["players"]):
        [line] = by_gid(ax, "meter:%d" % seat)
        assert list(line.get_xdata()) == list(range(rounds + 1))
        assert abs(line.get_ydata()[-1] - player["score"]) <= spread


def test_a_maumau_player_who_joins_starts_their_line_at_the_score_they_joined_with():
    cards = ["out:0", "hand:1:30", "join:Cy", "out:1", "hand:0:20", "hand:2:50"]
    game = rebuilt("maumau", ["Ann", "Bob"], cards=cards)
    [ax] = plots.game_figure(game).axes
    [cy] = by_gid(ax, "meter:2")
    ys = list(cy.get_ydata())
    assert math.isnan(ys[0]) and abs(ys[1] - -30) < 5 and abs(ys[2] - -80) < 5  # joined with the worst score


def figure_texts(fig):
    """Every text a figure shows: titles, labels, legends, annotations."""
    return [t.get_text() for t in fig.findobj(lambda artist: hasattr(artist, "get_text"))]


def test_labels_of_busts_a_card_apart_do_not_overprint_each_other_or_the_marks():
    """120 cards without a bust, then three busts in a row: at this scale their labels stack."""
    game = rebuilt("lobo77", LOBO, cards=["10", "-10"] * 60 + ["77", "80", "90"])
    fig = plots.game_figure(game, number=1)
    fig.tight_layout()  # as _save lays it out
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    total_ax = fig.axes[0]
    labels = [t for t in total_ax.texts if t.get_gid() == "bust_label"]
    assert [t.get_text() for t in labels] == ["Ben 77", "Cleo 80", "Dev 90"]
    boxes = [plots._text_box(t, renderer) for t in labels]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[:i])
    [marks] = by_gid(total_ax, "bust")
    for x, y in total_ax.transData.transform(marks.get_offsets()):
        assert not any(box.contains(x, y) for box in boxes), "a label covers a bust's mark"
    assert all(box.y1 <= total_ax.bbox.y1 for box in boxes), "every label inside the chart"


@pytest.mark.parametrize("kind", ["maumau", "maumau_match"])
def test_a_maumau_game_without_a_finished_round_counts_rounds_in_whole_numbers(kind):
    game = rebuilt(kind, THREE, cards=[])
    fig = plots.game_figure(game, number=1)
    fig.canvas.draw()
    [ax] = fig.axes
    low, high = ax.get_xlim()
    assert [t for t in ax.get_xticks() if low <= t <= high] == [0]


def test_a_winning_computer_player_reads_once_in_brackets_in_the_legend():
    game = rebuilt("maumau", THREE)
    winner = next(p for p in game["players"] if p["won"])
    winner["computer"] = 3
    texts = figure_texts(plots.game_figure(game, number=1))
    assert "%s (computer 3), won" % winner["name"] in texts
    assert not any(") (" in text for text in texts)


def test_basta_charts_say_over_50_and_penalty_as_the_box_does():
    game = rebuilt("basta", THREE)
    assert steps_with(game, "bust")
    texts = figure_texts(plots.game_figure(game, number=1))
    assert "OVER 50: a penalty" in texts and "50: over it, a penalty" in texts
    assert not any("bust" in text.lower() for text in texts)
