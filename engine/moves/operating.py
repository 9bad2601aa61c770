"""Moves of a corporation's operating turn besides the map: ``/routes``, ``/dividend``, trains
(``/train``, ``/discard``, ``/borrow``), money (``/loan``, ``/repay``, ``/issue``, ``/redeem``),
``/private``, ``/right``, the 1856 national's ``/merge``, 1833NE's ``/takeover`` and
``/accept``, and ``/bankrupt``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from .. import actions as A
from ..choice import Choice
from ..decisions import route_suggestion, step_offering, suggest_routes
from ..entities import POOL, Corporation, Train, listed
from ..errors import BAD_OPTION, CANNOT_AFFORD, UNAVAILABLE, UNKNOWN, GameError
from ..game import Game
from ..rounds.operating import OperatingRound
from .routes_text import SEPARATOR, format_routes, parse_routes, route_hexes
from .spec import Move, Option, Params, Span, base, no_choices, number, pick, text
from .stock import sell_choices, share_ids


def _operating(game: Game) -> OperatingRound | None:
    return game.round if isinstance(game.round, OperatingRound) else None


# ---------------------------------------------------------------------- /routes, /dividend
def route_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """``auto`` (the optimizer's routes, from the answer already computed for this position when
    there is one), those routes written out, and ``none``."""
    out = []
    try:
        sol = route_suggestion(game, entity, wait=False) or route_suggestion(game, entity, time_budget=0.5)
    except GameError:  # no routes to suggest: auto and none remain
        sol = None
    routes = sol.routes if sol is not None else []
    if sol is not None and routes:
        total = game.fmt(sum(r["revenue"] for r in routes))
        shown = format_routes(routes, continuous=True)
        told = format_routes(routes, continuous=True, named=lambda tid: _train_called(game, tid))
        best = "the best routes" if sol.optimal else "the best routes found in time (not proven best)"
        out.append(Choice("auto", f"auto: {best}, {total} ({told})"))
        if len(shown) <= 100:
            out.append(Choice(shown, f"{told} = {total}"))
    else:
        out.append(Choice("auto", "auto: the best routes"))
    out.append(Choice("none", "none: do not run"))
    return out


def _train_called(game: Game, tid: str) -> str:
    """A train as players call it: "4-train" (4-1), "2+2-train (3/5-4)" (1833NE's card by the
    side it runs as, and the card)."""
    train = game.trains.get(tid)
    if train is None:
        return tid
    return f"{train.name}-train" + ("" if tid.startswith(f"{train.name}-") else f" ({tid})")


def build_routes(g: Game, e: str, p: Params) -> A.Action:
    raw = (p.get("routes") or "").strip()
    if not raw or raw.lower() in ("auto", "suggested"):
        routes = suggest_routes(g, e)
    elif raw.lower() == "none":
        routes = []
    else:
        routes = parse_routes(raw, lambda chain: chain_hexes(g, chain))
        own = list(g.corporations[e].trains) if e in g.corporations else None
        named = [f"{t} ({g.train(t).name})" for t in own] if own is not None else None
        used: set[str] = set()
        hexes = list(g.board.hexes)
        for r in routes:
            typed = str(r["train"])
            if own is not None and typed not in g.trains:  # a train named by its kind ("2+1", "D")
                typed = next((t for t in own if g.train(t).name.lower() == typed.lower() and t not in used), typed)
            r["train"] = pick(typed, list(g.trains), "train", named)
            used.add(r["train"])
            for chain in [*r["connections"], *r.get("extension", [])]:
                for h in chain:
                    pick(h, hexes, "hex")
            # "F17-F15-G14-G12" through the stop at F15 is the connections F17-F15 and F15-G14-G12;
            # "Barrie-Toronto-Oshawa" (stops only) takes the track between them where it is one way
            r["connections"] = [piece for chain in r["connections"]
                                for piece in (g.board.split_chain(chain) or between_stops(g, e, chain) or [chain])]
            r["hexes"] = route_hexes(r["connections"])
    return A.RunRoutes(**base(g, e), routes=tuple(routes))


def between_stops(g: Game, e: str, chain: list[str]) -> list[list[str]] | None:
    """A route written as its stops only ("M4-N11-P9"): each step the one way the corporation's
    track runs from the one stop to the next (None: some step has none; several ways: the
    player is asked which)."""
    if e not in g.corporations or len(chain) < 2:
        return None
    graph = g.route_graph(e)
    pieces: list[list[str]] = []
    for a, b in zip(chain, chain[1:], strict=False):
        ways = sorted({tuple(link.chain) for u, ref in enumerate(graph.stops) if ref[0] == a
                       for link in graph.adj[u] if graph.stops[link.v][0] == b})
        if not ways:
            return None
        if len(ways) > 1:
            raise GameError(f"From {a} to {b} the track runs several ways ({' or '.join('-'.join(w) for w in ways)}):"
                            " write the hexes of the one you mean", BAD_OPTION, option="routes", value=f"{a}-{b}")
        pieces.append(list(ways[0]))
    return pieces


def chain_hexes(g: Game, text: str) -> list[str]:
    """A route's hexes as a player types them: hex ids or the places' names ("Barrie-Toronto",
    "m4 n9", "Detroit - Windsor"; case does not matter), with ``-`` or spaces between them. A name
    (or one part of a name like "Rotterdam & Den Haag") stands for its hex where only one hex has it."""
    words = [w for w in SEPARATOR.split(text) if w]
    ids = {h.lower(): h for h in g.board.hexes}
    places: dict[str, list[str]] | None = None  # (worked out only for a chain that names a place)
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() in ids:
            out.append(ids[words[i].lower()])
            i += 1
            continue
        if places is None:
            places = _place_names(g)
        for j in range(len(words), i, -1):  # the longest name starting here
            name = " ".join(words[i:j]).lower()
            hexes = places.get(name)
            if hexes:
                if len(hexes) > 1:
                    raise GameError(f"{' '.join(words[i:j])} names several hexes ({', '.join(hexes)}): "
                                    "write the hex", BAD_OPTION, option="routes", value=name)
                out.append(hexes[0])
                i = j
                break
        else:
            raise GameError(f"There is no hex or place {words[i]!r} on this map (write hexes like "
                            f"{next(iter(g.board.hexes))} or places by name)", UNKNOWN, option="routes",
                            what="hex", id=words[i])
    return out


def _place_names(g: Game) -> dict[str, list[str]]:
    """Each place name on the map (and each part of a name like "Rotterdam & Den Haag"),
    written as a chain's words, lower case -> the hexes that have it."""
    def spelled(name: str) -> str:
        return " ".join(w for w in SEPARATOR.split(name.lower()) if w)

    out: dict[str, list[str]] = {}
    for hid, h in g.board.hexes.items():
        if not h.location:
            continue
        parts = {spelled(h.location), *(spelled(p) for p in re.split(r"\s+&\s+|/|\s+-\s+", h.location))}
        for name in parts - {""}:
            if hid not in out.setdefault(name, []):
                out[name].append(hid)
    return out


