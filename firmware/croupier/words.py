"""What the box says, as word ids: totals composed from a few number words, and what an
accepted input changed (docs/at-the-table.md "What the box says").

Pure: the same on CPython and MicroPython. A word id is the word itself, ASCII-folded, and
names its recording (`/voice/fr.vox` entry i is inventory("fr")[i]; a family records
"quarante.wav"). An announcement is a list of word ids and seats (int: say that player's
name, else seat_words()).
"""

# The bank's order, numbers first. English is British: "one hundred and one".
# tuple([...]), not a tuple display: mpy-cross stores a constant tuple's strings as str
# objects the board allocates on loading (4.3 KB more on the unix port); a list display's
# are interned names.
_FR = tuple(["zero", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
             "dix", "onze", "douze", "treize", "quatorze", "quinze", "seize",
             "vingt", "trente", "quarante", "cinquante", "soixante",
             "quatre-vingt", "quatre-vingts", "cent", "et", "moins",
             "doublet", "paie", "jeton", "nage", "elimine", "gagne", "basta",
             "cartes", "demi-tour", "joueur", "commence", "mau", "point"])
_EN = tuple(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
             "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
             "seventeen", "eighteen", "nineteen",
             "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
             "hundred", "and", "minus",
             "doublet", "pays", "token", "swims", "out", "wins", "win", "basta",
             "cards", "reverse", "player", "starts", "mau", "point", "points"])
_EN_EVENTS = 31  # _EN[31:] are the event words announce() composes with
# The French word for each of _EN[31:], in the same order ("gagnent" sounds as "gagne",
# "points" as "point").
_FR_EVENTS = tuple(["doublet", "paie", "jeton", "nage", "elimine", "gagne", "gagne",
                    "basta", "cartes", "demi-tour", "joueur", "commence", "mau", "point",
                    "point"])
_LOW, _HIGH = -99, 199
_SAFE = 50  # BASTA: exactly 50 is safe, and the box says "basta!"


def inventory(lang):
    """Every word id of lang ("fr" or "en"), in the voice bank's order."""
    if lang == "fr":
        return _FR
    if lang == "en":
        return _EN
    raise ValueError("no language %r: fr or en" % (lang,))


def number(lang, n):
    """The word ids that say the whole number n, -99 <= n <= 199."""
    words = inventory(lang)
    if not isinstance(n, int) or isinstance(n, bool) or not _LOW <= n <= _HIGH:
        raise ValueError("no words for %r: a whole number from %d to %d" % (n, _LOW, _HIGH))
    if n < 0:
        return ["moins" if lang == "fr" else "minus"] + number(lang, -n)
    return _french(n) if words is _FR else _english(n)


def _french(n):
    if n >= 100:  # "cent", "cent un", "cent quatre-vingts": no "un cent", no "et"
        return ["cent"] + _french(n - 100) if n > 100 else ["cent"]
    if n <= 16:
        return [_FR[n]]
    if n < 20:  # dix-sept
        return ["dix", _FR[n - 10]]
    if n == 80:
        return ["quatre-vingts"]
    if n > 80:  # quatre-vingt-un, quatre-vingt-onze: no "et"
        return ["quatre-vingt"] + _french(n - 80)
    tens = _FR[15 + n // 10] if n < 70 else "soixante"  # soixante-dix counts on from 60
    rest = n - 60 if n >= 70 else n % 10
    if rest == 1 or rest == 11:  # vingt et un, soixante et onze
        return [tens, "et", _FR[rest]]
    return [tens] + _french(rest) if rest else [tens]


def _english(n):
    if n >= 100:  # one hundred and one; one hundred
        return ["one", "hundred"] + (["and"] + _english(n - 100) if n > 100 else [])
    if n < 20:
        return [_EN[n]]
    tens = _EN[18 + n // 10]
    return [tens, _EN[n % 10]] if n % 10 else [tens]


def _event(lang, en):
    """The id of event word en (an English id of _EN[31:]) in lang."""
    return en if lang == "en" else _FR_EVENTS[_EN.index(en) - _EN_EVENTS]


def seat_words(lang, seat):
    """What says seat (from 0) when its player's name has no recording: "joueur trois"."""
    return [_event(lang, "player")] + number(lang, seat + 1)


def announce(lang, before, state, effects, reached=None):
    """What the box says after one accepted card, undo or redo: the total first (the games
    with one), then what changed. before, state: the game states (docs/protocol.md "Game
    state") around the input; effects: its effects. reached: the total the input went to,
    said when it ended a round (the state shows the next round's 0): the engine's
    round_log()[-1][2]; None says no total then. A total beyond -99..199 is left to the
    screen."""
    inventory(lang)  # ValueError for an unknown language
    game, over, turn = state["game"], state["over"], state["turn"]
    ended = not over and "round_end" in [e["kind"] for e in effects]
    out = []
    total = reached if ended else state["total"]
    if total is not None and _LOW <= total <= _HIGH \
            and (game != "duo" or state["last"] != before["last"]):  # duo: a card was played
        out += number(lang, total)
        if game == "basta" and total == _SAFE:
            out.append("basta")
    if state["round"] == before["round"] and state["dir"] != before["dir"]:
        out.append(_event(lang, "reverse"))
    for i in range(len(effects)):
        kind, seat = effects[i]["kind"], effects[i]["seat"]
        then = effects[i + 1]["kind"] if i + 1 < len(effects) else None
        if kind == "doublet":
            out.append("doublet")
        if kind == "bust" and game == "basta":  # a penalty token: "Ann, one token"
            out += [seat] + number(lang, 1) + [_event(lang, "token")]
        elif (kind == "doublet" or kind == "bust") and then != "swimming" \
                and then != "eliminated":
            out += [seat, _event(lang, "pays")] + number(lang, 1) + [_event(lang, "token")]
        elif kind == "swimming":
            out += [seat, _event(lang, "swims")]
        elif kind == "eliminated":
            out += [seat, _event(lang, "out")]
        elif kind == "mau":
            out += [seat, "mau"]
        elif kind == "maumau":
            out += [seat, "mau", "mau"]
        elif kind == "round_end" and not over:
            if game == "duo":  # the round's winner and points: "Ann, two points"
                points = effects[i]["points"]
                out += [seat] + number(lang, points) \
                    + [_event(lang, "point" if points == 1 else "points")]
            out += [turn, _event(lang, "starts")]  # who opens the next round
        elif kind == "game_end":
            out += _winners(lang, state["winners"])
    if (game == "lobo77" or game == "basta") and not ended and not over and state["owed"] == 2 \
            and (before["owed"] != 2 or before["turn"] != turn):  # a 2x, or a double due now
        out += [turn] + number(lang, 2) + [_event(lang, "cards")]
    if game == "maumau" and state["draw"] > before["draw"]:  # stacked 7s: what turn draws
        out += [turn] + number(lang, state["draw"]) + [_event(lang, "cards")]
    return out


def _winners(lang, seats):
    """"Ann wins", "Ann, Bob and Cy win" ("gagnent" sounds as "gagne")."""
    out = []
    for k in range(len(seats)):
        if k and k == len(seats) - 1:
            out.append("et" if lang == "fr" else "and")
        out.append(seats[k])
    return out + [_event(lang, "wins" if len(seats) == 1 else "win")]
