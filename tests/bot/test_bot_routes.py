"""When a corporation is to run, the bot shows the optimizer's best routes on the map, with a
button that submits them."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.commands.layer import CommandLayer, decision_buttons
from bot.reply import Reply
from bot.service import _suggestion
from bot.storage.store import Store
from engine.replay import filter_actions, replay
from tests.fixture_util import load_export


def _before_first_run(name: str) -> Any:
    export = load_export("1856", name)
    acts = filter_actions(export["actions"])
    first = next(i for i, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes"))
    return replay(export, upto=acts[first - 1]["id"]).game, acts[first]


async def test_route_suggestion_is_drawn_and_offered(tmp_path: Any) -> None:
    game, recorded = _before_first_run("89363")
    corp = game.acting()[0]
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=True)
        reply = Reply()
        await layer._show_routes(game, reply, _suggestion(game))
    finally:
        await store.close()
    line = next(x for x in reply.lines if x.startswith(f"Best routes for {corp}"))
    best = int(line.rsplit("$", 1)[1])
    assert best >= sum(r["revenue"] for r in recorded["routes"])
    png = next(f for f in reply.files if f.filename == "routes.png")
    assert Image.open(io.BytesIO(png.data)).size[0] > 500
    assert any(b.label == "Run suggested routes" for b in decision_buttons(game, 1))
