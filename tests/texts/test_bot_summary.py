"""The end-of-game summary: a whole 1856 export played through the command layer ends with the
final ranking (cash, share value, total) equal to the export's result, the reason and length,
a value chart (after every round) and the export offered; then /game history and /stats."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.robot import ROBOT_USER
from bot.storage.rows import Seat
from bot.storage.store import Store
from bot.terminal.textcmd import action_to_command
from bot.texts.summary import (
    Summary,
    fmt_days,
    round_label,
    seat_label,
    standings,
    summary_lines,
    value_series,
    with_people,
)
from engine.replay import filter_actions, replay
from engine.titles.registry import new_game
from render import chart_image
from render.chart_image import render_value_chart
from tests.command_script import send as script_send
from tests.fixture_util import load_export
from tests.store.test_bot_async_reminders import FakeClock

CH = "table-s"
GUILD = "g-sum"


async def send(layer: CommandLayer, user: str, line: str) -> Reply:
    """``line`` sent by ``user`` (:func:`tests.command_script.send`)."""
    return await script_send(layer, CH, user, line, GUILD, user.capitalize())


async def test_summary_of_a_whole_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    export = load_export("1856", "hotseat006")
    drawn: dict[str, list[str]] = {}  # what the chart was given to draw: its lines' and bankrupt marks' names

    def chart(series: dict[str, list[int]], *args: Any, bankrupt: dict[str, int], **kwargs: Any) -> bytes:
        drawn.update(series=list(series), bankrupt=list(bankrupt))
        return render_value_chart(series, *args, bankrupt=bankrupt, **kwargs)

    monkeypatch.setattr(chart_image, "render_value_chart", chart)
    expected = replay(export).game
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        # the bot's clock follows the times 18xx.games recorded, as if the moves were typed then
        clock = FakeClock(datetime.fromtimestamp(export["actions"][0]["created_at"], UTC))
        layer = CommandLayer(store, images=False, clock=clock)
        pids = [str(p.get("id", p["name"])) for p in export["players"]]
        users = {pid: f"user{i + 1}" for i, pid in enumerate(pids)}
        reply = await layer.handle(CH, Caller("user1", "User1", guild=GUILD), "game import",
                                   {"file": json.dumps({**export, "actions": []})})
        assert reply.ok, reply.error
        for pid, user in users.items():
            assert (await send(layer, user, f'/game claim seat:"{pid}"')).ok
        row = await store.open_game(CH)
        assert row is not None
        last: Reply | None = None
        for raw in filter_actions(export["actions"]):
            line = action_to_command(raw)
            if line is None:
                continue
            game = (await layer.load(row)).game
            clock.t = datetime.fromtimestamp(raw["created_at"], UTC)
            last = await send(layer, users[game.controller_of(str(raw["entity"]))], line)
            assert last.ok, (raw.get("id"), line, last.error)
        assert last is not None
        game = (await layer.load(row)).game
        assert game.finished and game.end_reason == "bankrupt"

        # the summary: reason, length, ranking with cash + shares = total, equal to the export's result
        text = "\n".join(last.lines)
        print(text)
        head = next(ln for ln in last.lines if ln.startswith("**Result**: 1856 is over: a player went bankrupt;"))
        assert "a player went bankrupt" in head
        first = min(a["created_at"] for a in export["actions"])
        final = max(a["created_at"] for a in export["actions"])
        assert fmt_days((final - first) / 86400) in head  # 2.8 hours, as recorded by 18xx.games
        assert "10 stock rounds" in head
        ranking = [ln for ln in last.lines if ln[:1] in "🥇🥈🥉"]
        result = {str(k): v for k, v in export["result"].items()}
        # each seat named with the user who claimed it, as they were called then
        person = {pid: f"User{i + 1} ({game.name_of(pid)})" for i, pid in enumerate(pids)}
        assert [ln.split(":")[0][2:] for ln in ranking] == [  # the last could not pay for the CGR presidency
            *(person[pid] for pid in sorted(result, key=lambda k: -result[k])[:-1]), "User3 (Player 3) (bankrupt)"]
        for st in standings(game):
            assert st.total == result[st.player_id] == expected.result()[st.player_id]
            assert st.cash + st.shares - st.loans == st.total
            name = person[st.player_id] + (" (bankrupt)" if st.bankrupt else "")
            line = next(ln for ln in ranking if f" {name}:" in ln)
            assert (f"{name}: {game.fmt(st.total)} (cash {game.fmt(st.cash)} + shares "
                    f"{game.fmt(st.shares)})") in line
        # the chart is attached, its legend naming the same people, and the export is offered
        [chart] = last.files
        assert sorted(drawn["series"]) == sorted(person.values())
        assert drawn["bankrupt"] == ["User3 (Player 3)"]
        assert chart.filename.endswith("-values.png") and chart.data[:8] == b"\x89PNG\r\n\x1a\n"
        out = Path(os.environ.get("SUMMARY_CHART_OUT", str(tmp_path))) / "summary-chart.png"
        out.write_bytes(chart.data)
        assert [b.command for b in last.buttons] == ["/game export"]
        exported = await send(layer, "user3", "/game export")
        data = json.loads(exported.files[0].data)
        assert {str(k): v for k, v in data["result"].items()} == result
        assert data["game_end_reason"] == "bankrupt"

        # finished games stay: history and stats
        assert await store.open_game(CH) is None
        history = await send(layer, "user2", "/game history")
        assert history.ok and "won by User2 (Player 2) with 4607" in history.lines[1]
        assert "2. User1 (Player 1) 4485, 3. User3 (Player 3) 459" in history.lines[1]
        stats = await send(layer, "user2", "/stats")
        assert stats.lines == ["User2: 1 game played, 1 won, average place 1.00"]
        other = await send(layer, "user2", "/stats user:user3 user_name:Carol")
        assert other.lines == ["Carol: 1 game played, 0 won, average place 3.00"]
        nobody = await layer.handle("elsewhere", Caller("user2", "User2", guild="g-other"), "stats", {})
        assert "no finished games" in nobody.lines[0]
    finally:
        await store.close()


def test_standings_name_the_charge_for_loans() -> None:
    """1856 counts each share $10 less per loan its corporation still has (18xx.games'
    player_value): the summary says so instead of showing the shares' value net of it."""
    export = load_export("1856", "89363")
    game = replay(export).game
    result = {str(k): v for k, v in export["result"].items()}
    rows = standings(game)
    assert all(st.loans > 0 for st in rows)  # every player holds shares of a corporation with loans
    for st in rows:
        held = [s for s in game.shares.values() if s.owner == st.player_id]
        assert st.loans == sum(s.percent * game.corp(s.corporation).loans for s in held)
        assert st.shares == sum(game.share_price_value(s) for s in held) + sum(
            game.companies[c].value for c in game.player(st.player_id).companies if not game.companies[c].closed)
        assert st.cash + st.shares - st.loans == st.total == result[st.player_id]
    lines = summary_lines(Summary("1856", game.end_reason, rows, 1, 1, None), game.fmt)
    first = rows[0]
    assert (f"{first.name}: {game.fmt(first.total)} (cash {game.fmt(first.cash)} + shares {game.fmt(first.shares)}"
            f" - {game.fmt(first.loans)} for their corporations' loans)") in lines[1]


