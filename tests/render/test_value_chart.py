"""The end-of-game value chart as a phone shows it: money in the game's currency on the y axis,
every tied line visible, a bankrupt player crossed out on the chart and in the legend, the
legend in the ranking's order, and a reference picture of a real game that ended in a bankruptcy
with two players tied."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from bot.texts.summary import Summary, chart_png, summarize
from engine.replay import filter_actions, game_from_export
from render.chart_image import (
    BANKRUPT_RED,
    LINE_COLORS,
    PLOT_HEIGHT,
    TOP,
    WIDTH,
    _seat_note,
    ranks,
    render_value_chart,
    spread,
    x_labels,
    y_axis,
)
from render.fonts import font
from tests.fixture_util import load_export
from tests.render.test_render import _compare


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def plot_pixels(img: Image.Image, color: tuple[int, int, int]) -> int:
    """How many pixels of the plot area (not the legend) have exactly ``color``."""
    return colors(img.crop((0, TOP, WIDTH, TOP + PLOT_HEIGHT))).get(color, 0)


def colors(img: Image.Image) -> dict[tuple[int, int, int], int]:
    """Each colour of ``img`` -> how many pixels have it."""
    return {c: n for n, c in img.getcolors(img.width * img.height) or []}


@cache
def summary_of(title: str, name: str, moves: int | None = None) -> Summary:
    """The summary of a real game (of its first ``moves`` moves only, when given)."""
    export = load_export(title, name)
    return summarize(game_from_export(export), list(filter_actions(export["actions"]))[:moves])


def test_tied_values_are_spread_evenly_around_their_value() -> None:
    assert spread([100.0, 100.0, 100.0], 8) == [92.0, 100.0, 108.0]
    assert spread([50.0, 300.0, 50.0], 8) == [46.0, 300.0, 54.0]  # equal values in the given order
    assert spread([10.0, 200.0, 400.0], 8) == [10.0, 200.0, 400.0]  # apart already: not moved
    moved = spread([100.0, 103.0, 250.0], 8)
    assert moved[1] - moved[0] == 8 and moved[2] == 250.0


def test_ranks_share_places_as_the_standings_do() -> None:
    assert ranks([4607, 4485, 459]) == [1, 2, 3]
    assert ranks([280, 608, 280, 388]) == [3, 1, 3, 2]


def test_the_y_axis_is_in_the_games_money() -> None:
    ticks, texts = y_axis([300, 608, 280], "${}".format)
    assert ticks[0] == 0 and ticks[-1] >= 608
    assert texts == [f"${t:.0f}" for t in ticks]
    ticks, texts = y_axis([240, -120, 319], "{} F".format)  # a bankrupt player's debt
    assert ticks[0] < -120 and "0 F" in texts


def test_round_labels_never_crowd_each_other() -> None:
    labels = ["Start", "Auction", *[f"{r}{n}" for n in range(1, 13) for r in ("SR", "OR")], "End"]
    f = font(27)
    chosen = x_labels(labels, lambda i: 100 + 25 * i, f)
    assert chosen[0] == 0 and chosen[-1] == len(labels) - 1
    assert all(labels[i].startswith("SR") for i in chosen[1:-1]) and len(chosen) >= 5
    spans = sorted((100 + 25 * i - f.getlength(labels[i]) / 2, 100 + 25 * i + f.getlength(labels[i]) / 2)
                   for i in chosen[1:])
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_a_game_ended_after_four_moves_shows_every_players_line() -> None:
    """Everyone still holds the starting cash: before, the last line drawn hid the others."""
    summary = summary_of("1856", "hotseat006", 4)
    assert len({tuple(v) for v in summary.series.values()}) == 1  # all equal
    img = png(chart_png(summary))
    for color in LINE_COLORS[: len(summary.series)]:
        assert plot_pixels(img, color) > 500, color


def test_a_bankrupt_player_is_crossed_out_where_it_happened() -> None:
    summary = summary_of("1856", "hotseat005")
    assert summary.bankrupt_at == {"Player 3": len(summary.labels) - 1}  # the bankruptcy ended it
    assert [st.name for st in summary.standings if st.bankrupt] == ["Player 3"]
    img = png(chart_png(summary))
    assert plot_pixels(img, BANKRUPT_RED) > 50
    legend = img.crop((0, TOP + PLOT_HEIGHT + 60, WIDTH, img.height))
    assert colors(legend).get(BANKRUPT_RED, 0) > 50
    nobody = png(render_value_chart(summary.series, summary.labels))
    assert plot_pixels(nobody, BANKRUPT_RED) == 0


def test_the_legend_grows_with_the_players_and_never_shrinks_the_plot() -> None:
    two = png(render_value_chart({"Ann": [300, 900], "Bo": [300, 450]}, ["Start", "End"]))
    six = png(render_value_chart({f"P{i}": [300, 100 * i] for i in range(6)}, ["Start", "End"]))
    assert two.width == six.width == WIDTH and six.height > two.height > TOP + PLOT_HEIGHT
    assert png(render_value_chart({})).width == WIDTH  # nothing to draw is not an error


def test_a_long_name_is_shortened_but_never_its_seat() -> None:
    """The legend names people with their seats; a name too long for a phone's width loses the
    end of the person's name, the seat stays whole (it is what the game's log calls them)."""
    assert _seat_note("alice (Player 1)") == ("alice", " (Player 1)")
    assert _seat_note("Player 3") == ("Player 3", "")
    assert _seat_note("(Player 3)") == ("(Player 3)", "")  # nothing before it: all of it is the name
    assert _seat_note("Bo (the (second))") == ("Bo (the (second))", "")
    long = "Bartholomew the Magnificent Conductor of Trains"
    img = png(render_value_chart({f"{long} (Player 2)": [300, 900], "Ann": [300, 450]}, ["Start", "End"]))
    short = png(render_value_chart({"B (Player 2)": [300, 900], "Ann": [300, 450]}, ["Start", "End"]))
    assert img.size == short.size  # one row each, no wrapping
    row = (0, TOP + PLOT_HEIGHT + 70, WIDTH, TOP + PLOT_HEIGHT + 70 + 56)
    ink = [x for x in range(WIDTH) if any(img.getpixel((x, y)) == (0, 0, 0) or sum(img.getpixel((x, y))) < 150
                                         for y in range(row[1], row[3]))]
    assert ink and max(ink) < WIDTH - 20  # the row (value last) fits inside the picture


def test_reference_chart_1856_bankruptcy_and_tie() -> None:
    summary = summary_of("1856", "hotseat005")
    _compare("chart_1856_bankrupt_tie.png", chart_png(summary, "${}".format))
