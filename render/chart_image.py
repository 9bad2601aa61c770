"""The end-of-game chart: each player's value over the game, a line per player, Pillow only.

Drawn to be read on a phone, where Discord shows it about 350 points wide: large text, money
on the y axis in the game's currency, one colour and one marker shape per player (their legend
sample shows both), lines that tie drawn side by side instead of on top of each other, and a
bankrupt player's line ending in a cross. The legend below ranks the players by final value, one row each;
a player named with their seat, "alice (Player 1)", shows the seat in plain type, never cut short.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .draw import text_length, to_png
from .fonts import FontType, font
from .palette import BACKGROUND, INK, RGB

WIDTH = 900
SS = 2
PLOT_HEIGHT = 500  # the plot area (the title above, round labels and the legend below)
TOP, RIGHT = 126, 34
LINE = 5  # line width
GAP = 8  # distance between lines of equal value, centre to centre (a line and its halo fit)
MARKER = 8  # marker radius
MAX_MARKED = 40  # more points than this: only the last point of each line gets a marker
LEGEND_ROW = 56
BANKRUPT_RED: RGB = (185, 20, 20)
GRID: RGB = (222, 219, 210)
AXIS_INK: RGB = (60, 60, 60)  # tick labels: dark enough to read scaled down (MUTED is too pale)

# Distinct colours that read on the light background (the map's route colours are brighter
# and, as thin lines on white, too pale: cyan, green).
LINE_COLORS: tuple[RGB, ...] = (
    (214, 0, 150),  # magenta
    (0, 120, 215),  # blue
    (235, 110, 0),  # orange
    (110, 60, 220),  # violet
    (0, 150, 70),  # green
    (150, 100, 0),  # ochre
    (20, 20, 20),  # black
    (0, 165, 175),  # teal
)
MARKERS = ("circle", "square", "triangle", "diamond", "down", "pentagon")

Money = Callable[[int], str]


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


def _plain(value: int) -> str:
    return f"{value:,}"


def spread(ys: Sequence[float], gap: float) -> list[float]:
    """``ys`` (pixel heights of the lines at one x) moved apart so that no two are closer than
    ``gap``: each run of points closer than ``gap`` to the one before is spread evenly around
    its mean, in the order of the values, equal values in the order given. Lines that tie thus
    stay side by side, each visible; the others are not moved."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    out = list(ys)
    run: list[int] = []

    def place(members: list[int]) -> None:
        centre = sum(ys[i] for i in members) / len(members)
        for k, i in enumerate(members):
            out[i] = centre + (k - (len(members) - 1) / 2) * gap

    for i in order:
        if run and ys[i] - ys[run[-1]] >= gap:
            place(run)
            run = []
        run.append(i)
    if run:
        place(run)
    return out


def ranks(finals: Sequence[int]) -> list[int]:
    """1-based rank of each final value, highest first; equal values share a rank (as the
    summary's standings rank them)."""
    return [1 + sum(1 for other in finals if other > v) for v in finals]


def marker(draw: ImageDraw.ImageDraw, shape: str, xy: tuple[float, float], r: float, fill: RGB,
           outline: RGB, width: int) -> None:
    """One of :data:`MARKERS` centred on ``xy`` (about ``r`` in radius)."""
    x, y = xy
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
        return
    sides, rotation, scale = {
        "square": (4, 45, 1.2), "triangle": (3, 0, 1.35), "diamond": (4, 0, 1.3),
        "down": (3, 180, 1.35), "pentagon": (5, 0, 1.15),
    }[shape]
    draw.regular_polygon((x, y, r * scale), sides, rotation=rotation, fill=fill, outline=outline, width=width)


def cross(draw: ImageDraw.ImageDraw, xy: tuple[float, float], r: float, s: int) -> None:
    """The bankrupt mark: a red cross with a light halo."""
    x, y = xy
    for color, width in ((BACKGROUND, 9 * s), (BANKRUPT_RED, 5 * s)):
        draw.line([(x - r, y - r), (x + r, y + r)], fill=color, width=width)
        draw.line([(x - r, y + r), (x + r, y - r)], fill=color, width=width)


@dataclass
class _Entry:
    name: str
    values: list[int]
    color: RGB
    shape: str
    rank: int
    bankrupt_at: int | None