def test_value_series_records_every_round() -> None:
    export = load_export("1856", "hotseat006")
    players = [(str(p.get("id", p["name"])), p["name"]) for p in export["players"]]
    settings: dict[str, Any] = export.get("settings") or {}
    fresh = new_game("1856", players, settings.get("optional_rules") or [], settings.get("seed"))
    labels, series, game = value_series(fresh, export["actions"])
    assert labels[0] == "Start" and labels[-1] == "End" and labels[1] == "Auction"
    assert "SR1" in labels and "OR1.1" in labels
    assert all(len(v) == len(labels) for v in series.values())
    assert {name: v[-1] for name, v in series.items()} == {p.name: v for p, v in
                                                           zip(game.players, game.result().values(), strict=True)}
    assert all(v[0] == fresh.players[0].cash + 0 or v[0] > 0 for v in series.values())
    assert round_label((3, "Operating Round", 2)) == "OR3.2" and round_label((4, "Stock Round", 1)) == "SR4"


def test_seats_are_named_with_the_people_who_hold_them() -> None:
    """A claimed seat is "alice (Player 1)" in the ranking and on the chart; a free seat, the
    computer player's, and one joined under its holder's own name (the terminal game's) keep
    their seat names."""
    export = load_export("1856", "hotseat006")
    game = replay(export).game
    ids = [p.id for p in game.players]
    seats = [Seat(0, game.name_of(ids[0]), "u1", ids[0], user_name="alice"),
             Seat(1, game.name_of(ids[1]), None, ids[1]),
             Seat(2, game.name_of(ids[2]), ROBOT_USER, ids[2], conceded=True)]
    labels = [seat_label(s) for s in seats]
    assert labels == [f"alice ({game.name_of(ids[0])})", game.name_of(ids[1]), game.name_of(ids[2])]
    assert seat_label(Seat(0, "Carol", "carol", "1", user_name="carol")) == "Carol"  # /game join under one's name
    rows = standings(game)
    s = with_people(Summary("1856", game.end_reason, rows, 1, 1, None, labels=["Start", "End"],
                            series={game.name_of(i): [0, 1] for i in ids},
                            bankrupt_at={game.name_of(ids[2]): 1}), game, seats)
    assert list(s.series) == labels and s.bankrupt_at == {labels[2]: 1}
    ranking = summary_lines(s, game.fmt)[1:]
    assert sorted(ln.split(":")[0][2:].removesuffix(" (bankrupt)") for ln in ranking) == sorted(labels)
