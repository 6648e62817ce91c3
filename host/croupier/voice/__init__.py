"""The box's voice on the laptop: the words it says, synthesized or recorded, for its flash."""