def dividend_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """Each dividend kind with what it does, as the title's ``dividend_effect`` says: what the
    shares get (in all, of the run when only a part, and a share's part), where the share price
    goes and, when the corporation keeps some of the run, its treasury."""
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    rnd = _operating(game)
    revenue = sum(r["revenue"] for r in rnd.state.get("routes", [])) if rnd is not None else 0
    net = revenue - game.revenue_deduction(rnd, corp) if rnd is not None else 0
    words = {"payout": "pay out", "withhold": "withhold", "half": "pay half"}
    out = []
    deducted = revenue - net  # (1856: the unpaid interest taken from the run first)
    for kind in game.dividend_kinds(corp):
        label = words.get(kind, kind)
        after = game.dividend_effect(corp, net, kind)
        if revenue:
            # what the shares get: all of the run, or a part ("pay half $50 of $110" in 1833NE)
            part = kind != "withhold" and after.paid != net
            label += f" {game.fmt(after.paid)} of {game.fmt(net)}" if part else f" {game.fmt(max(net, 0))}"
            # ("pay out 230 F (23 F a share, after 20 F interest)": a button holds 80 characters)
            notes = [f"{game.fmt(after.per_share)} a share"] if after.paid > 0 else []
            notes += [f"after {game.fmt(deducted)} interest"] if deducted else []
            if notes:
                label += f" ({', '.join(notes)})"
        if after.price is not None and "close" in after.price.types:
            # (its price falls to the closing space: "price 30 F -> 0 F, treasury 0 F" said it darkly)
            out.append(Choice(kind, f"{label}, {corp.sym} closes"))
            continue
        if after.price is not None and corp.price is not None and after.price.price != corp.price.price:
            label += f", price {game.fmt(corp.price.price)} -> {game.fmt(after.price.price)}"
        if after.cash != corp.cash:  # (a payout too: the corporation's own shares earn for it)
            label += f", treasury {game.fmt(after.cash)}"
        out.append(Choice(kind, label))
    return out