def y_axis(values: Sequence[int], fmt: Money) -> tuple[list[float], list[str]]:
    """The y axis' ticks (from 0, or below it for a debt) and their labels in the game's money."""
    ticks = nice_ticks(min([0, *values]), max(values, default=1), 5)
    return ticks, [fmt(int(t)) if float(t).is_integer() else str(t) for t in ticks]


def x_labels(labels: Sequence[str], px: Callable[[int], float], fnt: FontType, s: int = 1) -> list[int]:
    """Which points get their label under the axis: Start, End and the stock rounds (the game's
    rhythm), each only where it does not crowd a label already chosen. The first label starts
    at the axis (clear of the lowest value's label), the others are centred on their point
    (``px``: a point's x in pixels; ``s``: the supersampling)."""
    n = len(labels)
    if n == 0:
        return []
    wanted = [0, n - 1, *(i for i in range(1, n - 1) if labels[i].startswith("SR"))]
    spans: list[tuple[float, float]] = []
    chosen: list[int] = []
    for i in wanted:
        width = text_length(labels[i], fnt)
        lo, hi = (px(i), px(i) + width) if i == 0 else (px(i) - width / 2, px(i) + width / 2)
        lo, hi = lo - 14 * s, hi + 14 * s
        if i in chosen or any(lo < b and a < hi for a, b in spans):
            continue
        spans.append((lo, hi))
        chosen.append(i)
    return sorted(chosen)


