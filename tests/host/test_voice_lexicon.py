"""The synthesizer's lexicon speaks every word the box can say, and nothing else."""
import unicodedata
from pathlib import Path

from croupier import words
from croupier.voice.lexicon import SPOKEN


def ascii_folded(text):
    """"éliminé" -> "elimine": the text without its accents, as a word id is spelled."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text)
                   if not unicodedata.combining(ch))


def test_lexicon_covers_exactly_the_inventory_of_each_language():
    assert sorted(SPOKEN) == ["en", "fr"]
    for lang in SPOKEN:
        assert sorted(SPOKEN[lang]) == sorted(words.inventory(lang)), lang


def test_lexicon_text_is_the_word_with_its_accents():
    for lang in SPOKEN:
        for word, text in SPOKEN[lang].items():
            assert ascii_folded(text) == word, (lang, word, text)
    assert SPOKEN["fr"]["zero"] == "zéro" and SPOKEN["fr"]["elimine"] == "éliminé"


def test_at_the_table_lists_the_words_to_record_in_the_bank_order():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "at-the-table.md").read_text()
    section = doc.split("## What the box says\n")[1].split("\n## ")[0]
    for lang, title in (("fr", "French"), ("en", "English")):
        listed = section.split("- %s (" % title)[1].split("\n- ")[0].split("\n\n")[0]
        count, names = listed.split("):", 1)
        assert names.split() == list(words.inventory(lang)) and int(count) == len(names.split())
