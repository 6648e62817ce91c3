# A tiny pseudo-random generator that gives the same numbers on CPython and MicroPython
# (the `random` modules of the two differ), so a game played from a seed replays exactly.
MASK = 0xFFFFFFFF


class Rng:
    """xorshift32 seeded from any whole number (0 included)."""

    def __init__(self, seed):
        self.x = ((seed + 1) * 2654435761) & MASK or 1

    def word(self):
        """The next 32-bit number."""
        x = self.x
        x ^= (x << 13) & MASK
        x ^= x >> 17
        x ^= (x << 5) & MASK
        self.x = x
        return x

    def below(self, n):
        """A number from 0 to n - 1."""
        return self.word() % n

    def shuffle(self, items):
        """Shuffle the list items in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.word() % (i + 1)
            items[i], items[j] = items[j], items[i]