def render_value_chart(
    series: Mapping[str, Sequence[int]],
    labels: Sequence[str] | None = None,
    title: str = "",
    *,
    fmt: Money = _plain,
    bankrupt: Mapping[str, int] | None = None,
) -> bytes:
    """PNG line chart: one line per entry of ``series`` (player name -> value at each point).

    ``labels`` names the points ("Start", "SR3", "OR3.2", "End"); ``fmt`` writes money as the
    game does (``game.fmt``: "$1200", "1200 F"); ``bankrupt`` maps a bankrupt player's name to
    the point where they went bankrupt (their line gets a cross there, the legend says so)."""
    s = SS
    bankrupt = bankrupt or {}
    names = list(series)
    n = max((len(v) for v in series.values()), default=0)
    point_labels = [labels[i] if labels and i < len(labels) else str(i + 1) for i in range(n)]
    finals = [series[k][-1] if series[k] else 0 for k in names]
    entries = [
        _Entry(name, list(series[name]), LINE_COLORS[i % len(LINE_COLORS)], MARKERS[i % len(MARKERS)], rank,
               bankrupt.get(name))
        for i, (name, rank) in enumerate(zip(names, ranks(finals), strict=True))
    ]
    legend = sorted(entries, key=lambda e: (e.rank, names.index(e.name)))
    height = TOP + PLOT_HEIGHT + 62 + len(entries) * LEGEND_ROW + 24
    img = Image.new("RGB", (WIDTH * s, height * s), BACKGROUND)
    draw = ImageDraw.Draw(img)
    f_title, f_axis, f_leg, f_leg_bold = font(36 * s, True), font(27 * s), font(30 * s), font(30 * s, True)

    ticks, tick_text = y_axis([v for e in entries for v in e.values], fmt)
    y_lo, y_hi = ticks[0], ticks[-1]
    left = max((text_length(t, f_axis) for t in tick_text), default=0) / s + 30
    x0, x1 = left * s, (WIDTH - RIGHT) * s
    y1, y0 = TOP * s, (TOP + PLOT_HEIGHT) * s

    def px(i: int) -> float:
        return x0 + (x1 - x0) * (i / max(1, n - 1))

    def py(v: float) -> float:
        return y0 - (y0 - y1) * ((v - y_lo) / ((y_hi - y_lo) or 1))

    if title:
        draw.text((24 * s, 30 * s), title, font=f_title, fill=INK, anchor="lm")
    draw.text((24 * s, 76 * s), "value = cash + shares, as the final ranking counts it",
              font=font(25 * s), fill=AXIS_INK, anchor="lm")
    for t, text in zip(ticks, tick_text, strict=True):
        y = py(t)
        draw.line([(x0, y), (x1, y)], fill=AXIS_INK if t == 0 and y_lo < 0 else GRID, width=2 * s)
        draw.text((x0 - 12 * s, y), text, font=f_axis, fill=AXIS_INK, anchor="rm")
    shown = x_labels(point_labels, px, f_axis, s)
    for i in shown:
        if 0 < i < n - 1:
            draw.line([(px(i), y1), (px(i), y0)], fill=GRID, width=s)
        draw.line([(px(i), y0), (px(i), y0 + 8 * s)], fill=AXIS_INK, width=2 * s)
        draw.text((px(i) - (4 * s if i == 0 else 0), y0 + 14 * s), point_labels[i], font=f_axis, fill=AXIS_INK,
                  anchor="lt" if i == 0 and n > 1 else "mt")
    draw.line([(x0, y0), (x1, y0)], fill=AXIS_INK, width=2 * s)
    draw.line([(x0, y0), (x0, y1)], fill=AXIS_INK, width=2 * s)

    # every line's points, moved apart where lines meet (ties)
    ys: list[list[float]] = [[0.0] * n for _ in entries]
    for i in range(n):
        at = [k for k, e in enumerate(entries) if i < len(e.values)]
        moved = spread([py(entries[k].values[i]) for k in at], GAP * s)
        for k, y in zip(at, moved, strict=True):
            ys[k][i] = y
    marked = n <= MAX_MARKED
    for k, e in reversed(list(enumerate(entries))):  # the first seat on top
        pts = [(px(i), ys[k][i]) for i in range(len(e.values))]
        if len(pts) > 1:
            draw.line(pts, fill=BACKGROUND, width=(LINE + 4) * s, joint="curve")
            draw.line(pts, fill=e.color, width=LINE * s, joint="curve")
        for p in pts if marked else pts[-1:]:
            marker(draw, e.shape, p, MARKER * s, e.color, BACKGROUND, 2 * s)
        if e.bankrupt_at is not None and e.bankrupt_at < len(pts):
            cross(draw, pts[e.bankrupt_at], 13 * s, s)

    # the legend, one row per player: rank, line sample, name and final value; bankrupt marked
    top = TOP + PLOT_HEIGHT + 70
    f_broke = font(30 * s, True)
    for row, e in enumerate(legend):
        lx, ly = 24 * s, (top + row * LEGEND_ROW + LEGEND_ROW / 2) * s
        draw.text((lx, ly), f"{e.rank}.", font=f_leg, fill=INK, anchor="lm")
        sx = lx + 38 * s
        draw.line([(sx, ly), (sx + 54 * s, ly)], fill=e.color, width=LINE * s)
        marker(draw, e.shape, (sx + 27 * s, ly), MARKER * s, e.color, BACKGROUND, 2 * s)
        tx = sx + 66 * s
        value = fmt(e.values[-1]) if e.values else ""
        broke = 50 * s + text_length("bankrupt", f_broke) if e.bankrupt_at is not None else 0
        person, seat = _seat_note(e.name)
        room = (WIDTH - 24) * s - tx - text_length(value, f_leg) - 14 * s - broke - text_length(seat, f_leg)
        name = _clip(person, f_leg_bold, room)
        draw.text((tx, ly), name, font=f_leg_bold, fill=INK, anchor="lm")
        vx = tx + text_length(name, f_leg_bold)
        if seat:  # the seat stays whole, in plain type; only the person's name is shortened
            draw.text((vx, ly), seat, font=f_leg, fill=INK, anchor="lm")
            vx += text_length(seat, f_leg)
        vx += 14 * s
        draw.text((vx, ly), value, font=f_leg, fill=INK, anchor="lm")
        if e.bankrupt_at is not None:
            bx = vx + text_length(value, f_leg) + 30 * s
            cross(draw, (bx, ly), 10 * s, s)
            draw.text((bx + 20 * s, ly), "bankrupt", font=f_broke, fill=BANKRUPT_RED, anchor="lm")
    return to_png(img, s)


def _seat_note(name: str) -> tuple[str, str]:
    """A legend name split into the person and the seat they held: "alice (Player 1)" ->
    ("alice", " (Player 1)"); a name without a seat in brackets is all person."""
    head, sep, tail = name.rpartition(" (")
    if not sep or not head or not tail.endswith(")") or "(" in tail or ")" in tail[:-1]:
        return name, ""
    return head, sep + tail


def _clip(text: str, fnt: FontType, room: float) -> str:
    """``text`` shortened with an ellipsis to at most ``room`` wide."""
    if text_length(text, fnt) <= room:
        return text
    while len(text) > 1 and text_length(text + "…", fnt) > room:
        text = text[:-1]
    return text + "…"