def build_dividend(g: Game, e: str, p: Params) -> A.Action:
    kinds = list(g.dividend_kinds(g.corporations[e])) if e in g.corporations else ["payout", "withhold"]
    return A.Dividend(**base(g, e), kind=pick(text(p, "kind"), kinds, "dividend choice"))


# ---------------------------------------------------------------------- /train, /discard, /borrow
def _price_text(game: Game, train: Train, most: int | None = None) -> str:
    """A bank train's price; for a two-sided card (1833NE) each side's ("3/5 $180 or 2+2 $140"),
    only those costing at most ``most`` when any does (what the buyer can pay)."""
    sides = game.train_variants(train)
    if not sides:
        return game.fmt(train.price)
    payable = [(name, price) for name, price in sides if most is None or price <= most] or sides
    return " or ".join(f"{name} {game.fmt(price)}" for name, price in payable)


def phase_note(game: Game, corp: Corporation, train: Train) -> str:
    """ "; starts phase 6: 3-trains rust (its own too)": what buying ``train`` from the bank
    sets off (``Game.phase_train_effects``; "" when it starts no phase). 1833NE: "; starts phase
    III: 2-trains become obsolete (its own too)"."""
    if train.owner != "depot":
        return ""
    # its own events (1856 family: the first 5-train closes the privates, the first 6-train
    # forms the national)
    events = [w for e in train.events if "when" not in e and (w := game.train_event_words(e["type"]))]
    also = "".join(f"; {w}" for w in events)
    phase = next((ph for i, ph in enumerate(game.phases)
                  if i > game.phase_index and ph.get("on") == train.name), None)
    if phase is None:
        return also
    name = phase["name"]
    held = [(t, effect) for t, effect in game.phase_train_effects(name) if t.owner in game.corporations]
    if not held:
        return f"; starts phase {name}{also}"
    said = []
    for effect, words in (("rust", "rust"), ("obsolete", "become obsolete")):
        kinds = listed([f"{name}-trains" for name in dict.fromkeys(t.name for t, e in held if e == effect)])
        if kinds:
            said.append(f"{kinds} {words}")
    own = " (its own too)" if any(t.owner == corp.sym for t, _ in held) else ""
    return f"; starts phase {name}: {listed(said)}{own}{also}"


def _left(game: Game, corp: Corporation, price: int) -> str:
    """ ", leaves $20": what the treasury keeps after paying ``price``."""
    return f", leaves {game.fmt(corp.cash - price)}"


def _train_variants(game: Game, corp: Corporation, train_id: str) -> list[Choice]:
    """1833NE two-sided cards: the sides of a bank train the corporation can pay for."""
    train = game.trains.get(train_id)
    if train is None:
        return []
    floor = game.side_floor(corp, train)  # 1833NE after an emergency issue
    return [Choice(name, f"{name} for {game.fmt(price)}{_left(game, corp, price)}")
            for name, price in game.train_variants(train) if floor <= price <= corp.cash]


def _step_train_choices(game: Game, corp: Corporation, buyable: list[Train]) -> list[Choice]:
    """The trains a title's train step lists (1856 family), with what the buyer can pay: a
    bank train at its price (the cheapest one with the president's help when a train must be
    bought), another corporation's for $1 up to the treasury (at face value where the title
    says so), a trade-in at the reduced price."""
    out = []
    seen = set()
    cash = corp.cash
    pres_cash = game.player(corp.president).cash if corp.president else 0
    for t in buyable:
        if t.owner in ("depot", "discard"):
            if (t.name, t.owner) in seen:
                continue
            seen.add((t.name, t.owner))
            helped = game.president_may_help_buy(corp, t) and t.price - cash <= pres_cash
            if t.price <= cash or helped:
                src = "the bank" if t.owner == "depot" else "the discard pile"
                note = (f" (the president pays {game.fmt(t.price - cash)})" if t.price > cash
                        else _left(game, corp, t.price))
                most = cash + (pres_cash if helped else 0)
                out.append(Choice(t.id, f"{t.name}-train from {src}, {_price_text(game, t, most)}{note}"))
        elif (t.name, t.owner) in seen:
            continue  # trains of one kind from one seller are alike: offered once
        elif game.face_value_only(corp, t):
            seen.add((t.name, t.owner))
            if t.price <= cash:
                out.append(Choice(t.id, f"{t.name}-train from {t.owner}, {game.fmt(t.price)}{_left(game, corp, t.price)}"))
        elif (span := agreed_price(game, corp, t)) is not None:
            seen.add((t.name, t.owner))
            out.append(Choice(t.id, f"{t.name}-train from {t.owner}, {span.text}"))
    return out


