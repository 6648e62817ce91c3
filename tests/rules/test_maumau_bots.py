# The computer players of Mau-Mau (croupier.rules.maumau_bots): they play only legal inputs,
# decide from what their seat sees and nothing else, and replay from their seed.
# Runs on CPython (pytest) and on MicroPython.
from croupier.rules.canon import dumps
from croupier.rules.maumau_match import shuffled, HAND, ACTION
from croupier.rules.maumau_bots import Bot, STRENGTHS, lacks, play_round, sample, unseen
from croupier.rules.prng import Rng
from check import game, play, raises
from maumau_decks import dealt, accounted, whole_deck

MATCH = "maumau_match"


def twin_decks(seed, seats, seat):
    """Two deck orders that seat cannot tell apart at the deal: the same own hand and the
    same cards turned up, the other hands and the stock shuffled among themselves."""
    deck = shuffled(seed)
    mine = [seat + i * seats for i in range(HAND)]  # seat's cards in the deal (starter 0)
    turned = HAND * seats
    while deck[turned][:-1] in ACTION:
        turned += 1
    hidden = [i for i in range(len(deck))
              if (i < HAND * seats and i not in mine) or i > turned]
    cards = [deck[i] for i in hidden]
    Rng(seed + 1).shuffle(cards)
    other = list(deck)
    for i, card in zip(hidden, cards):
        other[i] = card
    return "deck:" + ",".join(deck), "deck:" + ",".join(other)


def test_bots_decide_alike_when_only_hidden_cards_differ():
    for seed in range(4):
        seats = 2 + seed % 3
        seat = seed % seats
        first, second = twin_decks(seed, seats, seat)
        games = []
        for deck in (first, second):
            g = game(MATCH, seats)
            g.play(deck)
            games.append(g)
        assert dumps(games[0].state()) != dumps(games[1].state())
        assert dumps(games[0].view(seat)) == dumps(games[1].view(seat))
        for strength in STRENGTHS:
            views = [g.view(seat) for g in games]
            if not views[0]["legal"]:
                continue
            picks = [Bot(strength, 7).choose(v) for v in views]
            assert picks[0] == picks[1], (strength, picks)


def test_bots_read_only_a_copy_of_the_view():
    g = game(MATCH, 3)
    g.play("deal:11")
    before = dumps(g.state())
    for strength in STRENGTHS:
        view = g.view(0)
        kept = dumps(view)
        Bot(strength, 1).choose(view)
        assert dumps(view) == kept  # the bot changes nothing it was shown
        assert dumps(g.state()) == before
    for value in g.view(0).values():  # nothing in the view is the engine or one of its lists
        assert value is not g and value is not g.hands and value is not g.pile
        for hand in g.hands:
            assert value is not hand


def test_every_strength_plays_only_legal_inputs_to_the_round_end():
    for strength in STRENGTHS:
        seats = 2 + strength % 3
        g = game(MATCH, seats)
        # one bot of the strength, the others quick (strength 2): a whole round stays short
        bots = [Bot(strength if seat == 0 else 2, 100 + seat) for seat in range(seats)]
        table = Rng(strength)
        g.play("deal:%d" % table.word())
        moves = 0
        while g.state()["phase"] == "play":
            seat = g.state()["turn"]
            view = g.view(seat)
            pick = bots[seat].choose(view)
            assert pick in view["legal"] and view["legal"] == g.legal()
            g.play(pick)
            moves += 1
            assert accounted(g.state()) == whole_deck()
        assert g.state()["gone"] >= 0 and moves > 0


def test_a_bot_refuses_to_move_out_of_turn():
    g = game(MATCH, 2)
    g.play("deal:1")
    raises(ValueError, Bot(3, 0).choose, g.view(1))
    raises(ValueError, Bot, 6)
    raises(ValueError, Bot, 0)


def test_bots_replay_from_their_seed():
    for strength in STRENGTHS:
        outcomes = []
        for _ in range(2):
            g = game(MATCH, 3)
            play_round(g, [Bot(strength if seat == 1 else 3, seat) for seat in range(3)],
                       Rng(5))
            outcomes.append(dumps([g.state(), g.inputs]))
        assert outcomes[0] == outcomes[1]


