"""The splash: the first frame after power-up. The app draws it before the journal, the game
and the rest of the UI load, so the box answers at once and they load under it; the Ui then
keeps it up for the rest of SPLASH_MS (ui/root.py) as a screen."""
import croupier
from croupier.ui import draw


def paint(fb):
    draw.text2x(fb, "CROUPIER", 14)
    draw.text_center(fb, "v" + croupier.VERSION, 38)


class Splash:
    def __init__(self, ui):
        self.ui = ui

    def key(self, k, hold):
        ui = self.ui
        ui.home()  # any key skips the splash, and counts as over an announcement
        if ui._dismiss(k):
            ui.screen.key(k, hold)

    def draw(self, fb):
        paint(fb)
