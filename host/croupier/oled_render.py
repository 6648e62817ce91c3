"""The OLED as it looks: SSD1306 page-order bytes -> a PIL image (or PNG file).

Each pixel becomes a scale x scale square with a dark gap between pixels, lit pixels in the
panel's colour dimmed by the contrast setting, on a black glass. Used by the terminal UIs,
`croupier screenshot` and `demo`, the HIL suite's screen captures, the virtual board's
images and the firmware's golden images.
"""
from PIL import Image

WIDTH, HEIGHT = 128, 64
FB_SIZE = WIDTH * HEIGHT // 8
WHITE = (235, 245, 255)  # a white SSD1306 panel
BACKGROUND = (8, 8, 10)


def pixels(fb: bytes):
    """-> 64 rows of 128 booleans from page-order bytes (bit 0 of a byte = top pixel)."""
    if len(fb) != FB_SIZE:
        raise ValueError("an SSD1306 frame is %d bytes, not %d" % (FB_SIZE, len(fb)))
    return [[bool(fb[(y >> 3) * WIDTH + x] >> (y & 7) & 1) for x in range(WIDTH)] for y in range(HEIGHT)]


def render(fb: bytes, scale=4, contrast=0xFF, color=WHITE, gap=None) -> Image.Image:
    """The frame as a (128*scale) x (64*scale) RGB image."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    gap = (1 if scale >= 3 else 0) if gap is None else gap
    level = 0.35 + 0.65 * (contrast / 255)  # the panel never goes fully dark while on
    lit = tuple(int(BACKGROUND[i] + (c - BACKGROUND[i]) * level) for i, c in enumerate(color))
    small = Image.new("1", (WIDTH, HEIGHT))
    small.putdata([1 if on else 0 for row in pixels(fb) for on in row])
    big = small.resize((WIDTH * scale, HEIGHT * scale), Image.NEAREST)
    image = Image.new("RGB", big.size, BACKGROUND)
    image.paste(lit, mask=big)
    if gap:
        grid = Image.new("1", big.size, 0)
        lines = Image.new("1", (1, 1), 1)
        for i in range(1, WIDTH + 1):  # every pixel keeps its gap, the last one too
            grid.paste(lines.resize((gap, big.size[1])), (i * scale - gap, 0))
        for j in range(1, HEIGHT + 1):
            grid.paste(lines.resize((big.size[0], gap)), (0, j * scale - gap))
        image.paste(BACKGROUND, mask=grid)
    return image


def save_png(fb: bytes, path, scale=4, contrast=0xFF):
    render(fb, scale=scale, contrast=contrast).save(path, format="PNG")
