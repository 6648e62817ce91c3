"""PNG charts (matplotlib, Agg backend: no display needed)."""
import math
from pathlib import Path

from croupier.dates import show
from croupier.statetext import BOX_WORDS
from croupier.stats import KIND_NAMES, label


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _whole_numbers(ax, which="y"):
    """Ticks on whole numbers only (no 0.25 cards, no half tokens), even when the axis spans a
    single value (a game without a finished round): then one tick."""
    from matplotlib.ticker import MaxNLocator

    for axis in which:
        getattr(ax, axis + "axis").set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def _save(fig, path):
    path = Path(path)
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")
    _pyplot().close(fig)
    return path


def standings_chart(rows, path, title="Standings"):
    """Grouped bars per player (rows: at least one): games played and won, with the win rate
    written above."""
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


# -- one game -------------------------------------------------------------------------------
TITLES = dict(KIND_NAMES, maumau_match="Mau-Mau against the computer", factors="Factor race", duo="Two-player sums")
# Where a round of the racing games ends: the total a card must reach to bust, and what the
# chart calls a bust (in BASTA, the box's words).
BUST_LINES = {"lobo77": (77, "77: bust"), "basta": (50, "50: over it, a penalty")}
BUSTS = {"lobo77": "bust", "basta": BOX_WORDS[("basta", "bust")][0] + ": a penalty"}
LABEL_OFFSET = (0, 7)  # points: a bust label above its mark
LABEL_STEP = 9  # points: a bust label raised above what it would overprint
BUST_MARK_SIZE = 70  # points squared (matplotlib's scatter s)
PLAYER_MARKERS = "osD^vP*X"
OVERLAP = 0.02  # of the meter's range between players' lines, so equal counts stay apart
SHIFT_NOTE = "lines drawn a little\napart where equal"
LABELS = {"factors": "score (lowest wins)", "duo": "points"}


def _title(game, number):
    winners = [label(p) for p in game["players"] if p["won"]]
    outcome = "won by %s" % ", ".join(winners) if winners else game["status"]
    name = "game #%s" % number if number is not None else "game"
    return "%s, %s (%s): %s" % (TITLES.get(game["game"], game["game"]), name,
                                show(game["started_min"], game["started_max"]), outcome)


def _outside_legend(ax, title=None):
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, title=title,
              title_fontsize=7)


def _meter_lines(ax, game, xs, series, ylabel, step=True):
    """One line per player, shifted a little off the true value (lines that share a value stay
    visible), marked where it changes (step) or at every point. series: per x the meter per
    seat (shorter while a Mau-Mau seat had not joined). Returns each seat's shift."""
    values = [v for row in series for v in row if v is not None]
    spread = OVERLAP * max(1, max(values) - min(values)) if values else 0
    count = len(game["players"])
    shifts = [(seat - (count - 1) / 2) * spread for seat in range(count)]
    for seat, player in enumerate(game["players"]):
        shift = shifts[seat]
        ys = [row[seat] + shift if seat < len(row) and row[seat] is not None else float("nan") for row in series]
        marked = [i for i in range(len(ys)) if not step or i == 0 or ys[i] != ys[i - 1]]
        style = dict(marker=PLAYER_MARKERS[seat % len(PLAYER_MARKERS)], markevery=marked,
                     label=label(player) + (", won" if player["won"] else ""), gid="meter:%d" % seat)
        if step:
            ax.step(xs, ys, where="post", **style)
        else:
            ax.plot(xs, ys, **style)
    ax.set_ylabel(ylabel)
    _outside_legend(ax, SHIFT_NOTE)
    return shifts


PLAYER_MARKS = {"eliminated": dict(marker="x", s=80, color="black", label="out"),
                "swimming": dict(marker="o", s=150, facecolors="none", edgecolors="black", label="swimming")}


