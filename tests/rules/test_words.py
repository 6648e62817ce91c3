# What the box says (croupier.words, docs/at-the-table.md "What the box says"): numbers
# composed from word ids against a table of expected sequences, and each game's
# announcements after inputs played through its rules engine. Runs on CPython (pytest) and
# on MicroPython. A seat said as a name is written @seat below.
from croupier import words
from check import game, play, raises

# n -> the French words, as the table hears them (hyphens between ids: one id).
FRENCH = (
    (0, "zero"), (1, "un"), (7, "sept"), (10, "dix"), (11, "onze"), (16, "seize"),
    (17, "dix sept"), (18, "dix huit"), (19, "dix neuf"), (20, "vingt"),
    (21, "vingt et un"), (22, "vingt deux"), (29, "vingt neuf"), (30, "trente"),
    (31, "trente et un"), (43, "quarante trois"), (51, "cinquante et un"),
    (60, "soixante"), (61, "soixante et un"), (69, "soixante neuf"),
    (70, "soixante dix"), (71, "soixante et onze"), (72, "soixante douze"),
    (76, "soixante seize"), (77, "soixante dix sept"), (79, "soixante dix neuf"),
    (80, "quatre-vingts"), (81, "quatre-vingt un"), (82, "quatre-vingt deux"),
    (89, "quatre-vingt neuf"), (90, "quatre-vingt dix"), (91, "quatre-vingt onze"),
    (96, "quatre-vingt seize"), (97, "quatre-vingt dix sept"),
    (99, "quatre-vingt dix neuf"), (100, "cent"), (101, "cent un"), (110, "cent dix"),
    (117, "cent dix sept"), (120, "cent vingt"), (121, "cent vingt et un"),
    (171, "cent soixante et onze"), (177, "cent soixante dix sept"),
    (180, "cent quatre-vingts"), (181, "cent quatre-vingt un"),
    (191, "cent quatre-vingt onze"), (199, "cent quatre-vingt dix neuf"),
    (-1, "moins un"), (-10, "moins dix"), (-17, "moins dix sept"),
    (-21, "moins vingt et un"), (-71, "moins soixante et onze"),
    (-80, "moins quatre-vingts"), (-81, "moins quatre-vingt un"),
    (-99, "moins quatre-vingt dix neuf"),
)
ENGLISH = (
    (0, "zero"), (1, "one"), (10, "ten"), (11, "eleven"), (13, "thirteen"),
    (19, "nineteen"), (20, "twenty"), (21, "twenty one"), (30, "thirty"),
    (45, "forty five"), (77, "seventy seven"), (80, "eighty"), (99, "ninety nine"),
    (100, "one hundred"), (101, "one hundred and one"), (110, "one hundred and ten"),
    (115, "one hundred and fifteen"), (120, "one hundred and twenty"),
    (121, "one hundred and twenty one"), (199, "one hundred and ninety nine"),
    (-1, "minus one"), (-10, "minus ten"), (-15, "minus fifteen"),
    (-99, "minus ninety nine"),
)


def spoken(items):
    """An announcement as one string: word ids, and @seat for a seat."""
    return " ".join("@%d" % item if isinstance(item, int) else item for item in items)


def said(g, inputs, lang="fr"):
    """Play the space-separated inputs ("undo", "redo" step back and forth); what the box
    says after the last one, told the total a round-ending card reached, as the board is."""
    for card in inputs.split():
        before = g.state()
        effects = g.undo() if card == "undo" else g.redo() if card == "redo" else g.play(card)
        log = g.round_log()
        items = words.announce(lang, before, g.state(), effects, log[-1][2] if log else None)
        for item in items:
            assert isinstance(item, int) or item in words.inventory(lang), item
    return spoken(items)


def test_words_french_numbers_match_the_table():
    for n, expected in FRENCH:
        assert spoken(words.number("fr", n)) == expected, n


def test_words_english_numbers_match_the_table():
    for n, expected in ENGLISH:
        assert spoken(words.number("en", n)) == expected, n


