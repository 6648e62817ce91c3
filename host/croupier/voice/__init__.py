"""The box's voice on the laptop: the words it says, synthesized or recorded, for its flash."""

LANGUAGES = ("fr", "en")  # the box's voices; cheap to import, for the commands' --lang choices


def check_language(lang: str):
    """ValueError, in one line, unless `lang` is one of the box's voices."""
    if lang not in LANGUAGES:
        raise ValueError("the voice's language is one of %s, not %r" % (", ".join(LANGUAGES), lang))