def agreed_price(game: Game, corp: Corporation, train: Train) -> Span | None:
    """What ``corp`` may pay for another corporation's train at the price agreed: $1 up to its
    treasury. None where the price is not free (a bank train, one sold at face value only) or
    the treasury is empty."""
    owner = train.owner
    if owner not in game.corporations or owner == corp.sym or game.face_value_only(corp, train) or corp.cash < 1:
        return None
    return Span(1, corp.cash, f"{game.fmt(1)}-{game.fmt(corp.cash)}", f"the {train.name}-train from {owner}")


def price_span(game: Game, entity: str, given: Params) -> Span | None:
    """``/train``'s price when it must be typed: the train given is another corporation's, bought
    at the price agreed (:func:`agreed_price`)."""
    corp = game.corporations.get(entity)
    raw = (given.get("train") or "").strip()
    if corp is None or not raw:
        return None
    try:
        tid = train_id(game, raw, entity)
    except GameError:
        return None
    return agreed_price(game, corp, game.trains[tid])


def train_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """The trains the corporation may buy now, one choice per train (a bank train it may also
    get by trading one of its trains in says for how much: ``exchange`` then says which), then
    (given a two-sided card) its sides."""
    if "train" in given:
        corp = game.corporations.get(entity)
        return _train_variants(game, corp, given["train"]) if corp is not None and _operating(game) else []
    plain, trades = _train_offers(game, entity)
    return _with_phase_notes(game, entity, _with_trade_ins(game, entity, plain, trades))


def _with_phase_notes(game: Game, entity: str, choices: list[Choice]) -> list[Choice]:
    """Each bank train's choice with what buying it sets off, last (a menu cuts long labels)."""
    corp = game.corporations.get(entity)
    if corp is None:
        return choices
    return [Choice(c.value, c.label + phase_note(game, corp, game.trains[c.value])) if c.value in game.trains else c
            for c in choices]


def _with_trade_ins(game: Game, entity: str, plain: list[Choice], trades: list[tuple[Train, int]]) -> list[Choice]:
    """The choices, each bank train also got by trading one in saying for how much."""
    if not trades:
        return plain
    corp = game.corporations[entity]
    out = list(plain)
    by_kind: dict[tuple[str, str], list[tuple[Train, int]]] = {}
    for t, price in trades:
        by_kind.setdefault((t.name, t.owner), []).append((t, price))
    for kind, offers in by_kind.items():
        cost = min(price for _, price in offers)
        gives = "/".join(sorted({game.trains[own].name for t, _ in offers
                                 for own, price in game.trade_ins(corp, t).items() if price <= corp.cash}))
        at = next((i for i, c in enumerate(out) if c.value in game.trains
                   and (game.trains[c.value].name, game.trains[c.value].owner) == kind), None)
        if at is None:
            t = offers[0][0]
            out.append(Choice(t.id, f"{t.name}-train trading in a {gives}-train, {game.fmt(cost)}"
                                    f"{_left(game, corp, cost)}"))
        else:
            out[at] = Choice(out[at].value, f"{out[at].label} (or {game.fmt(cost)} trading in a {gives}-train)")
    return out


