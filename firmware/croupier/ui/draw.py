"""Drawing primitives shared by every screen (fb: a 128x64 MONO_VLSB framebuf).

The big digits are seven-segment glyphs: one mask byte per glyph, drawn with fill_rect, so
the font costs a dozen bytes and drawing allocates nothing.
"""
import framebuf
from micropython import const

W = const(128)
CHAR = const(8)  # the built-in framebuf font is 8x8

# Big digits: _DIGIT_W x _DIGIT_H pixels, segments _SEG thick, _DIGIT_GAP between glyphs.
_DIGIT_W = const(16)
_DIGIT_H = const(24)  # three display pages
_DIGIT_GAP = const(4)
_SEG = const(4)
# Segment bits a..g (a top, b top-right, c bottom-right, d bottom, e bottom-left,
# f top-left, g middle) for 0-9, then the minus sign. A 1 is drawn apart (_one): two bare
# bars side by side read as "| |", not as 11.
_MASKS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x40"
_MINUS = const(10)
_STEM = const(6)  # the 1's stem, from the glyph's left edge: centred over its base

# 8x8 scratch for drawing text at double size (announcement titles), reused.
_scratch_buf = bytearray(8)
_scratch = framebuf.FrameBuffer(_scratch_buf, 8, 8, framebuf.MONO_VLSB)


def _one(fb, x, y):
    """A 1 with a flag at the top left and a base: the stem centred in the glyph."""
    fb.fill_rect(x + _STEM, y, _SEG, _DIGIT_H, 1)
    fb.fill_rect(x + _STEM - _SEG, y + 2, _SEG, _SEG, 1)  # the flag, a step below the top
    fb.fill_rect(x + 2, y + _DIGIT_H - _SEG, _DIGIT_W - 4, _SEG, 1)


def _glyph(fb, x, y, index):
    if index == 1:
        _one(fb, x, y)
        return
    mask = _MASKS[index]
    half = (_DIGIT_H - _SEG) // 2
    vert = half + _SEG // 2  # height of a vertical segment, overlapping the corners
    if mask & 1:
        fb.fill_rect(x, y, _DIGIT_W, _SEG, 1)
    if mask & 2:
        fb.fill_rect(x + _DIGIT_W - _SEG, y, _SEG, vert, 1)
    if mask & 4:
        fb.fill_rect(x + _DIGIT_W - _SEG, y + half, _SEG, _DIGIT_H - half, 1)
    if mask & 8:
        fb.fill_rect(x, y + _DIGIT_H - _SEG, _DIGIT_W, _SEG, 1)
    if mask & 16:
        fb.fill_rect(x, y + half, _SEG, _DIGIT_H - half, 1)
    if mask & 32:
        fb.fill_rect(x, y, _SEG, vert, 1)
    if mask & 64:
        fb.fill_rect(x, y + half, _DIGIT_W, _SEG, 1)


def big_number_width(value):
    n = 1 if value >= 0 else 2
    value = abs(value)
    while value >= 10:
        value //= 10
        n += 1
    return n * (_DIGIT_W + _DIGIT_GAP) - _DIGIT_GAP


def big_number(fb, x, y, value):
    """Draw an integer in big digits with its left edge at x; returns the right edge."""
    right = x + big_number_width(value)
    if value < 0:
        _glyph(fb, x, y, _MINUS)
        value = -value
    cx = right - _DIGIT_W
    while True:
        _glyph(fb, cx, y, value % 10)
        value //= 10
        if not value:
            return right
        cx -= _DIGIT_W + _DIGIT_GAP


def text_right(fb, s, y, c=1):
    fb.text(s, W - len(s) * CHAR, y, c)


def text_center(fb, s, y, c=1):
    fb.text(s, (W - len(s) * CHAR) // 2, y, c)


def text2x(fb, s, y, c=1):
    """Double-size text centred on row y (16 px tall, at most 8 characters)."""
    x = (W - len(s) * 2 * CHAR) // 2
    for ch in s:
        _scratch.fill(0)
        _scratch.text(ch, 0, 0, 1)
        for col in range(8):
            bits = _scratch_buf[col]
            row = 0
            while bits:
                if bits & 1:
                    fb.fill_rect(x + 2 * col, y + 2 * row, 2, 2, c)
                bits >>= 1
                row += 1
        x += 2 * CHAR


def bar(fb, y, labels):
    """Inverted soft-key bar: three cells for the A, B and C keys."""
    fb.fill_rect(0, y, W, CHAR, 1)
    cell = W // 3
    for i in range(3):
        label = labels[i]
        if label:
            x = i * cell + (cell - len(label) * CHAR) // 2
            fb.text(label, x, y, 0)
        if i:
            fb.vline(i * cell, y, CHAR, 0)


def arrow(fb, x, y, length, direction):
    """A horizontal arrow pointing right (direction 1) or left (-1), 7 px tall (a text
    row): a 3 px shaft, and a head that is one pixel at the tip and widens behind it."""
    fb.fill_rect(x, y + 2, length, 3, 1)
    tip = x + length - 1 if direction > 0 else x
    for i in range(4):
        fb.vline(tip - direction * i, y + 3 - i, 2 * i + 1, 1)


def banner(fb, title):
    """A double-size title in reverse video across the top 20 rows."""
    fb.fill_rect(0, 0, W, 20, 1)
    text2x(fb, title, 3, 0)


def clip(s, n):
    return s if len(s) <= n else s[:n]


def wrap(s, n):
    """Lines of at most n characters, broken at spaces where possible."""
    lines = []
    while len(s) > n:
        cut = s.rfind(" ", 0, n + 1)
        if cut <= 0:
            cut = n
        lines.append(s[:cut])
        s = s[cut:].lstrip()
    lines.append(s)
    return lines
