"""The voice's settings: on or off, French or English, volume 1-3. A digit (or `ok` on the
row under the cursor) moves that setting on and stores it at once; `undo` or `menu` goes
back. Kept across power-offs by croupier.settings.
"""
from croupier import settings
from croupier.ui.menu import ListScreen

_ROWS = ("voice", "lang", "volume")
_LANG_NAMES = {"fr": "French", "en": "English"}


class Voice:
    def __init__(self, ui, back):
        self.ui = ui
        self.values = settings.load(ui.settings)  # as stored: changed only once written
        ui.show(ListScreen(ui, "Voice", len(_ROWS), self.label, self.pick, back))

    def label(self, i):
        name = _ROWS[i]
        value = self.values[name]
        if name == "voice":
            return "Voice: " + ("on" if value else "off")
        if name == "lang":
            return "Lang: " + _LANG_NAMES[value]
        return "Volume: %d of %d" % (value, len(settings.VOLUMES))

    def pick(self, i):
        ui = self.ui
        changed = settings.cycled(self.values, _ROWS[i])
        try:
            settings.save(ui.settings, changed)
        except OSError:
            ui.error("flash full: setting not kept")
            return
        self.values = changed
        if ui.on_voice is not None:
            ui.on_voice(changed)  # the app makes the speaker again as the settings now say
