"""A player's rating history as one standalone SVG line chart (pure: no Django, no database).

Made to be read on a phone: the drawing scales to the width it is given (``viewBox``, width
100%) from 320 px up, with 13 px type at that width; one point per rated match, the rating shown
(``draw.pairing.ratings.display``) on the vertical axis with three to five round ticks, the
first and last dates under the axis, the current rating written at the last point, and each point
a ``<title>`` tooltip (date, rating, the match). A player with no rated match gets a short
message instead of an empty frame. Texts are escaped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

W, H = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 52, 14, 30


@dataclass(frozen=True)
class ChartPoint:
    label: str  # the date as the page writes it
    rating: int
    title: str = ""  # the tooltip: the match


def _ticks(lo: int, hi: int) -> list[int]:
    span = max(hi - lo, 1)
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000) if span / s <= 4)
    first = math.ceil(lo / step) * step
    return list(range(first, hi + 1, step))


def rating_svg(points: list[ChartPoint], *, title: str, empty: str) -> str:
    """The chart of ``points`` (oldest first); ``title`` is its accessible name, ``empty`` the text
    shown when there is no point."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="100%" role="img" '
            f'aria-label="{escape(title)}" style="max-width:640px;font-family:system-ui,sans-serif" '
            f'data-testid="rating-chart"><title>{escape(title)}</title>')
    if not points:
        return (head + f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle" font-size="14" fill="#555">'
                f'{escape(empty)}</text></svg>')
    values = [p.rating for p in points]
    lo, hi = min(values), max(values)
    pad = max(10, (hi - lo) // 10)
    lo, hi = lo - pad, hi + pad
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (hi - v) / (hi - lo)

    out = [head, f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#f7f7f2" stroke="#ccc"/>']
    for t in _ticks(lo, hi):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>'
                   f'<text x="{LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="13" fill="#333">{t}</text>')
    line = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
    out.append(f'<polyline points="{line}" fill="none" stroke="#1b6b3a" stroke-width="2.5" '
               f'stroke-linejoin="round"/>')
    radius = 3.5 if len(points) <= 60 else 2
    for i, p in enumerate(points):
        tip = escape(f"{p.label}: {p.rating}" + (f" · {p.title}" if p.title else ""))
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(p.rating):.1f}" r="{radius}" fill="#1b6b3a">'
                   f'<title>{tip}</title></circle>')
    last = points[-1]
    out.append(f'<text x="{x(len(points) - 1) + 6:.1f}" y="{y(last.rating) + 5:.1f}" font-size="15" '
               f'font-weight="700" fill="#1b6b3a">{last.rating}</text>')
    out.append(f'<text x="{LEFT}" y="{H - 10}" font-size="13" fill="#333">{escape(points[0].label)}</text>')
    if len(points) > 1:
        out.append(f'<text x="{LEFT + plot_w}" y="{H - 10}" text-anchor="end" font-size="13" fill="#333">'
                   f'{escape(last.label)}</text>')
    out.append("</svg>")
    return "".join(out)
