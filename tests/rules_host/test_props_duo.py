# Two-player sums properties (CPython, hypothesis): random turns never lose a card or a marker,
# a live board never holds a finished line or stack, and undo/redo retraces every step.
from hypothesis import given, settings, strategies as st

from croupier.rules.duo import LINES
from randplay import NAMES
from props_more import CHOICES, effect_kinds, play_out, undo_redo_retraces, winners_or_turn

KINDS = {"round_end", "game_end"}
LAYOUTS = st.sampled_from(["123456789", "276951438", "147258369", "987654321"])


def lines_of(layout):
    return [[int(layout[p]) for p in line] for line in LINES]


class DuoReferee:
    def __init__(self, options):
        self.options = options
        self.lines = lines_of(options["layout"])
        self.sequence = []  # cards played this round

    def __call__(self, before, after, card, effects):
        kinds = effect_kinds(effects, KINDS, 2)
        gained = [now["score"] - was["score"]
                  for was, now in zip(before["players"], after["players"])]
        if "round_end" in kinds:
            ended = effects[0]
            assert ended["points"] in (1, 2) and gained[ended["seat"]] == ended["points"]
            assert gained[1 - ended["seat"]] == 0
            assert after["round"] == before["round"] + 1 or after["over"]
            self.sequence = []
        else:
            assert gained == [0, 0] and after["round"] == before["round"]
            self.live_board(before, after, card)
        winners_or_turn(after, "game_end" in kinds)
        scores = [p["score"] for p in after["players"]]
        assert (max(scores) >= self.options["target"]) == after["over"]

    def live_board(self, before, after, card):
        assert after["pile"] + after["sequence"] + sum(p["hand"] for p in after["players"]) \
            == 16
        board = after["board"]
        for seat, p in enumerate(after["players"]):
            own = [c for c in board if c and c[0] == seat]
            assert p["markers"] + sum(c[1] for c in own) <= 10
            assert p["markers"] <= before["players"][seat]["markers"]
            assert sum(1 for c in own if c[2]) + p["x2"] <= 1  # one x2, held or placed
        assert all(c is None or 1 <= c[1] <= 2 for c in board)  # 3 would have won
        for line in self.lines:
            owners = set(board[cell - 1] and board[cell - 1][0] for cell in line)
            assert owners != {0} and owners != {1}
        if card[0].isdigit():
            self.sequence.append(int(card[0]))
            if len(self.sequence) > 1:
                assert self.sequence[-1] != self.sequence[-2]
                cell = self.sequence[-1] + self.sequence[-2]
                assert after["total"] == cell and board[cell - 1][0] == before["turn"]


@settings(max_examples=100, deadline=None)
@given(layout=LAYOUTS, target=st.integers(1, 5), choices=CHOICES, data=st.data())
def test_duo_random_turns_keep_cards_markers_and_board_and_undo_redo_retraces(
        layout, target, choices, data):
    options = {"layout": layout, "target": target}
    g, history = play_out("duo", NAMES[:2], options, choices, DuoReferee(options))
    undo_redo_retraces(g, history, data.draw(st.integers(0, len(g.inputs))))