def test_words_every_total_is_a_distinct_sequence_of_inventory_words():
    for lang in ("fr", "en"):
        seen = {}
        for n in range(-99, 200):
            said_n = spoken(words.number(lang, n))
            assert said_n not in seen, (lang, n, seen.get(said_n))
            seen[said_n] = n
            for word in words.number(lang, n):
                assert word in words.inventory(lang), (lang, n, word)


def test_words_numbers_outside_the_range_or_not_whole_are_refused():
    for bad in (200, -100, 1000, -1000, 1.0, "5", None, True):
        for lang in ("fr", "en"):
            exc = raises(ValueError, words.number, lang, bad)
            assert "-99 to 199" in str(exc), str(exc)
    assert "fr or en" in str(raises(ValueError, words.number, "de", 5))
    assert "fr or en" in str(raises(ValueError, words.inventory, "FR"))


def test_words_inventory_ids_are_lowercase_ascii_file_names_listed_once():
    for lang, count in (("fr", 40), ("en", 46)):
        ids = words.inventory(lang)
        assert len(ids) == count and len(set(ids)) == count, lang
        for word in ids:
            assert word and word[0] != "-" and word[-1] != "-", word
            for ch in word:
                assert "a" <= ch <= "z" or ch == "-", word


def test_words_seat_says_the_player_number_from_one():
    assert words.seat_words("fr", 0) == ["joueur", "un"]
    assert words.seat_words("fr", 2) == ["joueur", "trois"]
    assert words.seat_words("en", 15) == ["player", "sixteen"]


def test_words_lobo77_totals_doublet_and_the_token_paid():
    g = game("lobo77")  # B (seat 1) starts
    assert said(g, "10") == "dix"
    assert said(g, "9") == "dix neuf"
    assert said(g, "3") == "vingt deux doublet @0 paie un jeton"
    g = game("lobo77")
    assert said(g, "10 9 3", "en") == "twenty two doublet @0 pays one token"
    assert said(g, "-10 -10 -10", "en") == "minus eight"


def test_words_lobo77_two_cards_owed_and_change_of_direction():
    g = game("lobo77")
    assert said(g, "10 2x") == "dix @0 deux cartes"  # C played 2x: A owes two
    assert said(g, "5") == "quinze"  # A's first card: still on turn, nothing more
    assert said(g, "rev") == "quinze demi-tour"
    assert said(g, "2x", "en") == "fifteen @1 two cards"  # C's 2x, counter-clockwise: B


def test_words_lobo77_77_or_more_ends_the_round_and_says_who_starts():
    g = game("lobo77")
    assert said(g, "70 3 4") == "soixante dix sept @0 paie un jeton @2 commence"
    g = game("lobo77")
    assert said(g, "70 10", "en") == "eighty @2 pays one token @2 starts"  # C opens round 2


def test_words_lobo77_swimming_out_and_the_winner():
    g = game("lobo77", 2, {"tokens": 1})  # B starts: B, A, B, ...
    assert said(g, "11") == "onze doublet @1 nage"
    assert said(g, "11", "en") == "twenty two doublet @0 swims"
    assert said(g, "11") == "trente trois doublet @1 elimine @0 gagne"
    g = game("lobo77", 2, {"tokens": 1})
    assert said(g, "11 11 11", "en") == "thirty three doublet @1 out @0 wins"


def test_words_lobo77_undo_says_the_total_again_and_redo_the_card():
    g = game("lobo77")
    assert said(g, "10 9 undo") == "dix"
    assert said(g, "redo") == "dix neuf"
    assert said(g, "rev undo") == "dix neuf demi-tour"  # direction back as it was
    assert said(g, "60 undo") == "dix neuf"


def test_words_lobo77_a_round_end_without_the_total_reached_says_the_rest():
    g = game("lobo77")
    play(g, "70")
    before = g.state()
    effects = g.play("7")
    items = words.announce("fr", before, g.state(), effects)
    assert spoken(items) == "@2 paie un jeton @2 commence"


def test_words_lobo77_totals_beyond_the_words_are_left_to_the_screen():
    g = game("lobo77")
    assert said(g, "-150") == ""
    g = game("lobo77")
    assert said(g, "-999 999 -99", "en") == "minus ninety nine"  # -999 + 999 - 99


