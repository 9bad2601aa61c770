"""The end-of-game summary: final ranking (cash, share value, 1856's charge for loans, total),
why and after how long the game ended, and each player's value over the game for a chart.

The value series comes from replaying the stored log once and recording ``player_value`` of
every player whenever the round changes (after each auction, stock and operating round).
Pure functions over the engine; the command layer stores and posts the result. A seat a person
holds is named with them, "alice (Player 1)" (:func:`seat_label`), in the ranking, the chart and
/game history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import actions as A
from engine.game import Game
from engine.replay import filter_actions

from ..robot import ROBOT_USER
from ..storage.rows import Seat


def why_over(game: Game) -> str:
    """Why ``game`` ended, in words ("the bank broke"; the title's own text where it has one)."""
    return game.end_reason_text or "it ended"


@dataclass
class Standing:
    rank: int
    player_id: str
    name: str
    cash: int
    shares: int  # value of shares and private companies held
    total: int
    loans: int = 0  # what the total loses for the loans of corporations whose shares are held (1856)
    bankrupt: bool = False  # ranked by what they kept, as 18xx.games' result ranks them


@dataclass
class Summary:
    title: str
    reason: str | None
    standings: list[Standing]
    stock_rounds: int
    operating_rounds: int
    days: float | None
    labels: list[str] = field(default_factory=list)
    series: dict[str, list[int]] = field(default_factory=dict)
    reason_text: str | None = None  # why the game ended, in words (game.end_reason_text)
    bankrupt_at: dict[str, int] = field(default_factory=dict)  # player name -> first point bankrupt


def seat_label(seat: Seat) -> str:
    """A seat as the end of a game names it: "alice (Player 1)", the display name its holder had
    when they took it, then the seat; the seat's name alone when nobody (or the computer player)
    holds it, the name is not known or is the seat's own (a seat joined under one's name)."""
    person = seat.user_name if seat.user_id and seat.user_id != ROBOT_USER else None
    if not person or person.casefold() == seat.name.casefold():
        return seat.name
    return f"{person} ({seat.name})"


def with_people(s: Summary, game: Game, seats: Iterable[Seat]) -> Summary:
    """``s`` with each of ``game``'s players named by their seat (:func:`seat_label`): the
    standings, and the chart's series and bankrupt points."""
    label = {game.name_of(seat.player_id): seat_label(seat) for seat in seats if seat.player_id}

    def named(name: str) -> str:
        return label.get(name, name)

    return dataclasses.replace(
        s,
        standings=[dataclasses.replace(st, name=named(st.name)) for st in s.standings],
        series={named(name): values for name, values in s.series.items()},
        bankrupt_at={named(name): at for name, at in s.bankrupt_at.items()},
    )


def round_label(key: tuple[Any, ...]) -> str:
    """``(turn, round name, round_num)`` -> "SR3", "OR3.2", "Auction"."""
    turn, name, num = key
    if name.startswith("Stock"):
        return f"SR{turn}"
    if name.startswith("Operating"):
        return f"OR{turn}.{num}"
    return name.replace(" Round", "") or "?"


def standings(game: Game) -> list[Standing]:
    """Players by final value, highest first; equal values share a rank."""
    rows = []
    for p in game.players:
        total, loans = game.player_value(p), game.loan_charge(p)
        rows.append((p.id, p.name, p.cash, total - p.cash + loans, total, loans, game.went_bankrupt(p.id)))
    rows.sort(key=lambda r: -r[4])
    out: list[Standing] = []
    for i, (pid, name, cash, shares, total, loans, bankrupt) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(Standing(rank, pid, name, cash, shares, total, loans, bankrupt))
    return out


def value_series(fresh: Game, raw_actions: list[dict[str, Any]]) -> tuple[list[str], dict[str, list[int]], Game]:
    """Replay ``raw_actions`` on ``fresh`` (a new game of the same setup) once, recording every
    player's value at the start, at each round change and at the end.

    Returns (labels, {player name: values}, the replayed game)."""
    labels, series, _, game = _values(fresh, raw_actions)
    return labels, series, game


def _values(fresh: Game, raw_actions: list[dict[str, Any]]
            ) -> tuple[list[str], dict[str, list[int]], dict[str, int], Game]:
    """:func:`value_series`, with the point at which each bankrupt player is first bankrupt."""
    game = fresh
    game.live = False  # programmed moves come from the record
    labels = ["Start"]
    series: dict[str, list[int]] = {p.name: [] for p in game.players}
    bankrupt_at: dict[str, int] = {}

    def record() -> None:
        for p in game.players:
            if game.went_bankrupt(p.id) and p.name not in bankrupt_at:
                bankrupt_at[p.name] = len(series[p.name])
            series[p.name].append(game.player_value(p))

    record()
    for raw in filter_actions(raw_actions):
        before = game.round_key()
        game.process(A.Action.from_dict(raw), safe=False)
        if game.round_key() != before and not game.finished:
            labels.append(round_label(before))
            record()
    labels.append("End")
    record()
    return labels, series, bankrupt_at, game


def count_rounds(labels: list[str]) -> tuple[int, int]:
    """(stock rounds, operating rounds) among the round labels, the last round included."""
    srs = sum(1 for label in labels if label.startswith("SR"))
    ors = sum(1 for label in labels if label.startswith("OR"))
    return srs, ors


def game_days(raw_actions: list[dict[str, Any]], started_at: float | None, ended_at: float | None) -> float | None:
    """Days from the first to the last action (18xx.games ``created_at``), else start to end."""
    stamps = [float(a["created_at"]) for a in raw_actions if isinstance(a.get("created_at"), (int, float))]
    if len(stamps) >= 2:
        return (max(stamps) - min(stamps)) / 86400
    if started_at is not None and ended_at is not None:
        return max(0.0, ended_at - started_at) / 86400
    return None


def summarize(fresh: Game, raw_actions: list[dict[str, Any]], *, started_at: float | None = None,
              ended_at: float | None = None) -> Summary:
    labels, series, bankrupt_at, game = _values(fresh, raw_actions)
    last = round_label(game.round_key()) if game.round else ""
    srs, ors = count_rounds([*labels[1:-1], last])
    return Summary(title=game.title, reason=game.end_reason, standings=standings(game), stock_rounds=srs,
                   operating_rounds=ors, days=game_days(raw_actions, started_at, ended_at),
                   labels=labels, series=series, reason_text=game.end_reason_text, bankrupt_at=bankrupt_at)


def fmt_days(days: float | None) -> str:
    if days is None:
        return "unknown time"
    if days < 1:
        hours = days * 24
        return f"{hours:.1f} hours" if hours >= 1 else "under an hour"
    return f"{days:.1f} days"


def summary_lines(s: Summary, fmt: Any = str) -> list[str]:
    """The summary as message lines (``fmt`` formats money, e.g. ``game.fmt``)."""
    why = s.reason_text or "it ended"
    head = (f"**Result**: {s.title} is over: {why}; {s.stock_rounds} stock rounds and "
            f"{s.operating_rounds} operating rounds in {fmt_days(s.days)}.")
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [head]
    for st in s.standings:
        loans = f" - {fmt(st.loans)} for their corporations' loans" if st.loans else ""
        broke = " (bankrupt)" if st.bankrupt else ""
        lines.append(f"{medals.get(st.rank, f'{st.rank}.')} {st.name}{broke}: {fmt(st.total)} "
                     f"(cash {fmt(st.cash)} + shares {fmt(st.shares)}{loans})")
    return lines


def chart_png(s: Summary, fmt: Callable[[int], str] = str) -> bytes:
    """The value chart (``fmt`` writes money as the game does, e.g. ``game.fmt``). Its names are
    the summary's (the seats' names); a player the standings call bankrupt is marked at the point
    the replay first saw them bankrupt (else at the end)."""
    from render.chart_image import render_value_chart

    n = len(s.labels)
    bankrupt = {st.name: s.bankrupt_at.get(st.name, n - 1) for st in s.standings if st.bankrupt}
    return render_value_chart(s.series, s.labels, f"{s.title}: player value by round", fmt=fmt,
                              bankrupt=bankrupt)