def _train_offers(game: Game, entity: str) -> tuple[list[Choice], list[tuple[Train, int]]]:
    """The trains the corporation may buy at their price (one choice per kind and seller), and
    the bank trains it may get by trading one of its trains in, with that price (once per train
    it could trade in)."""
    rnd = _operating(game)
    if rnd is None or entity not in game.corporations:
        return [], []
    corp = game.corporations[entity]
    step = step_offering(rnd, entity, "buy_train")
    listed = step.buyable_trains() if step is not None else None
    if listed is not None:
        return (_step_train_choices(game, corp, listed),
                [(t, price) for t, price in game.exchange_options(corp) if price <= corp.cash and t in listed])
    if game.must_buy_train(corp) and game.needs_emergency_money(corp):
        # only the cheapest train from the bank, paid with the president's help
        t = game.cheapest_depot_train(corp)
        if t is not None and game.president_can_fund_train(corp):
            return [Choice(t.id, f"{t.name}-train from the bank, {_price_text(game, t)} (president helps)")], []
        return [], []
    out = []
    seen = set()
    room = game.room(corp)
    for t in game.buyable_depot_trains(corp):
        if (t.name, t.owner) in seen or t.price > corp.cash or not room:
            continue
        seen.add((t.name, t.owner))
        src = "the bank" if t.owner == "depot" else "the discard pile"
        out.append(Choice(t.id, f"{t.name}-train from {src}, {_price_text(game, t, corp.cash)}"
                                f"{_left(game, corp, t.price) if not game.train_variants(t) else ''}"))
    trades = [(t, price) for t, price in game.exchange_options(corp) if price <= corp.cash]
    if room and corp.cash >= 1:
        for t in game.other_corp_trains(corp):
            if (t.name, t.owner) not in seen:  # trains of one kind from one seller are alike
                seen.add((t.name, t.owner))
                span = agreed_price(game, corp, t)
                out.append(Choice(t.id, f"{t.name}-train from {t.owner}, "
                                        f"{span.text if span else game.fmt(t.price)}"))
    return out, trades


def exchange_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """Given a bank train, the corporation's trains it may trade in for it (one per kind, with
    what the trade-in costs), after ``none`` (its full price) when it can pay that."""
    corp = game.corporations.get(entity)
    if corp is None or not given.get("train") or _operating(game) is None:
        return []
    try:
        train = game.trains[train_id(game, str(given["train"]), entity)]
    except GameError:
        return []
    trade_ins = game.trade_ins(corp, train)
    if not trade_ins:
        return []
    out = []
    if train.price <= corp.cash or game.president_may_help_buy(corp, train):
        out.append(Choice("none", f"no trade-in: {train.name}-train for {game.fmt(train.price)}"))
    kinds = set()
    for own, cost in trade_ins.items():
        name = game.trains[own].name
        if cost <= corp.cash and name not in kinds:
            kinds.add(name)
            out.append(Choice(own, f"trade in its {name}-train {own}: {game.fmt(cost)}{_left(game, corp, cost)}"))
    return out


def train_id(g: Game, raw: str, e: str | None = None, action_type: str = "buy_train") -> str:
    """A train as typed: its id, or a train name ("3") for the next one in the bank."""
    if raw in g.trains:
        return raw
    chooser = {"buy_train": train_choices, "discard_train": discard_choices,
               "borrow_train": borrow_choices}[action_type]
    if e and action_type != "buy_train":  # a name: the entity's own train of that name it may discard/borrow
        own = chooser(g, e, {})
        named = [c.value for c in own if c.value in g.trains and g.trains[c.value].name.lower() == raw.lower()]
        if named:
            return named[0]
    for owner in ("depot", "discard"):
        for tid in g.train_order:
            t = g.trains[tid]
            if t.name.lower() == raw.lower() and t.owner == owner:
                return tid
    lowered = {t.lower(): t for t in g.trains}
    if raw.lower() in lowered:
        return lowered[raw.lower()]
    options = chooser(g, e, {}) if e else []
    offer = "; ".join(f"train:{c.value} ({c.label})" for c in options[:8])
    if any(t.name.lower() == raw.lower() for t in g.trains.values()):
        head, code = f"No {raw}-train is left in the bank", UNAVAILABLE
    else:
        head, code = f"There is no train {raw!r}", BAD_OPTION
    verb = "you can buy" if action_type == "buy_train" else "choose from"
    raise GameError(head + (f"; {verb}: {offer}" if offer else ""), code, option="train", value=raw)


