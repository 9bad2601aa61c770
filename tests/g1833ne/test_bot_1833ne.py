"""1833NE through the command layer: takeovers (/takeover with its payment, /accept) and
routes with an extension typed as text, each turned back into the command a player types."""

from __future__ import annotations

from bot.play import allowed_commands
from bot.terminal.textcmd import action_to_command, format_routes, parse, parse_routes
from engine import actions as A
from engine.moves import MOVES
from tests.g1833ne.test_1833ne_takeover import position
from tests.routing.test_route_extension import _hartford


def _build(g, name: str, entity: str, line: str):
    cmd = parse(line)
    assert cmd.name == name
    return MOVES[name].build(g, entity, cmd.params)


def test_takeover_offer_and_accept_as_commands() -> None:
    """BW offers to take over B&L paying 2 of its shares (the command names the payment);
    B&L's president answers with /accept (or /pass to refuse)."""
    g = position(bl_price=70, ann_bw=2, cy_bl=3, pool_bl=1, bl_train=True)
    assert "/takeover" in allowed_commands(g, "BW")
    offer = _build(g, "takeover", "BW", "/takeover corporation:b&l shares:2")
    assert action_to_command(offer.to_dict()) == "/takeover corporation:B&L shares:2"
    g.process(offer)
    assert allowed_commands(g, "B&L") == ["/accept", "/pass"]
    g.process(_build(g, "accept", "B&L", "/accept"))
    assert g.corporations["B&L"].closed


def test_extension_routes_round_trip_as_text() -> None:
    """A route with an extension is written ``TRAIN: chains + extension chains`` and read
    back to the same route, which the engine accepts."""
    g = _hartford()
    best = g.best_route_solution("HR", 10.0).routes
    text = format_routes(best)
    assert " + C24-D23-D21" in text
    again = parse_routes(text)
    assert [(r["connections"], r["extension"]) for r in again] == [(r["connections"], r["extension"]) for r in best]
    action = _build(g, "routes", "HR", f'/routes routes:"{text}"')
    g.process(action)
    assert g.round.state["routes"][0]["revenue"] == best[0]["revenue"]


def test_takeover_corporation_starts_on_the_home_the_player_names() -> None:
    """From phase II a takeover-game corporation starts on a free city the player chooses:
    /par offers the homes allowed at the chosen price ($120 homes only from $60) and places the
    home station there; the command reads back the same."""
    from engine.moves import choices_for
    from tests.g1833ne.test_1833ne import new, stock_round

    g = new(3, ("takeover_game",))
    stock_round(g)
    g.phase_index = g.phase_index_of("II")
    pid = g.round.acting()[0]
    cheap = {c.value for c in choices_for(g, pid, "par", {"corporation": "B&M", "price": "50,0,5"})}
    dear = {c.value for c in choices_for(g, pid, "par", {"corporation": "B&M", "price": "100,0,10"})}
    assert "D21" in cheap and "F17" not in cheap and "F17" in dear  # Manchester (F17): a $120 home
    action = _build(g, "par", pid, "/par corporation:B&M price:100 home:f17")
    assert action_to_command(action.to_dict()) == "/par corporation:B&M price:100 home:F17"
    g.process(action)
    assert g.corporations["B&M"].home == "F17" and g.board.hexes["F17"].tokened_by("B&M")


def test_ferries_are_offered_and_bought_with_right() -> None:
    """/right offers the ferries still for sale (1833NE, $40 each until phase IV); buying one
    takes it off the list."""
    from engine.moves import choices_for
    from tests.g1833ne.test_1833ne import _operating, new

    g = new()
    _operating(g, "CV", 100)
    offered = [c.value for c in choices_for(g, "CV", "special_buy")]
    assert offered == [f"Ferry {hid}" for hid in g.provisional.ferry_ports]
    g.process(_build(g, "right", "CV", '/right right:"Ferry C26"'))
    assert g.ferries["C26"] == "CV" and "Ferry C26" not in [c.value for c in choices_for(g, "CV", "special_buy")]


