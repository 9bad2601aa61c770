"""When a corporation is to run, the bot shows the optimizer's best routes on the part of the map
around its network (read on a phone: on the whole map they were thin lines in a corner), with a
button that submits them; the picture takes in the tile laid that turn and then stands for the map."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.commands.layer import CommandLayer, decision_buttons
from bot.discord.posting import PostedPictures
from bot.reply import Reply
from bot.service import _suggestion
from bot.storage.store import Store
from engine.game import Game
from engine.replay import filter_actions, game_from_export, replay
from render.map.crop import CROP_SIDE, network_hexes
from render.map.image import render_map
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
    [png] = reply.files  # the crop alone: a second picture would halve it on a phone
    assert png.filename == "routes.png"
    width, height = Image.open(io.BytesIO(png.data)).size
    whole = Image.open(io.BytesIO(render_map(game))).size
    assert 300 <= width <= CROP_SIDE and height <= CROP_SIDE + 200 and width < whole[0] * 0.6
    assert any(b.label == "Run suggested routes" for b in decision_buttons(game, 1))


def _late_run() -> tuple[Game, Game, list[dict[str, Any]]]:
    """1856_game_end_bank: WGB's turn begins (after action 879, when the map was posted), WGB lays
    I10 (880) and is to run; that position, the one before the lay, and the suggested routes."""
    export = load_export("1856", "1856_game_end_bank")
    start = replay(export, upto=879).game
    game = replay(export, upto=880).game
    sol = _suggestion(game)
    assert sol is not None and sol.corp == "WGB"
    return start, game, sol.routes


def test_the_routes_picture_takes_in_the_turns_tile_and_stands_for_the_map() -> None:
    start, game, routes = _late_run()
    posted = PostedPictures()
    posted.mark(1, start, ("map",))  # the map of the turn change before
    hexes, covers = posted.routes_area(1, game, "WGB", routes)
    assert covers and "I10" in hexes and set(network_hexes(game, "WGB", routes)) <= set(hexes)
    assert "I10" not in network_hexes(game, "WGB", [])  # not one of its stations
    # nothing known of the map (a restart before any picture): the map is posted as usual
    assert PostedPictures().routes_area(1, game, "WGB", routes)[1] is False
    # too much changed since (a new game's map): the whole map says it better
    fresh = PostedPictures()
    fresh.mark(1, game_from_export(load_export("1856", "1856_game_end_bank")), ("map",))
    assert fresh.routes_area(1, game, "WGB", routes)[1] is False


async def test_after_the_routes_picture_the_turn_change_posts_no_map_again(tmp_path: Any) -> None:
    start, game, routes = _late_run()
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=True)
        layer.posted.mark(7, start, ("map",))
        reply = Reply(game_id=7)
        await layer._show_routes(game, reply, _suggestion(game))
        assert [f.filename for f in reply.files] == ["routes.png"]
        assert "map" not in layer.posted.changed(7, game)  # the crop showed the tile laid
        unknown = Reply(game_id=8)  # nothing remembered of game 8's map: posted at the turn change
        await layer._show_routes(game, unknown, _suggestion(game))
        assert [f.filename for f in unknown.files] == ["routes.png"]
        assert "map" in layer.posted.changed(8, game)
    finally:
        await store.close()


async def test_routes_the_search_could_not_prove_best_are_shown_as_the_best_found(
    tmp_path: Any, monkeypatch: Any
) -> None:
    """A search cut short by its time budget: the line and the picture's title say the routes
    are the best found, not the best; proven routes keep saying best."""
    import dataclasses

    import bot.discord.posting as posting

    _, game, _ = _late_run()
    proven = _suggestion(game)
    assert proven is not None and proven.optimal
    cut = dataclasses.replace(proven, optimal=False, stopped="time budget spent")
    titles: list[str] = []
    real_crop = posting._crop

    def crop(filename: str, g: Game, hexes: list[str], **kwargs: Any) -> Any:
        titles.append(kwargs["where"])
        return real_crop(filename, g, hexes, **kwargs)

    monkeypatch.setattr(posting, "_crop", crop)
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        layer = CommandLayer(store, images=True)
        shown, unproven = Reply(), Reply()
        await layer._show_routes(game, shown, proven)
        await layer._show_routes(game, unproven, cut)
    finally:
        await store.close()
    assert any(x.startswith("Best routes for WGB:") for x in shown.lines)
    [line] = [x for x in unproven.lines if "WGB" in x]
    assert line.startswith("Best routes found for WGB (the search ran out of time: not proven best): ")
    assert line.endswith(f"= {game.fmt(proven.total)}")
    assert titles == ["WGB's routes", "WGB's routes: best found, not proven best"]
    assert [f.filename for f in unproven.files] == ["routes.png"]