def build_train(g: Game, e: str, p: Params) -> A.Action:
    tid = train_id(g, text(p, "train"), e)
    train = g.trains[tid]
    # 1833NE: a card from the bank is bought as one of its sides: the one named, else the one
    # at the price given, else the card's first side
    sides = dict(g.train_variants(train))
    price = number(p, "price") if p.get("price") else None
    if p.get("variant") and sides:
        variant = pick(p["variant"], list(sides), "side")
    else:
        variant = next((name for name, cost in sides.items() if cost == price), train.name)
    exchange = train_id(g, p["exchange"]) if p.get("exchange") and str(p["exchange"]).lower() != "none" else None
    corp = g.corporations.get(e)
    trade_ins = g.trade_ins(corp, train) if corp is not None else {}
    if price is None:
        if exchange is not None and exchange in trade_ins:
            price = trade_ins[exchange]  # the trade-in's price, as offered
        elif train.owner not in ("depot", "discard"):
            if corp is None or not g.face_value_only(corp, train):
                span = agreed_price(g, corp, train) if corp is not None else None
                agreed = f" at the price agreed, {span.text}" if span else ""
                raise GameError(f"Give price: to buy {tid} from {train.owner}{agreed}", BAD_OPTION, option="price")
            price = train.price  # (sold at face value only)
        else:
            price = sides.get(variant, train.price)
            if corp is not None and exchange is None and trade_ins and price > corp.cash \
                    and not g.president_may_help_buy(corp, train):
                own, cost = min(trade_ins.items(), key=lambda kv: kv[1])
                raise GameError(f"{corp.sym} cannot afford {tid} ({g.fmt(price)}); to trade in its "
                                f"{g.trains[own].name}-train for {g.fmt(cost)}: /train train:{tid} exchange:{own}",
                                CANNOT_AFFORD, corporation=corp.sym, train=tid, cost=price, cash=corp.cash)
    elif exchange is None and price in trade_ins.values() and price < train.price:
        exchange = next(own for own, cost in trade_ins.items() if cost == price)  # the trade-in at that price
    return A.BuyTrain(**base(g, e), train=tid, price=price, variant=variant, exchange=exchange)


def train_options(a: dict[str, Any]) -> dict[str, Any]:
    card = str(a["train"]).rsplit("-", 1)[0]
    variant = a.get("variant") if a.get("variant") != card else None  # 1833NE: the side bought
    return {"train": a["train"], "variant": variant, "price": a["price"], "exchange": a.get("exchange")}


def sample_train(game: Game, rng: random.Random, e: str) -> A.Action | None:
    corp = game.corporations[e]
    plain, trades = _train_offers(game, e)
    # each trade-in is one more offer (as many as the trains it could trade in)
    options = [(c.value, False) for c in plain] + [(t.id, True) for t, _ in trades]
    if not options:
        return None
    from_bank = [o for o in options if game.trains[o[0]].owner not in game.corporations]
    tid, trade = rng.choice(from_bank) if from_bank and rng.random() < 0.9 else rng.choice(options)
    train = game.trains[tid]
    if train.owner in game.corporations:
        return A.BuyTrain(**base(game, e), train=train.id, price=min(train.price, max(1, corp.cash)))
    if trade and (trade_ins := game.trade_ins(corp, train)):
        own, price = next(iter(trade_ins.items()))
        return A.BuyTrain(**base(game, e), train=train.id, price=price, exchange=own)
    return A.BuyTrain(**base(game, e), train=train.id, price=train.price)


def discard_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    if entity not in game.corporations:
        return []
    trains = list(game.corporations[entity].trains)
    rnd = _operating(game)
    for step in rnd.steps if rnd is not None else []:
        listed = step.discardable() if not step.passed and "discard_train" in step.actions(entity) else None
        if listed is not None:
            trains = listed
            break
    return [Choice(t, f"{game.trains[t].name}-train {t}") for t in trains]


def borrow_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    rnd = _operating(game)
    for step in rnd.steps if rnd is not None else []:
        if not step.passed and "borrow_train" in step.actions(entity):
            return [Choice(t, f"borrow the {game.trains[t].name}-train {t}") for t in step.borrowable()]
    return []


# ---------------------------------------------------------------------- privates, rights
def private_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    if entity not in game.corporations:
        return []
    corp = game.corporations[entity]
    out = []
    for c in game.purchasable_companies():
        lo, hi = game.company_min_price(c), game.company_max_price(c)
        if lo > corp.cash:
            continue
        top = f"{game.fmt(hi)}" if hi <= corp.cash else f"{game.fmt(corp.cash)} (all {entity} has)"
        owner = f"{game.name_of(c.owner)}'s, " if c.owner else ""
        prices = top if lo == min(hi, corp.cash) else f"{game.fmt(lo)}-{top}"  # (not "$10-$10")
        out.append(Choice(c.sym, f"{c.sym} - {c.name}, {owner}{prices}"))
    return out


