"""PNG charts (matplotlib, Agg backend: no display needed)."""
from pathlib import Path

from croupier.stats import label


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _whole_numbers(ax):
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _save(fig, path):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    _pyplot().close(fig)
    return path


def standings_chart(rows, path, title="Standings"):
    """Grouped bars per player: games played and won, with the win rate written above."""
    if not rows:
        raise ValueError("no finished games yet: nothing to chart (run `croupier sync` first)")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(rows)), 4))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], [r["games"] for r in rows], width=0.4, label="games", color="#9db4c0")
    bars = ax.bar([x + 0.2 for x in xs], [r["wins"] for r in rows], width=0.4, label="wins", color="#2a6f97")
    for bar, row in zip(bars, rows):
        ax.annotate("%d%%" % round(100 * row["win_rate"]), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=9)
    ax.set_xticks(list(xs), [r["name"] for r in rows])
    ax.set_ylabel("games")
    _whole_numbers(ax)
    ax.set_title(title)
    ax.legend()
    return _save(fig, path)


def game_chart(game, path):
    """One game over time: the running total, and each player's tokens/penalties when the game has them."""
    plt = _pyplot()
    timeline = game["timeline"]
    points = timeline["points"]
    meter = timeline.get("meter")
    fig, axes = plt.subplots(2 if meter else 1, 1, figsize=(8, 6 if meter else 3.5), sharex=True, squeeze=False)
    cards = list(range(len(points)))
    total_ax = axes[0][0]
    total_ax.plot(cards, [p[0] if p[0] is not None else float("nan") for p in points], color="#2a6f97")
    total_ax.set_ylabel("total")
    total_ax.set_title("%s game %s (%s)" % (game["game"], game["game_id"], game["status"]))
    if meter:
        ax = axes[1][0]
        for seat, player in enumerate(game["players"]):
            # a Mau-Mau player who joined between rounds has no count before joining
            counts = [p[1][seat] if seat < len(p[1]) else float("nan") for p in points]
            ax.step(cards, counts, where="post", label=label(player))
        ax.set_ylabel(meter)
        _whole_numbers(ax)
        ax.legend(fontsize=8)
    axes[-1][0].set_xlabel("cards played")
    return _save(fig, path)