def test_train_sides_are_chosen_with_variant() -> None:
    """/train buys a two-sided card as the side the player names (default: the card's first
    side at its own price); autocomplete shows both prices and offers the sides the
    corporation can pay for; the command reads back the same."""
    from engine import actions as A
    from engine.moves import choices_for
    from tests.g1833ne.test_1833ne import _operating, new

    g = new()
    _operating(g, "CV", 100)
    for t in g.trains.values():
        if t.id.startswith("2-"):
            t.owner = "rusted"  # the 2-cards are gone: the 3/5 cards are for sale
    while "buy_train" not in g.action_types("CV"):
        g.process(A.Pass(entity="CV", entity_type="corporation"))
    (offer,) = choices_for(g, "CV", "buy_train")
    assert offer.value == "3/5-0" and offer.label.endswith("3/5 $180 or 2+2 $140; starts phase II")
    assert [c.value for c in choices_for(g, "CV", "buy_train", {"train": "3/5-0"})] == ["3/5", "2+2"]
    first = _build(g, "train", "CV", "/train train:3/5")
    assert (first.variant, first.price) == ("3/5", 180)
    action = _build(g, "train", "CV", "/train train:3/5-0 variant:2+2")
    assert action_to_command(action.to_dict()) == "/train train:3/5-0 variant:2+2 price:140"
    g.process(action)
    assert g.trains["3/5-0"].name == "2+2" and g.corporations["CV"].cash == 200 - 140


def test_takeover_round_says_what_each_player_may_do() -> None:
    """Play-test: the acquirer read "act in the Takeover Round 2", the target "accept or refuse
    ... (/accept or /pass) (/accept, /pass)" with a button "Pass" to refuse, whose log line
    repeated all that; a corporation over its limit after a takeover was asked to "wait";
    /help takeover showed "shares:CV" for a number of shares."""
    from bot.play import title_example
    from bot.texts.game import pass_label
    from bot.texts.turns import acting_parts, credited
    from engine.titles.g1833ne.takeover import AcceptTakeover
    from tests.g1833ne.test_1833ne_takeover import takeover

    g = position(bl_price=70, ann_bw=2, cy_bl=3, pool_bl=1, bl_train=True)
    assert title_example(g, MOVES["takeover"]) == "/takeover corporation:B&L shares:1"
    for tid in ("2-2", "2-3"):
        g.give_train(g.trains[tid], "BW")
    g.give_train(g.trains["2-4"], "B&L")
    assert acting_parts(g) == ["Ann for BW, offer to take over a corporation its track reaches, or pass (/takeover, /pass)"]
    assert pass_label(g, "BW") == "No takeover"
    g.process(takeover(2))
    assert acting_parts(g) == ["Cy for B&L, accept the takeover offered by BW, or pass to refuse it (/accept, /pass)"]
    assert pass_label(g, "B&L") == "Refuse the takeover"
    refused = ["B&L refuses the takeover by BW"]
    assert credited(refused, g, "B&L", "cy", "B&L passes (...)", "pass") == ["B&L refuses the takeover by BW (cy)"]
    g.process(AcceptTakeover(entity="B&L", entity_type="corporation"))
    bw = g.corporations["BW"]
    assert len(bw.trains) == 5 and g.corp_train_limit(bw) == 4  # 3 in phase II, +1 for the takeover
    assert acting_parts(g) == ["Ann for BW, discard a train (it may keep 4) (/discard)"]


async def test_a_run_with_no_route_says_so(layer) -> None:  # type: ignore[no-untyped-def]
    """Play-test: StL&A with two trains in Montreal (its track reaching no second stop) was
    asked to "run routes" with no suggestion; the reply now says there is none to run."""
    from bot.reply import Reply
    from engine.decisions import action_types, route_suggestion
    from tests.g1833ne.test_1833ne import new, par, start_or, stock_round

    g = new(3)
    stock_round(g)
    par(g, "1", "StL&A", 90)
    start_or(g)
    g.give_train(g.trains["2-0"], "StL&A")
    g.process(A.Pass(entity="StL&A", entity_type="corporation"))  # no track
    assert "run_routes" in action_types(g, "StL&A")
    sol = route_suggestion(g, "StL&A")
    assert sol is not None and sol.routes == []
    reply = Reply()
    await layer._show_routes(g, reply, sol)
    assert reply.lines == ["StL&A's trains have no route to run now: /routes routes:none"]


def test_starting_a_takeover_corporation_is_told_with_its_city_and_president() -> None:
    """Play-test: "Player 3 starts NH at $70 in D21 (home station $80)" named no city and no
    president (a corporation started on its printed home says "becomes the president")."""
    from tests.g1833ne.test_1833ne import new, stock_round

    g = new(3, ("takeover_game",))
    stock_round(g)
    g.phase_index = g.phase_index_of("II")
    pid = g.round.acting()[0]
    g.process(_build(g, "par", pid, "/par corporation:NH price:70 home:D21"))
    name = g.name_of(pid)
    assert f"{name} starts NH at $70 in Springfield (D21); NH pays $80 for its home station; {name} is its president" in g.log
    assert g.corporations["NH"].cash == 140 - 80