def test_bots_announce_mau_then_lay_the_card():
    g = game(MATCH, 2)
    dealt(g, [["8h", "8h", "8d", "8d", "Kd", "Qd", "Qc"],
              ["2s", "3s", "4s", "6s", "10s", "5s", "3h"]], ["5h"], ["9s"])
    play(g, "8h 8h 8d 8d Kd draw")
    for strength in STRENGTHS:
        bot = Bot(strength, 3)
        trial = game(MATCH, 2)
        for card in g.inputs:
            trial.play(card)
        first = bot.choose(trial.view(0))
        if first == "draw":
            continue  # strength 1 may draw at will
        assert first == "mau"
        trial.play(first)
        second = bot.choose(trial.view(0))
        assert second == "Qd" and trial.play(second) == []


def test_strength_1_draws_at_will_2_never_while_a_card_fits():
    g = game(MATCH, 2)
    g.play("deal:2")
    view = g.view(0)
    assert len(view["legal"]) > 2  # some card fits
    picks1 = [Bot(1, seed).choose(view) for seed in range(40)]
    picks2 = [Bot(2, seed).choose(view) for seed in range(40)]
    assert "draw" in picks1 and "draw" not in picks2


def test_strengths_3_up_keep_their_jack_while_another_card_fits():
    g = game(MATCH, 2)
    dealt(g, [["Jc", "5h", "2c", "3c", "4c", "6c", "10c"],
              ["2s", "3s", "4s", "6s", "10s", "5s", "3h"]], ["Kh"])
    for strength in (3, 4, 5):
        for seed in range(4):
            assert Bot(strength, seed).choose(g.view(0)) == "5h"
    g = game(MATCH, 2)
    dealt(g, [["Jc", "2d", "2c", "3c", "4c", "6c", "10c"],
              ["2s", "3s", "4s", "6s", "10s", "5s", "3h"]], ["Kh"])
    assert len(set(Bot(3, seed).choose(g.view(0)) for seed in range(20))) > 1  # any wish
    for strength in (4, 5):
        assert Bot(strength, 0).choose(g.view(0)) == "Jc:c"  # wishing its longest suit


def test_lacks_reads_a_draw_on_a_suit_and_forgets_it_when_the_suit_is_laid():
    g = game(MATCH, 2)
    dealt(g, [["5h", "6h", "2c", "3c", "4c", "6c", "10c"],
              ["2s", "3s", "4s", "6s", "10s", "5s", "3d"]], ["Kh"], ["9h", "2d"])
    play(g, "5h")
    assert lacks(g.view(0))[1] == [0.0, 0.0, 0.0, 0.0]
    g.play("draw")  # B holds no heart and no 5: it lacks hearts (and drew one card since)
    seen = lacks(g.view(0))
    assert seen[1][0] == 0.75 and seen[1][1:] == [0.0, 0.0, 0.0]
    assert seen[0] == [0.0, 0.0, 0.0, 0.0]
    play(g, "6h 9h")  # B lays the heart it drew
    assert lacks(g.view(0))[1][0] == 0.0


def test_sampled_hands_keep_out_lacked_suits_while_other_cards_are_left():
    g = game(MATCH, 2)
    g.play("deal:3")
    view = g.view(0)
    hidden = unseen(view)
    hearts = len([card for card in hidden if card[-1] == "h"])
    sure = [[0.0] * 4, [1.0, 0.0, 0.0, 0.0]]  # seat 1 surely lacks hearts
    for seed in range(5):
        hands, stock = sample(view, list(hidden), sure, Rng(seed))
        assert hands[0] == view["hand"] and len(hands[1]) == 7
        assert [card for card in hands[1] if card[-1] == "h"] == []
        assert sorted(hands[1] + stock) == sorted(hidden)
    view["counts"][1] = len(hidden) - 1  # more cards than there are non-hearts
    hands, stock = sample(view, list(hidden), sure, Rng(1))
    assert len(hands[1]) == len(hidden) - 1 and len(stock) == 1
    assert len([card for card in hands[1] if card[-1] == "h"]) >= hearts - 1
