"""1833NE's provisional values through the command layer (issue #16): ``/game new ...
bonuses:`` sets them, the reply and ``/game rules`` show them marked "provisional: set from
your rulebook", only the host changes them and only until the first operating round, the
game plays with them, and the export carries them."""

from __future__ import annotations

from typing import Any

from bot.commands.layer import CommandLayer
from bot.reply import Caller, Reply
from bot.terminal.textcmd import parse
from engine.replay import replay

CH = "ne-rules"


async def run(layer: CommandLayer, user: str, line: str) -> Reply:
    cmd = parse(line)
    return await layer.handle(CH, Caller(user, user.capitalize()), cmd.name, cmd.params)


async def lobby(layer: CommandLayer, bonuses: str = "") -> Reply:
    extra = f' bonuses:"{bonuses}"' if bonuses else ""
    reply = await run(layer, "alice", f"/game new title:1833NE options:takeover_game{extra}")
    for user in ("bob", "carol"):
        assert (await run(layer, user, "/game join")).ok
    return reply


async def test_game_new_shows_and_sets_the_provisional_table(layer: CommandLayer) -> None:
    """``/game new title:1833NE bonuses:...`` stores the host's values; the reply shows the
    whole table, each value marked provisional, from the summary or set by the host."""
    reply = await lobby(layer, "Boston-Portland=60/60/90/90/10; ferry=30; ports=Boston,Portland,New Haven,Norwich,"
                               "New Bedford")
    text = "\n".join(reply.lines)
    assert reply.ok and "(options: takeover_game)" in text
    assert "provisional: set from your rulebook" in text
    assert "- Boston-Montreal (direct) 150/150/200/200/100 (summary I-IV; V provisional)" in text
    assert "- Boston-Portland (direct) 60/60/90/90/10 (set by the host)" in text
    assert "- Montreal-Portland (cross) 60/60/100/100/50 (provisional)" in text
    assert '+$30 each (set by the host), "New" +$20 (provisional)' in text
    assert "New Bedford & Plymouth H25 (set by the host)" in text
    assert "/game rules bonuses:" in text  # how the host changes them
    plain = await run(layer, "dave", "/game rules")
    assert plain.ok and plain.ephemeral and "60/60/90/90/10 (set by the host)" in "\n".join(plain.lines)


async def test_only_the_host_sets_values_and_bad_ones_are_refused(layer: CommandLayer) -> None:
    await lobby(layer)
    refused = await run(layer, "bob", '/game rules bonuses:"ferry=30"')
    assert not refused.ok and "Only the host" in (refused.error or "")
    bad = await run(layer, "alice", '/game rules bonuses:"Boston-Atlantis=1/2/3/4/5"')
    assert not bad.ok and "not a place on the map" in (bad.error or "")
    row = await layer.store.open_game(CH)
    assert row is not None and row.optional_rules == ["takeover_game"]  # nothing changed
    wrong = await run(layer, "alice", '/game new title:1856 bonuses:"ferry=30"')
    assert not wrong.ok


async def test_values_set_before_the_first_or_are_played_and_exported(layer: CommandLayer) -> None:
    """After /game start the host may still change the values until the first operating round;
    the game is rebuilt with them, and the export carries them."""
    await lobby(layer)
    assert (await run(layer, "alice", "/game start order:joined")).ok
    changed = await run(layer, "alice", '/game rules bonuses:"notes=3 Boston-Portland=cross:5/5/5/5/5"')
    assert changed.ok and "set provisional values" in changed.lines[0]
    row = await layer.store.open_game(CH)
    assert row is not None
    game = (await layer.load(row)).game
    assert game.bank_reserve == 3000
    assert next(b for b in game.provisional.bonuses if {b.a, b.b} == {"G22", "I14"}).kind == "cross"
    export = await layer.export(row)
    assert "provisional:notes=3" in export["settings"]["optional_rules"]
    assert replay(export).game.provisional == game.provisional
    from render.status_image import provisional_table

    shown = {r[0].text: r[-1].text for r in provisional_table(game).rows}  # the status picture's table
    assert shown["Boston-Portland (cross)"] == "set by the host" and shown["Ferry (each)"] == "provisional"

    await to_first_or(layer)
    late = await run(layer, "alice", '/game rules bonuses:"notes=4"')
    assert late.ok and "Every seated player must agree (1/3)" in late.lines[0]  # now a vote