def _player_marks(ax, kind, at, series, shifts):
    """A mark on each player's line where an effect names them (out: a black x; swimming: a
    ring). at: (x, seat)."""
    points = [(x, series[x][seat] + shifts[seat]) for x, seat in at if seat < len(series[x])]
    if points:
        style = PLAYER_MARKS[kind]
        ax.scatter(*zip(*points), zorder=4, gid=style["label"], **style)
        _outside_legend(ax, SHIFT_NOTE)


def _named(marks, kind):
    """The seats an input's effects of this kind name."""
    return [seat for k, seat in marks if k == kind and seat is not None]


def _race_chart(plt, game):
    """Lobo 77, BASTA: the running total of every round, up to the total each bust reached,
    with doublets, busts (who, and the total) and round ends marked; below it each player's
    tokens or penalties."""
    timeline = game["timeline"]
    steps, points = timeline["steps"], timeline["points"]
    names = [label(p) for p in game["players"]]
    fig, (total_ax, meter_ax) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True,
                                             gridspec_kw={"height_ratios": [3, 2]})
    xs, ys = [0], [0]
    round_ends, marks_at, named = [], {"doublet": [], "bust": [], "basta": []}, {"eliminated": [], "swimming": []}
    for x, (seat, card, reached, marks) in enumerate(steps, 1):
        kinds = [kind for kind, _ in marks]
        xs.append(x)
        ys.append(reached if reached is not None else float("nan"))
        marks_at["doublet"] += [(x, reached, payer) for kind, payer in marks if kind == "doublet"]
        marks_at["bust"] += [(x, reached, payer) for kind, payer in marks if kind == "bust"]
        if card == "basta":
            marks_at["basta"].append((x, reached, seat))
        for kind, at in named.items():
            at += [(x, seat) for seat in _named(marks, kind)]
        if "round_end" in kinds:
            round_ends.append(x)
            xs += [x, x]  # the next round starts from 0 at the same card: a gap, not a fall
            ys += [float("nan"), 0]
    total_ax.plot(xs, ys, color="#2a6f97", linewidth=1.5, gid="total")
    styles = {"doublet": ("D", 40, "#f4a259", "doublet"),
              "bust": ("X", BUST_MARK_SIZE, "#c0392b", BUSTS[game["game"]]),
              "basta": ("*", 120, "#6a4c93", "Basta!")}
    for kind, at in marks_at.items():
        if at:
            marker, size, color, legend = styles[kind]
            total_ax.scatter([a[0] for a in at], [a[1] for a in at], marker=marker, s=size, color=color, zorder=3,
                             label=legend, gid=kind)
    for x, reached, seat in marks_at["bust"]:
        total_ax.annotate("%s %s" % (names[seat] if seat is not None else "", reached), (x, reached),
                          textcoords="offset points", xytext=LABEL_OFFSET, ha="center", fontsize=8, color="#c0392b",
                          gid="bust_label", zorder=5, arrowprops=dict(  # a leader line, once raised
                              arrowstyle="-", color="#c0392b", linewidth=0.5, shrinkA=0,
                              shrinkB=math.sqrt(BUST_MARK_SIZE) / 2))
    line = BUST_LINES.get(game["game"])
    if line:
        total_ax.axhline(line[0], color="#c0392b", linestyle="--", linewidth=0.8, label=line[1])
    total_ax.margins(y=0.15)  # room above the highest bust for its label
    for ax in (total_ax, meter_ax):
        for x in round_ends:
            ax.axvline(x, color="#999999", linestyle=":", linewidth=0.8, gid="round_end")
    total_ax.set_ylabel("total")
    _outside_legend(total_ax)
    series = [p[1] for p in points]
    shifts = _meter_lines(meter_ax, game, list(range(len(points))), series, timeline["meter"])
    for kind, at in named.items():
        _player_marks(meter_ax, kind, at, series, shifts)
    meter_ax.set_xlabel("cards played (dotted: round ends)")
    for ax in (total_ax, meter_ax):
        _whole_numbers(ax, "xy")
    return fig


