"""What only the virtual board's side channel can show: the glass, the buzzer, power cuts and
a faulty serial line. Each test is marked `virtual_board` and skipped on a real board."""
import ast

import pytest

from croupier.link import DeviceError, LinkTimeout
from croupier.paths import firmware_dir

SETTLE_S = 4.0  # deadline for the display and the buzzer to catch up (short news shows 1.5 s)


def tunes(board):
    """The buzzer's tune table, read from the firmware the board runs (croupier/buzzer.py)."""
    source = ((board.firmware or firmware_dir()) / "croupier" / "buzzer.py").read_text()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "TUNES":
            return ast.literal_eval(node.value)
    raise AssertionError("no TUNES table in the firmware's buzzer.py")


def notes(tones):
    """The frequencies sounded, in order, from the PWM log [(t_ms, freq, duty), ...]."""
    out, sounding = [], None
    for _, freq, duty in tones:
        now = freq if duty else None
        if now is not None and now != sounding:
            out.append(now)
        sounding = now
    return out


def contains(seq, part):
    return any(seq[i:i + len(part)] == part for i in range(len(seq) - len(part) + 1))


class Buzzer:
    """Waits, with a deadline, for a named tune to sound after the last mark."""

    def __init__(self, device, vboard):
        self.device, self.vboard = device, vboard
        self.table = tunes(device.board)
        self.mark()

    def mark(self):
        self.start = len(self.vboard.tones)

    def expect(self, name, why):
        tune = self.table[name]
        want = [tune[i] for i in range(0, len(tune), 2) if tune[i]]
        self.device.until("the %r tune %r (%s)" % (name, want, why),
                          lambda: contains(self.heard(), want),
                          lambda: "the buzzer sounded %r" % self.heard(), SETTLE_S)
        self.mark()

    def heard(self):
        return notes(self.vboard.tones[self.start:])


@pytest.fixture
def buzzer(device, vboard):
    return Buzzer(device, vboard)


@pytest.mark.virtual_board("tone log")
def test_each_announcement_sounds_its_own_tune(device, keys, buzzer):
    device.new("lobo77", ["Ann", "Bob", "Cy"])
    buzzer.mark()
    keys.press("5", "ok")
    buzzer.expect("click", "each accepted key clicks")
    keys.press("6", "ok")
    buzzer.expect("doublet", "Cy's 6 makes 11: a doublet")
    device.play("10", "10", "10", "10", "10", "3", "6")  # 21 31 41 51 61 64 70: Bob on turn
    keys.press("7", "ok")
    buzzer.expect("bust", "Bob's 7 makes 77")
    buzzer.expect("round_end", "the round-end announcement follows when 77! has been shown")
    keys.press("ok")

    device.new("basta", ["A", "B"], limit=1)
    buzzer.mark()
    keys.press("5", "1", "ok")
    buzzer.expect("bust", "A's 51 is over 50")
    buzzer.expect("game_end", "the first penalty ends the game with limit=1")
    keys.press("ok")


@pytest.mark.virtual_board("tone log")
def test_an_illegal_key_buzzes_and_changes_nothing(device, keys, buzzer):
    state = device.new("lobo77", ["Ann", "Bob"])
    last = device.last_seq()
    buzzer.mark()
    keys.press("ok")  # nothing typed: "end", which only cuts a 2x turn short
    buzzer.expect("error", "ok with nothing typed outside a two-card turn is refused")
    assert device.state() == state and device.last_seq() == last, "a refused key changes neither game nor journal"


@pytest.mark.virtual_board("glass")
def test_the_glass_shows_what_screen_reports(device, vboard, screen):
    device.new("lobo77", ["Ann", "Bob", "Cy"])
    device.play("42")
    frame = device.until("the OLED's memory to equal the `screen` buffer",
                         lambda: _same_as_glass(screen(), vboard), lambda: "they still differ", SETTLE_S)
    assert frame.lit() > 100, "the play screen shows the total 42 in big digits"


def _same_as_glass(frame, vboard):
    return frame if vboard.glass() == frame.fb else None


def _records_since(device, game_seq):
    records = device.journal(game_seq)
    seqs = [r[0] for r in records]
    assert seqs == list(range(game_seq, game_seq + len(seqs))), "journal seqs run on without gaps or repeats: %r" % seqs
    return records


@pytest.mark.virtual_board("power cut")
@pytest.mark.parametrize("writes", [1, 2, 3])
def test_power_cut_during_a_card_resumes_at_the_last_confirmed_card(device, vboard, writes):
    device.new("lobo77", ["Ann", "Bob", "Cy"])
    game_seq = device.last_seq()
    # While the journal's segment is small, littlefs keeps it inline in its folder's
    # metadata and a card takes a single flash write: play on (the total back to 0 after
    # each pair) until a card takes three or more, so the cut lands inside one.
    pairs = 0
    while pairs < 10:
        before = vboard.flash_writes
        device.play("10", "-10")
        pairs += 1
        if vboard.flash_writes - before >= 6:
            break
    device.play("10", "9")

    vboard.cut_power(after_writes=writes)
    try:
        confirmed = device.link.call("play", card="5", timeout=2.0)["state"]
    except LinkTimeout:
        confirmed = None  # the board died before it could answer
    device.until("the power cut at flash write %d while the card is journaled" % writes,
                 lambda: not vboard.powered, lambda: "the board still runs", SETTLE_S)
    vboard.restart()
    device.wait_boot("the board boots again after the power cut")

    state = device.state()
    if confirmed is not None:
        assert state == confirmed, "a card the board confirmed is never lost"
    else:
        assert state["total"] in (19, 24), "the game resumes before or after the card, never elsewhere: %r" % state
    records = _records_since(device, game_seq)
    plays = [r[4] for r in records if r[3] == "play"]
    assert plays[:2 * pairs] == ["10", "-10"] * pairs, "the cards before stay: %r" % plays
    plays = plays[2 * pairs:]
    assert plays == ["10", "9", "5"][:len(plays)] and len(plays) in (2, 3), "the journal holds each card once: %r" % plays
    assert (len(plays) == 3) == (state["total"] == 24), "the game state and the journal agree"


@pytest.mark.virtual_board("serial faults")
def test_a_faulty_line_never_makes_the_board_apply_what_was_not_sent(device, vboard):
    device.new("lobo77", ["Ann", "Bob", "Cy"])
    game_seq = device.last_seq()
    sent = ["1", "2", "3", "4", "5", "6", "7"]  # totals 1 3 6 10 15 21 28: no doublet, whatever is lost
    vboard.faults(drop=0.02, corrupt=0.02, baud=None, seed=7)
    try:
        for card in sent:
            try:
                device.link.call("play", card=card, timeout=0.5)
            except (LinkTimeout, DeviceError):
                pass  # lost on the way there or back: the journal says whether it was played
    finally:
        vboard.faults(drop=0.0, corrupt=0.0, baud=None, seed=0)
    device.quiet()
    played = [r[4] for r in _records_since(device, game_seq) if r[3] == "play"]
    assert contains_in_order(sent, played), "only cards that were sent, each at most once, in order: %r" % played
    assert device.state()["total"] == sum(int(card) for card in played), "the total is the sum of the journaled cards"


def contains_in_order(sent, played):
    it = iter(sent)
    return all(card in it for card in played)