def test_words_basta_50_says_basta_and_over_50_a_penalty_token():
    g = game("basta")  # A (seat 0) starts
    assert said(g, "10 10 10 8 5") == "quarante trois"
    assert said(g, "7") == "cinquante basta"
    assert said(g, "basta") == "cinquante basta"
    assert said(g, "1") == "cinquante et un @1 un jeton @1 commence"
    assert said(g, "30 basta -5", "en") == "forty five"


def test_words_basta_double_is_said_when_its_player_is_on_turn():
    g = game("basta")
    assert said(g, "rev dbl:0", "en") == "zero"  # A reverses, C lays a double for A
    assert said(g, "5", "en") == "five @0 two cards"  # B's card: A plays two now
    assert said(g, "5", "en") == "ten"


def test_words_basta_the_fewest_penalties_win():
    g = game("basta", 3, {"limit": 1})
    assert said(g, "51") == "cinquante et un @0 un jeton @1 et @2 gagne"
    g = game("basta", 4, {"limit": 1})
    assert said(g, "60", "en") == "sixty @0 one token @1 @2 and @3 win"


def test_words_maumau_says_mau_draws_direction_out_and_winner():
    g = game("maumau")  # A (seat 0) starts, 7 cards each
    assert said(g, "5") == ""
    assert said(g, "7") == "@2 deux cartes"
    assert said(g, "7", "en") == "@0 four cards"
    assert said(g, "draw 9") == "demi-tour"
    g = game("maumau", 2)
    assert said(g, "5 draw " * 5 + "5") == "@0 mau"
    assert said(g, "draw 5", "en") == "@0 mau mau"
    g = game("maumau", 3, {"limit": -50})
    assert said(g, "out:0 hand:1:60 hand:2:10") == "@1 elimine @2 commence"
    assert said(g, "out:2 hand:0:60", "en") == "@0 out @2 wins"


def test_words_factors_says_who_starts_a_round_and_the_winners():
    g = game("factors", 2)
    assert said(g, "hand:0:3") == ""
    assert said(g, "hand:1:5", "en") == "@1 starts"
    assert said(g, "hand:1:1 hand:0:3") == "@0 et @1 gagne"


def test_words_duo_says_the_cell_and_the_round_points():
    g = game("duo", 2)
    assert said(g, "3") == ""  # the opening card marks no cell
    assert said(g, "5") == "huit"
    assert said(g, "draw") == ""
    g = game("duo", 2)
    assert said(g, "0 2 5 3 5 4 5") == "neuf @0 un point @1 commence"
    g = game("duo", 2)
    assert said(g, "0 2 5 3 5 4 5x", "en") == "nine @0 two points @1 starts"
    g = game("duo", 2, {"target": 1})
    assert said(g, "0 2 5 3 5 4 5", "en") == "nine @0 wins"


def test_words_announce_refuses_an_unknown_language():
    g = game("lobo77")
    before = g.state()
    effects = g.play("10")
    exc = raises(ValueError, words.announce, "de", before, g.state(), effects)
    assert "fr or en" in str(exc)


# Inputs that together make the box say every one of its event words.
SCRIPTS = (
    ("lobo77", 3, None, "10 2x 1 rev 2x 9 66"),  # 2x, direction, doublet, 77 or more
    ("lobo77", 2, {"tokens": 1}, "11 11 11"),  # swimming, out, the winner
    ("basta", 4, {"limit": 1}, "rev dbl:0 5 5 40 basta 1"),  # double, basta, over 50
    ("maumau", 2, None, "5 draw " * 5 + "5 draw 5"),  # mau, mau-mau
    ("duo", 2, None, "0 2 5 3 5 4 5"),  # a round won: one point
    ("duo", 2, None, "0 2 5 3 5 4 5x"),  # two points
)


def test_words_every_word_of_the_inventory_is_said():
    for lang in ("fr", "en"):
        heard = set()
        for n in range(-99, 200):
            heard.update(words.number(lang, n))
        heard.update(words.seat_words(lang, 0))
        for name, players, options, inputs in SCRIPTS:
            g = game(name, players, options)
            for card in inputs.split():
                heard.update(said(g, card, lang).split())
        assert sorted(w for w in heard if w[0] != "@") == sorted(words.inventory(lang)), lang