def private_prices(game: Game, entity: str, given: Params) -> list[Choice]:
    """Given the private: its lowest and highest price the corporation can pay."""
    corp = game.corporations.get(entity)
    company = game.companies.get(given.get("company", ""))
    if corp is None or company is None:
        return []
    lo, hi = game.company_min_price(company), min(game.company_max_price(company), corp.cash)
    out = [Choice(str(lo), f"{game.fmt(lo)}, the lowest price{_left(game, corp, lo)}")] if lo <= hi else []
    if hi > lo:
        out.append(Choice(str(hi), f"{game.fmt(hi)}, the highest it can pay{_left(game, corp, hi)}"))
    return out


def sample_private(game: Game, rng: random.Random, e: str) -> A.Action | None:
    options = private_choices(game, e, {})
    if not options:
        return None
    c = rng.choice(options)
    comp = game.companies[c.value]
    lo = game.company_min_price(comp)
    hi = min(game.company_max_price(comp), game.corporations[e].cash)
    return A.BuyCompany(**base(game, e), company=c.value, price=rng.randint(lo, hi)) if hi >= lo else None


def right_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """What the corporation may buy besides trains and privates now: 1856 rights, 1833NE ferries."""
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    return [Choice(name, f"{name} for {game.fmt(game.right_cost)}{_left(game, corp, game.right_cost)}"
                   + (f": {effect}" if (effect := game.special_buy_effect(name)) else ""))
            for name in game.special_buys(corp)]


def sample_right(game: Game, rng: random.Random, e: str) -> A.Action | None:
    items = game.special_buys(game.corporations[e])
    return A.SpecialBuy(**base(game, e), description=items[0], cost=game.right_cost) if items else None


# ---------------------------------------------------------------------- a corporation's own shares
def redeem_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    market = [s.id for s in game.shares_of(POOL, corp.sym)]
    return [Choice(",".join(market[:n]), f"redeem {n} share{'s' if n > 1 else ''} for {game.fmt(money)}")
            for n, money in game.redeem_options(corp) if n <= len(market)]


def _own_shares(g: Game, e: str, raw: str, *, sell: bool) -> A.Action:
    ids = tuple(share_ids(g, raw, e if sell else POOL))  # its treasury, or the market
    percent = sum(g.shares[s].percent for s in ids)
    kind = A.SellShares if sell else A.BuyShares
    return kind(**base(g, e), shares=ids, percent=percent)


def merge_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    national = game.national_sym or "the national"
    return [Choice(sym, f"{sym} merges into {national}") for sym in game.nationalizables[:1]]


def build_merge(g: Game, e: str, p: Params) -> A.Action:
    corp = pick(p["corporation"], list(g.corporations), "corporation") if p.get("corporation") else None
    return A.Merge(**base(g, e), corporation=corp)


def build_takeover(g: Game, e: str, p: Params) -> A.Action:
    """1833NE takeover game: the target and how many of its own shares the acquirer pays with
    (the title registers the action type)."""
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    return A.Action.from_dict(
        {"type": "takeover", **base(g, e), "corporation": corp, "shares": number(p, "shares", default=0)})


def _confirm_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    return [Choice("yes", "yes, declare bankruptcy (it cannot be taken back)")]


def _build_bankrupt(g: Game, e: str, p: Params) -> A.Action:
    """Bankruptcy only when confirmed: one tap or word too many would end a player's game
    (in 1856 everyone's) for good."""
    if (p.get("confirm") or "").strip().lower() != "yes":
        raise GameError(f"Bankruptcy cannot be taken back ({g.BANKRUPTCY_MEANS}): to declare it, "
                        "type /bankrupt confirm:yes",
                        BAD_OPTION, option="confirm")
    return A.Bankrupt(**base(g, e))


def _simple(kind: type[A.Action]) -> Any:
    """The builder of an action without options."""
    return lambda g, e, p: kind(**base(g, e))


