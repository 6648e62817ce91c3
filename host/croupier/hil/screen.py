"""A captured display frame: the protocol's `screen` answer, decoded."""
import base64


class Frame:
    """128x64 pixels in SSD1306 page order (byte = 8 vertical pixels, LSB on top)."""

    def __init__(self, w, h, fb: bytes):
        self.w, self.h, self.fb = w, h, bytes(fb)

    @classmethod
    def from_answer(cls, answer):
        return cls(answer["w"], answer["h"], base64.b64decode(answer["fb"]))

    def lit(self):
        """How many pixels are on."""
        return sum(bin(byte).count("1") for byte in self.fb)

    def save_png(self, path, scale=4):
        """The frame as the OLED shows it, as `croupier screenshot` draws it."""
        from croupier.oled_render import save_png

        save_png(self.fb, path, scale)
        return path
