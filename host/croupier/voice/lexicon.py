"""What the speech synthesizer speaks for each word id of croupier.words.inventory(lang):
the word with its accents restored (the ids, which are also the file names of a family's
recordings, are ASCII-folded)."""

SPOKEN = {
    "fr": {
        "zero": "zéro", "un": "un", "deux": "deux", "trois": "trois", "quatre": "quatre",
        "cinq": "cinq", "six": "six", "sept": "sept", "huit": "huit", "neuf": "neuf",
        "dix": "dix", "onze": "onze", "douze": "douze", "treize": "treize",
        "quatorze": "quatorze", "quinze": "quinze", "seize": "seize",
        "vingt": "vingt", "trente": "trente", "quarante": "quarante",
        "cinquante": "cinquante", "soixante": "soixante",
        "quatre-vingt": "quatre-vingt", "quatre-vingts": "quatre-vingts",
        "cent": "cent", "et": "et", "moins": "moins",
        "doublet": "doublet", "paie": "paie", "jeton": "jeton",
        "nage": "nage", "elimine": "éliminé", "gagne": "gagne", "basta": "basta",
        "cartes": "cartes", "demi-tour": "demi-tour", "joueur": "joueur",
        "commence": "commence", "mau": "mau", "point": "point",
    },
    "en": {
        "zero": "zero", "one": "one", "two": "two", "three": "three", "four": "four",
        "five": "five", "six": "six", "seven": "seven", "eight": "eight", "nine": "nine",
        "ten": "ten", "eleven": "eleven", "twelve": "twelve", "thirteen": "thirteen",
        "fourteen": "fourteen", "fifteen": "fifteen", "sixteen": "sixteen",
        "seventeen": "seventeen", "eighteen": "eighteen", "nineteen": "nineteen",
        "twenty": "twenty", "thirty": "thirty", "forty": "forty", "fifty": "fifty",
        "sixty": "sixty", "seventy": "seventy", "eighty": "eighty", "ninety": "ninety",
        "hundred": "hundred", "and": "and", "minus": "minus",
        "doublet": "doublet", "pays": "pays", "token": "token",
        "swims": "swims", "out": "out", "wins": "wins", "win": "win", "basta": "basta",
        "cards": "cards", "reverse": "reverse", "player": "player", "starts": "starts",
        "mau": "mau", "point": "point", "points": "points",
    },
}