async def to_first_or(layer: CommandLayer) -> Any:
    """Play on to the first operating round (privates bought at face, BW started)."""
    row = await layer.store.open_game(CH)
    assert row is not None
    game = (await layer.load(row)).game
    while game.round.name != "Operating Round":
        who = {"1": "alice", "2": "bob", "3": "carol"}[game.acting()[0]]
        if game.round.name == "Auction Round":
            cheapest = game.round.companies[0]
            line = f"/bid company:{cheapest.sym} price:{cheapest.value}"
        elif not game.corporations["BW"].ipoed:
            line = "/par corporation:BW price:100"
        else:
            line = "/pass"
        assert (await run(layer, who, line)).ok, line
        game = (await layer.load(row)).game
    return game


async def test_values_change_in_play_when_every_player_agrees_and_are_logged(layer: CommandLayer) -> None:
    """Issue #25: after the first operating round the host's change is put to the table (the
    undo vote); it takes effect once every seated player agreed, from then on, and the game's
    log tells it; a refusal or a stale button changes nothing."""
    await lobby(layer)
    assert (await run(layer, "alice", "/game start order:joined")).ok
    game = await to_first_or(layer)
    assert not game.provisional_open()
    assert not (await run(layer, "bob", '/game rules bonuses:"ferry=30"')).ok  # only the host asks
    asked = await run(layer, "alice", '/game rules bonuses:"ferry=30 Boston-Portland=70/70/90/90/30"')
    assert asked.ok and "Every seated player must agree (1/3)" in asked.lines[0], asked.lines
    assert "Boston-Portland $70/$70/$90/$90/$30" in asked.lines[0]
    yes = next(b.command for b in asked.buttons if "vote:yes" in b.command)
    assert (await run(layer, "bob", yes)).ok
    row = await layer.store.open_game(CH)
    assert row is not None
    assert (await layer.load(row)).game.provisional.ferry_value != 30  # not yet: carol has not agreed
    done = await run(layer, "carol", yes)
    assert done.ok and "provisional values changed with every player's agreement" in done.lines[0]
    game = (await layer.load(row)).game
    assert game.provisional.ferry_value == 30
    assert any(line.startswith("Provisional values changed by agreement") for line in game.log)
    assert (await run(layer, "bob", yes)).ok is False  # the button is out of date now
    export = await layer.export(row)
    assert replay(export).game.provisional == game.provisional  # the log carries the change
    asked = await run(layer, "alice", '/game rules bonuses:"ferry=40"')
    no = next(b.command for b in asked.buttons if "vote:no" in b.command)
    assert "refuses" in (await run(layer, "carol", no)).lines[0]
    assert (await layer.load(row)).game.provisional.ferry_value == 30


async def test_other_titles_have_no_provisional_values(layer: CommandLayer) -> None:
    assert (await run(layer, "alice", "/game new title:1856")).ok
    reply = await run(layer, "alice", "/game rules")
    assert reply.ok and "no provisional values" in reply.lines[0]


async def test_game_rules_lists_the_fixed_decisions_with_their_source(layer: CommandLayer) -> None:
    """Issue #25: the guesses no setting changes are shown with their source (and in
    docs/rules-deviations.md): "Last", P5's ferry, the 6/9 cards, takeover terms and names, a
    corporation without a president, bonuses of N/M trains."""
    await lobby(layer)
    shown = "\n".join((await run(layer, "alice", "/game rules")).lines)
    for what in ('"Last" ferry bonus', "P5", "6/9 cards in the takeover game", "Takeover payment", "Takeover-game corporations",
                 "Corporation without a president", "N/M trains and bonuses"):
        assert f"- {what}: " in shown, what
    assert "summary" in shown