MOVES = (
    Move("routes", "run_routes", "run trains", '/routes routes:auto (or routes:"5-0: M4-M6-N7-N9-N11-O10-P9")',
         (Option("routes", 'routes like "5-0: M4-M6-N7-N9-N11-O10-P9; 2-0: F15-F17" (each train, then every hex'
                 ' its route runs through, in order, or the places by name), or auto, or none',
                 required=False, choices=route_choices),),
         build_routes, lambda a: {"routes": format_routes(a.get("routes") or []) or "none"}),
    Move("dividend", "dividend", "pay out or withhold", "/dividend kind:payout",
         (Option("kind", "payout or withhold", choices=dividend_choices),),
         build_dividend, lambda a: {"kind": a["kind"]}),
    Move("train", "buy_train", "buy a train", "/train train:3",
         (Option("train", "train", choices=train_choices),
          Option("variant", "side of a two-sided card (1833NE)", required=False, choices=train_choices),
          Option("price", "price (for a train from another corporation)", required=False, kind="number",
                 span=price_span),
          Option("exchange", "train to trade in (none: pay the full price)", required=False,
                 choices=exchange_choices)),
         build_train, train_options, sample=sample_train),
    Move("discard", "discard_train", "discard a train over the limit", "/discard train:2-0",
         (Option("train", "train", choices=discard_choices),),
         lambda g, e, p: A.DiscardTrain(**base(g, e), train=train_id(g, text(p, "train"), e, "discard_train")),
         lambda a: {"train": a["train"]}, ask_entity=True),
    Move("borrow", "borrow_train", "the national borrows a train for this run", "/borrow train:5-0",
         (Option("train", "train", choices=borrow_choices),),
         lambda g, e, p: A.BorrowTrain(**base(g, e), train=train_id(g, text(p, "train"), e, "borrow_train")),
         lambda a: {"train": a["train"]}),
    Move("loan", "take_loan", "take a loan", "/loan", (), _simple(A.TakeLoan), lambda a: {}),
    Move("repay", "payoff_loan", "pay off a loan", "/repay", (), _simple(A.PayoffLoan), lambda a: {}),
    Move("private", "buy_company", "buy a private company from a player", "/private company:GLSC price:100",
         (Option("company", "private company", choices=private_choices),
          Option("price", "price", kind="number", choices=private_prices)),
         lambda g, e, p: A.BuyCompany(**base(g, e), company=pick(text(p, "company"), list(g.companies),
                                                                 "private company"), price=number(p, "price")),
         lambda a: {"company": a["company"], "price": a["price"]}, sample=sample_private),
    Move("right", "special_buy", "buy a right (1856 tunnel/bridge) or a ferry (1833NE)", "/right right:tunnel",
         (Option("right", "which right or ferry", choices=right_choices),
          Option("cost", "cost", required=False, kind="number")),
         lambda g, e, p: A.SpecialBuy(**base(g, e), description=text(p, "right"), cost=number(p, "cost", default=0)),
         lambda a: {"right": a["description"], "cost": a.get("cost")}, sample=sample_right),
    Move("issue", "sell_shares", "issue treasury shares", "/issue shares:GW_5",
         (Option("shares", "shares to issue", choices=sell_choices),),
         lambda g, e, p: _own_shares(g, e, text(p, "shares"), sell=True),
         lambda a: {"shares": ",".join(a["shares"])}, entity_kind="corporation"),
    Move("redeem", "buy_shares", "redeem a share", "/redeem share:GW_5",
         (Option("share", "share to redeem", choices=redeem_choices),),
         lambda g, e, p: _own_shares(g, e, text(p, "share"), sell=False),
         lambda a: {"share": ",".join(a["shares"])}, entity_kind="corporation"),
    Move("merge", "merge", "merge into the national (1856)", "/merge",
         (Option("corporation", "corporation", required=False, choices=merge_choices),),
         build_merge, lambda a: {"corporation": a.get("corporation")},
         sample=lambda g, rng, e: A.Merge(**base(g, e), corporation=e)),
    Move("takeover", "takeover", "take over another corporation (1833NE)", "/takeover corporation:B&L shares:1",
         (Option("corporation", "corporation", choices=no_choices),
          Option("shares", "own treasury shares to pay with", required=False, kind="number", choices=no_choices)),
         build_takeover, lambda a: {"corporation": a["corporation"], "shares": a.get("shares")},
         entity_kind="corporation"),
    Move("accept", "accept_takeover", "accept the takeover offered (/pass refuses)", "/accept", (),
         lambda g, e, p: A.Action.from_dict({"type": "accept_takeover", **base(g, e)}), lambda a: {},
         entity_kind="corporation"),
    Move("bankrupt", "bankrupt", "declare bankruptcy", "/bankrupt confirm:yes",
         (Option("confirm", "yes: bankruptcy cannot be taken back", choices=_confirm_choices),),
         _build_bankrupt, lambda a: {"confirm": "yes"}),
)
