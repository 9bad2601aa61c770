"""A line chart of each player's value over the game (end-of-game summary), Pillow only."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .draw import circle, to_png
from .fonts import font
from .palette import BACKGROUND, INK, MUTED, ROUTE_COLORS

WIDTH, HEIGHT = 1000, 560
SS = 2
LEFT, RIGHT, TOP, BOTTOM = 80, 200, 56, 64


def nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round tick values covering [lo, hi] (1, 2, 2.5 or 5 times a power of ten apart)."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    value = start
    while value < hi + step * 0.999:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 or float(value).is_integer() else f"{value:g}"


def render_value_chart(series: dict[str, list[int]], labels: list[str] | None = None, title: str = "") -> bytes:
    """PNG line chart: one line per entry of ``series`` (name -> values over time).

    ``labels`` names the x positions (e.g. rounds); the legend lists the final values,
    highest first."""
    s = SS
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(img)
    f_title, f_axis, f_leg = font(20 * s, True), font(13 * s), font(15 * s, True)
    n = max((len(v) for v in series.values()), default=0)
    values = [v for vals in series.values() for v in vals]
    lo = min([0, *values]) if values else 0
    hi = max(values) if values else 1
    ticks = nice_ticks(lo, hi)
    y_lo, y_hi = ticks[0], ticks[-1]
    x0, x1 = LEFT * s, (WIDTH - RIGHT) * s
    y0, y1 = (HEIGHT - BOTTOM) * s, TOP * s

    def px(i: int) -> float:
        return x0 + (x1 - x0) * (i / max(1, n - 1))

    def py(v: float) -> float:
        return y0 - (y0 - y1) * ((v - y_lo) / ((y_hi - y_lo) or 1))

    if title:
        draw.text((LEFT * s, TOP * s / 2), title, font=f_title, fill=INK, anchor="lm")
    for t in ticks:
        y = py(t)
        draw.line([(x0, y), (x1, y)], fill=(222, 219, 210), width=s)
        draw.text((x0 - 10 * s, y), _fmt(t), font=f_axis, fill=MUTED, anchor="rm")
    draw.line([(x0, y0), (x1, y0)], fill=MUTED, width=s)
    draw.line([(x0, y0), (x0, y1)], fill=MUTED, width=s)
    if n:
        every = max(1, math.ceil(n / 12))
        for i in range(0, n, every):
            text = labels[i] if labels and i < len(labels) else str(i + 1)
            draw.text((px(i), y0 + 16 * s), text, font=f_axis, fill=MUTED, anchor="mm")
    order = sorted(series, key=lambda k: -(series[k][-1] if series[k] else 0))
    for idx, name in enumerate(series):
        color = ROUTE_COLORS[idx % len(ROUTE_COLORS)]
        pts = [(px(i), py(v)) for i, v in enumerate(series[name])]
        if len(pts) > 1:
            draw.line(pts, fill=color, width=4 * s, joint="curve")
        for p in pts if len(pts) <= 40 else pts[-1:]:
            circle(draw, p, 4 * s, color, None)
    ly = TOP * s
    for name in order:
        color = ROUTE_COLORS[list(series).index(name) % len(ROUTE_COLORS)]
        lx = (WIDTH - RIGHT + 20) * s
        draw.line([(lx, ly), (lx + 24 * s, ly)], fill=color, width=6 * s)
        final = series[name][-1] if series[name] else 0
        draw.text((lx + 32 * s, ly), f"{name}", font=f_leg, fill=INK, anchor="lm")
        draw.text((lx + 32 * s, ly + 18 * s), _fmt(final), font=f_axis, fill=MUTED, anchor="lm")
        ly += 46 * s
    return to_png(img, s)
