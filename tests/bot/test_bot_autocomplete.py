"""Discord autocomplete wiring (specced mocks, no live Discord): every option with a fixed set
of legal values has an autocomplete callback, and integer options get integer choices."""

from __future__ import annotations

from typing import Any

from bot.discord.cog import ConductorCog
from bot.discord.io import complete
from tests.discord import test_bot_discord as discord_tests
from tests.discord.test_bot_discord import ALICE, BOB, fake_interaction, import_at

WIRED = {
    "help": ["command"],
    "game new": ["options"],
    "game leave": ["seat"],
    "game claim": ["seat"],
    "game seat": ["seat"],
    "game sub": ["seat"],
    "game concede": ["seat"],
    "bid": ["company", "price"],
    "pass": ["entity"],
    "lay": ["hex", "tile", "rotation", "entity"],
    "token": ["city", "slot", "entity"],
    "routes": ["routes"],
    "discard": ["train", "entity"],
    "assign": ["target", "entity"],
    "issue": ["shares"],
    "redeem": ["share"],
    "merge": ["corporation"],
    "autobuy": ["corporation", "until"],
}


cog = discord_tests.cog  # the same fixture: a cog over a fresh store


def _commands(cog: ConductorCog) -> dict[str, Any]:
    out = {}
    for cmd in cog.__cog_app_commands__:
        for c in getattr(cmd, "commands", [cmd]):
            out[c.qualified_name] = c
    return out


def test_every_fixed_choice_option_has_autocomplete(cog: ConductorCog) -> None:
    cmds = _commands(cog)
    for name, options in WIRED.items():
        for option in options:
            assert cmds[name]._params[option].autocomplete is not None, f"/{name} {option}:"


async def _ask(
    cog: ConductorCog, user: int, name: str, options: list[dict[str, Any]], typed: str = ""
) -> list[Any]:
    inter = fake_interaction(cog, user, data={"options": options})
    inter.command = _commands(cog)[name]  # the real command: its option types decide the value type
    return await complete(inter, typed)


async def test_bid_price_offers_the_minimum_as_integers(cog: ConductorCog) -> None:
    await import_at(cog, 0)  # hotseat001's auction: Player 1 (alice) first; FT costs $20
    prices = await _ask(
        cog,
        ALICE,
        "bid",
        [{"name": "company", "value": "FT"}, {"name": "price", "value": "", "focused": True}],
    )
    # (FT, the cheapest, is bought at once at its price: no higher bid is offered)
    assert [p.value for p in prices] == [20] and isinstance(prices[0].value, int) and "its price" in prices[0].name
    assert (
        await _ask(
            cog,
            BOB,
            "bid",
            [{"name": "company", "value": "FT"}, {"name": "price", "value": "", "focused": True}],
        )
        == []
    )


async def test_help_and_seat_options_complete(cog: ConductorCog) -> None:
    await import_at(cog, 0)
    names = await _ask(cog, ALICE, "help", [{"name": "command", "value": "lay", "focused": True}], "lay")
    assert [c.value for c in names] == ["lay"]
    seats = await _ask(
        cog,
        BOB,
        "game concede",
        [{"type": 1, "name": "concede", "options": [{"name": "seat", "value": "", "focused": True}]}],
    )
    assert [c.value for c in seats] == ["Player 2"]
