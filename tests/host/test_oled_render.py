"""The OLED renderer: page-order bytes to the picture a person sees."""
import pytest

from croupier.oled_render import BACKGROUND, render, save_png


def frame(*pixels):
    fb = bytearray(1024)
    for x, y in pixels:
        fb[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(fb)


def test_pixels_land_scaled_with_gaps():
    image = render(frame((0, 0), (127, 63), (5, 9)), scale=4)
    assert image.size == (512, 256)
    lit = image.getpixel((1, 1))
    assert lit != BACKGROUND
    assert image.getpixel((3, 1)) == BACKGROUND  # the gap between pixel columns
    assert image.getpixel((5 * 4 + 1, 9 * 4 + 2)) == lit
    assert image.getpixel((127 * 4 + 2, 63 * 4 + 2)) == lit
    assert image.getpixel((6 * 4 + 1, 9 * 4 + 1)) == BACKGROUND
    lit_count = sum(n for n, color in image.getcolors() if color != BACKGROUND)
    assert lit_count == 3 * 3 * 3  # 3 pixels, each 3x3 after its 1-pixel gap


def test_contrast_dims_and_scale_one_has_no_gaps(tmp_path):
    bright = render(frame((0, 0)), scale=1)
    dim = render(frame((0, 0)), scale=1, contrast=0)
    assert sum(bright.getpixel((0, 0))) > sum(dim.getpixel((0, 0))) > sum(BACKGROUND)
    save_png(frame((1, 1)), tmp_path / "oled.png", scale=2)
    assert (tmp_path / "oled.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wrong_sizes_are_refused():
    with pytest.raises(ValueError, match="1024 bytes"):
        render(b"\x00" * 10)
    with pytest.raises(ValueError):
        render(frame(), scale=0)
