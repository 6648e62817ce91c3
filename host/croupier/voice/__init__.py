"""The box's voice on the laptop: the words it says, synthesized or recorded, for its flash."""

LANGUAGES = ("fr", "en")  # the box's voices; cheap to import, for the commands' --lang choices
