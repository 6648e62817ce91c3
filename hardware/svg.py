"""A very small SVG writer: elements in the order they are added, numbers rounded, so the
same drawing always gives the same bytes."""
from xml.sax.saxutils import escape, quoteattr


def num(value):
    """A number as SVG text: at most two decimals, no trailing zeros."""
    text = "%.2f" % value
    return text.rstrip("0").rstrip(".") if "." in text else text


def _attrs(attrs):
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = num(value)
        parts.append(" %s=%s" % (key.rstrip("_").replace("_", "-"), quoteattr(str(value))))
    return "".join(parts)


class Svg:
    """An SVG document; `unit` "mm" makes it print at true size (one user unit = 1 mm)."""

    def __init__(self, width, height, unit="", title=""):
        self.width, self.height, self.unit = width, height, unit
        self.items = []
        if title:
            self.items.append("<title>%s</title>" % escape(title))

    def element(self, tag, text=None, **attrs):
        if text is None:
            self.items.append("<%s%s/>" % (tag, _attrs(attrs)))
        else:
            self.items.append("<%s%s>%s</%s>" % (tag, _attrs(attrs), escape(text), tag))

    def rect(self, x, y, w, h, **attrs):
        self.element("rect", x=x, y=y, width=w, height=h, **attrs)

    def line(self, x1, y1, x2, y2, **attrs):
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def polyline(self, points, **attrs):
        text = " ".join("%s,%s" % (num(x), num(y)) for x, y in points)
        self.element("polyline", points=text, fill="none", **attrs)

    def circle(self, cx, cy, r, **attrs):
        self.element("circle", cx=cx, cy=cy, r=r, **attrs)

    def text(self, x, y, content, **attrs):
        self.element("text", content, x=x, y=y, **attrs)

    def render(self):
        w, h = num(self.width), num(self.height)
        head = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" viewBox="0 0 %s %s" '
            'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (w, self.unit, h, self.unit, w, h)
        )
        return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head] + self.items + ["</svg>", ""])