def _rounds_chart(plt, game):
    """Mau-Mau, the factor race, the two-player game: each player's score after every round,
    with the game's limit or target, and who went out when."""
    timeline = game["timeline"]
    points = timeline["points"]
    series, outs = [list(points[0][1])], []
    for i, (_, card, _, marks) in enumerate(timeline["steps"], 1):
        outs += [(len(series), seat) for seat in _named(marks, "eliminated")]
        if any(k == "round_end" for k, _ in marks):
            series.append(list(points[i][1]))
        elif card.startswith("join:"):  # a Mau-Mau player joining between rounds starts here
            series[-1].append(points[i][1][-1])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    shifts = _meter_lines(ax, game, list(range(len(series))), series, LABELS.get(game["game"], timeline["meter"]),
                          step=False)
    _player_marks(ax, "eliminated", outs, series, shifts)
    options = game["options"]
    if game["game"] in ("maumau", "maumau_match"):
        ax.axhline(options["limit"], color="#c0392b", linestyle="--", linewidth=0.8)
        ax.annotate("out at %s" % options["limit"], (0, options["limit"]), fontsize=8, color="#c0392b",
                    textcoords="offset points", xytext=(2, 3))
    elif game["game"] == "duo":
        ax.axhline(options["target"], color="#2a9d8f", linestyle="--", linewidth=0.8)
        ax.annotate("wins at %s" % options["target"], (0, options["target"]), fontsize=8, color="#2a9d8f",
                    textcoords="offset points", xytext=(2, -10))
    ax.set_xlabel("rounds played")
    _whole_numbers(ax, "xy")
    return fig


CHARTS = {"lobo77": _race_chart, "basta": _race_chart}


def _labels_apart(fig):
    """Raise each bust label (a leader line to its mark) above the bust marks and the earlier
    labels it would overprint (busts a few cards apart), measured on the figure as _save lays
    it out; the axis grows to hold them. A figure without one is left as it is."""
    labelled = [(ax, sorted((t for t in ax.texts if t.get_gid() == "bust_label"), key=lambda t: t.xy[0]))
                for ax in fig.axes]
    labelled = [(ax, labels) for ax, labels in labelled if labels]
    if not labelled:
        return
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    for ax, labels in labelled:
        for _ in range(5):  # a taller axis moves the marks: place the labels again
            _raise_labels(labels, renderer)
            over = max([_text_box(t, renderer).y1 - ax.bbox.y1 for t in labels] + [0])
            if not over:
                break
            low, high = ax.get_ylim()
            ax.set_ylim(low, high + (over + LABEL_STEP) / ax.bbox.height * (high - low))


def _raise_labels(labels, renderer):
    from matplotlib.transforms import Bbox

    half = renderer.points_to_pixels(math.sqrt(BUST_MARK_SIZE)) / 2
    placed = []
    for text in labels:  # each mark's square
        x, y = text.axes.transData.transform(text.xy)
        placed.append(Bbox.from_extents(x - half, y - half, x + half, y + half))
    for text in labels:
        text.xyann = LABEL_OFFSET
        while any(_text_box(text, renderer).overlaps(box) for box in placed):
            text.xyann = (text.xyann[0], text.xyann[1] + LABEL_STEP)
        placed.append(_text_box(text, renderer))


def _text_box(label, renderer):
    """Where a label's text is drawn, in pixels (its leader line left out)."""
    from matplotlib.text import Text

    label.update_positions(renderer)
    return Text.get_window_extent(label, renderer)


def game_figure(game, number=None):
    """The matplotlib figure of one game, in the chart that fits its kind. number: the game's
    number in `croupier games`, for the title."""
    if "steps" not in game["timeline"]:  # kept from an older database: its records no longer replay
        raise ValueError("game %s was stored by an earlier croupier and no longer replays: it has no chart"
                         % (number if number is not None else game["game_id"]))
    plt = _pyplot()
    fig = CHARTS.get(game["game"], _rounds_chart)(plt, game)
    fig.suptitle(_title(game, number), fontsize=11)
    _labels_apart(fig)
    return fig


def game_chart(game, path, number=None):
    """One game as a PNG (game_figure)."""
    return _save(game_figure(game, number), path)
