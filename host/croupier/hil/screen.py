"""A captured display frame: the protocol's `screen` answer, decoded."""
import base64

WIDTH, HEIGHT = 128, 64


class Frame:
    """128x64 pixels in SSD1306 page order (byte = 8 vertical pixels, LSB on top)."""

    def __init__(self, w, h, fb: bytes):
        self.w, self.h, self.fb = w, h, bytes(fb)

    @classmethod
    def from_answer(cls, answer):
        return cls(answer["w"], answer["h"], base64.b64decode(answer["fb"]))

    def pixel(self, x, y):
        return (self.fb[(y // 8) * self.w + x] >> (y % 8)) & 1

    def lit(self):
        """How many pixels are on."""
        return sum(bin(byte).count("1") for byte in self.fb)

    def save_png(self, path, scale=4):
        from PIL import Image

        image = Image.new("1", (self.w, self.h))
        image.putdata([self.pixel(x, y) for y in range(self.h) for x in range(self.w)])
        image.resize((self.w * scale, self.h * scale), Image.NEAREST).save(path)
        return path
