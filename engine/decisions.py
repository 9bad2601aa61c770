"""The current decision as choices: what the acting entity may pick for each action parameter.

One source of legality: every choice offered here is checked with the same functions that
validate a submitted action, so autocomplete, buttons and the random player never offer
something the engine would refuse (and never hide something it would accept).
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .choice import Choice as Choice  # re-exported: the front ends take choices from here
from .choice import ChoiceHandler
from .entities import Corporation, Train
from .errors import GameError
from .game import Game
from .operating import OperatingRound, Step
from .rounds import AuctionRound, StockRound


def choices_for(game: Game, entity: str, action_type: str, partial: dict[str, str] | None = None) -> list[Choice]:
    """Legal values for the next missing parameter of ``action_type`` by ``entity`` now."""
    partial = partial or {}
    if action_type not in game.action_types(entity):
        return []
    from .titles.registry import title_info

    general = _HANDLERS.get(action_type, _none)
    title_handler = title_info(game.title).choice_handlers.get(action_type)
    if title_handler is not None:
        return title_handler(game, entity, partial, general)
    return general(game, entity, partial)


# ---------------------------------------------------------------------- stock & auction


def _bid(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return []
    out = []
    for c in rnd.companies:
        if rnd.auctioning and c.sym != rnd.auctioning:
            continue
        low = rnd.min_bid(c.sym)
        if low <= rnd.max_bid(entity, c.sym):
            out.append(Choice(c.sym, f"{c.sym} - {c.name}, min {game.fmt(low)}"))
    return out


def _par(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    cash = game.player(entity).cash
    if "corporation" not in partial:
        return [Choice(c.sym, f"{c.sym} - {c.name}") for c in game.corporations.values()
                if game.can_par(entity, c) and any(cash >= p.price * 2 for p in game.market.par_prices)]
    corp = game.corporations.get(partial["corporation"])
    cells = game.par_prices(corp) if corp is not None else game.market.par_prices
    return [Choice(f"{cell.price},{cell.row},{cell.col}", f"{game.fmt(cell.price)} (costs {game.fmt(cell.price * 2)})")
            for cell in cells if cash >= cell.price * 2]


def _buy_shares(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    out = []
    for s in rnd.buyable_shares(entity):
        where = "IPO" if s.owner == s.corporation else "market"
        out.append(Choice(s.id, f"{s.corporation} {s.percent}% from the {where}, {game.fmt(rnd.share_price_for(s))}"))
    return out


def _sell_shares(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    rnd = game.round
    partial_ok = True  # may a sale end inside the president's certificate?
    if isinstance(rnd, StockRound):
        bundles = rnd.sellable_bundles(entity)
    elif isinstance(rnd, OperatingRound) and game.cash_crisis_player == entity:
        bundles = game.crisis_sellable(entity, need_limit=True)
        partial_ok = False
    elif isinstance(rnd, OperatingRound) and entity == rnd.corp.sym \
            and (issues := game.issue_choices(rnd.corp)) is not None:
        # 1833NE: the corporation issues treasury shares (normally, or in an emergency)
        return [Choice(",".join(ids), label) for ids, label in issues]
    elif isinstance(rnd, OperatingRound) and rnd.corp.president == entity:
        step = _step_offering(rnd, entity, "sell_shares")
        if step is None:
            return []
        # a title's train step may say itself what the president may sell (1856 family)
        own = step.sellable_bundles(entity)
        bundles = own if own is not None else game.emergency_sellable(rnd.corp)
        partial_ok = own is not None
    else:
        return []
    out = []
    for sym, percent in bundles:
        picked = pick_shares(game, entity, sym, percent)
        if not picked or game.national_falls_off_market(sym, percent):
            continue
        if not partial_ok and sum(game.share(s).percent for s in picked) != percent:
            continue
        price = game.corporations[sym].price
        value = game.shares_worth(sym, percent) if price else 0
        out.append(Choice(",".join(picked), f"{percent}% of {sym} for {game.fmt(value)}"))
    return out


def _step_offering(rnd: OperatingRound, entity: str, action_type: str) -> Step | None:
    """The open step that offers ``action_type`` to ``entity`` now (None if none does)."""
    for s in rnd.steps:
        if s.passed:
            continue
        if action_type in s.actions(entity):
            return s
        if s.blocking():
            return None
    return None


def pick_shares(game: Game, pid: str, sym: str, percent: int) -> list[str]:
    """Share ids making up ``percent`` of ``sym`` held by ``pid``: ordinary shares first, the
    president's certificate last (then only part of it may be sold)."""
    shares = sorted(game.shares_of(pid, sym), key=lambda s: (s.president, -s.index))
    picked, total = [], 0
    for s in shares:
        if total >= percent:
            break
        picked.append(s.id)
        total += s.percent
    return picked if total >= percent else []


# ---------------------------------------------------------------------- operating


def _op(game: Game) -> OperatingRound | None:
    return game.round if isinstance(game.round, OperatingRound) else None


def legal_tile_lays(game: Game, corp_sym: str, hexes: set[str] | None = None) -> dict[str, dict[str, list[int]]]:
    """{hex: {tile id: [rotations]}} the corporation may lay now (normal track lay), on ``hexes``
    only when given."""
    corp = game.corporations[corp_sym]
    rnd = game.round
    if isinstance(rnd, OperatingRound) and rnd.state.get("tiles_laid", 0) >= game.tile_lays_per_turn(corp):
        return {}
    b = game.board
    edges, _ = b.connectivity(corp_sym)
    out: dict[str, dict[str, list[int]]] = {}
    for hid in edges:
        if hexes is not None and hid not in hexes:
            continue
        h = b.hexes[hid]
        for name, ids in b.supply.items():
            if not ids:
                continue
            base = b.tile_for(name)
            if base.color not in game.phase["tiles"] or not game.upgrades_to(h, h.tile, base):
                continue  # rotation-independent checks first: most tiles stop here
            try:
                game.check_lay_static(corp, hid, ids[0])
            except GameError:
                continue
            rots = []
            for r in range(6):
                try:
                    game.check_lay_rotation(corp, hid, base.with_rotation(r))
                except GameError:
                    continue
                rots.append(r)
            if rots:
                out.setdefault(hid, {})[ids[0]] = rots
    return out


def _tile_label(game: Game, tile_id: str) -> str:
    name = tile_id.rsplit("-", 1)[0]
    t = game.board.tile_for(name)
    parts = []
    if t.cities:
        parts.append(f"{len(t.cities)} cit{'ies' if len(t.cities) > 1 else 'y'}")
    if t.towns:
        parts.append(f"{len(t.towns)} town{'s' if len(t.towns) > 1 else ''}")
    if not parts:
        parts.append("track")
    rev = next((n.revenue for n in t.nodes if isinstance(n.revenue, int) and n.revenue), None)
    label = f"{name} - {t.color} {', '.join(parts)}"
    return label + (f", {rev}" if rev else "")


def private_tile_lays(game: Game, company_sym: str) -> dict[str, dict[str, list[int]]]:
    """{hex: {tile id: [rotations]}} a private's tile-laying ability allows its owning
    corporation now (no connection needed; 1856 family)."""
    company = game.companies[company_sym]
    corp = game.corporations.get(company.owner or "")
    ab = company.ability("tile_lay") or company.ability("teleport")
    if corp is None or ab is None:
        return {}
    free = bool(ab.get("free")) and company.ability("tile_lay") is not None
    out: dict[str, dict[str, list[int]]] = {}
    for hid in ab.get("hexes", []):
        for name in ab.get("tiles", []):
            ids = game.board.supply.get(name)
            if not ids:
                continue
            tile_id = ids[0]
            rots = []
            for r in range(6):
                try:
                    game.check_lay_tile(game.corporations[corp.sym], hid, tile_id, r, free=free, connected=False)
                except GameError:
                    continue
                # a title may add its own conditions to a private's lay: try it (the trial
                # restores the game's state objects, so nothing is held across it)
                if game.accepts(A.LayTile(entity=company_sym, entity_type="company", hex=hid,
                                          tile=tile_id, rotation=r)):
                    rots.append(r)
            if rots:
                out.setdefault(hid, {})[tile_id] = rots
    return out


def _lay_tile(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if _op(game) is None:
        return []
    if entity in game.companies:
        lays = private_tile_lays(game, entity)
    elif entity in game.corporations:
        lays = legal_tile_lays(game, entity)
    else:
        return []
    if "hex" not in partial:
        return [Choice(h, f"{h} {game.board.hexes[h].location}".strip()) for h in sorted(lays)]
    tiles = lays.get(partial["hex"], {})
    if "tile" not in partial:
        return [Choice(t, _tile_label(game, t)) for t in sorted(tiles, key=lambda x: int(x.split("-")[0]) if x.split("-")[0].isdigit() else 0)]
    tile = partial["tile"]
    if "-" not in tile:  # a bare tile name: use the id we offered
        tile = next((t for t in tiles if t.rsplit("-", 1)[0] == tile), tile)
    return [Choice(str(r), f"rotation {r}") for r in tiles.get(tile, [])]


def city_id(game: Game, hex_id: str, node_index: int) -> str:
    """The 18xx.games id of a city: "<tile id>-<city position>" (a pre-printed tile's id is
    "<hex>-0")."""
    h = game.board.hexes[hex_id]
    pos = [c.index for c in h.tile.cities].index(node_index)
    return f"{h.tile_id or h.id + '-0'}-{pos}"


def _private_token(game: Game, company_sym: str) -> list[Choice]:
    """The cities where a private places its owning corporation's station (1856 WSRC, the
    1836Jr56 teleport station): a free space on the ability's hexes."""
    company = game.companies[company_sym]
    corp = game.corporations.get(company.owner or "")
    ab = company.ability("token") or company.ability("teleport")
    if corp is None or ab is None or corp.next_token() is None:
        return []
    candidates = []
    for hid in ab.get("hexes", []):
        h = game.board.hexes[hid]
        if h.tokened_by(corp.sym):
            continue
        candidates += [(city_id(game, hid, c.index), f"{hid} city {i + 1}")
                       for i, c in enumerate(h.tile.cities) if game.board.free_slots(h, c.index, corp.sym) > 0]
    return [Choice(cid, label) for cid, label in candidates
            if game.accepts(A.PlaceToken(entity=company_sym, entity_type="company", city=cid))]


def _assign(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    company = game.companies.get(entity)
    ab = company.ability("assign_hexes") if company else None
    if ab is None:
        return []
    return [Choice(h, f"{h} {game.board.hexes[h].location}".strip()) for h in ab.get("hexes", [])]


def _place_token(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if _op(game) is not None and entity in game.companies:
        return _private_token(game, entity)
    if _op(game) is None or entity not in game.corporations:
        return []
    corp = game.corporations[entity]
    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    pending = [p for p in game.pending_tokens if p[-1] == entity]
    if pending or rnd.state.get("home_pending"):
        hid: str | None = pending[0][1] if pending else corp.home
        owner = pending[0][0] if pending else entity
        if hid is None:
            return []
        h = game.board.hexes[hid]
        return [Choice(city_id(game, hid, c.index), f"{hid} city {i + 1}")
                for i, c in enumerate(h.tile.cities) if game.board.free_slots(h, c.index, owner) > 0]
    out = []
    for hid, ni in sorted(game.tokenable_cities(corp)):
        cost = game.token_cost(corp, hid) or 0  # a private may make one station free
        if cost <= corp.cash:  # else take a loan first, then the station becomes affordable
            out.append(Choice(city_id(game, hid, ni), f"{hid} {game.board.hexes[hid].location} ({game.fmt(cost)})".strip()))
    return out


def _remove_token(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    pending = game.token_removals
    if not pending:
        return []
    out = []
    for hid in pending[0]["hexes"]:
        h = game.board.hexes[hid]
        for ci, slots in h.tokens.items():
            if entity in slots:
                out.append(Choice(city_id(game, hid, ci), f"remove the {entity} station on {hid} {h.location}".strip()))
    return out


def _buy_train(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if _op(game) is None or entity not in game.corporations:
        return []
    corp = game.corporations[entity]
    if "train" in partial:
        return _train_variants(game, corp, partial["train"])
    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    step = _step_offering(rnd, entity, "buy_train")
    listed = step.buyable_trains() if step is not None else None
    if listed is not None:
        return _step_train_choices(game, corp, listed)
    emergency = game.must_buy_train(corp) and game.needs_emergency_money(corp)
    out = []
    seen = set()
    if emergency:
        # only the cheapest train from the bank, paid with the president's help
        t = game.cheapest_depot_train(corp)
        if t is not None and game.president_can_fund_train(corp):
            out.append(Choice(t.id, f"{t.name}-train from the bank, {_price_text(game, t)} (president helps)"))
        return out
    room = game.room(corp)
    for t in game.buyable_depot_trains(corp):
        if (t.name, t.owner) in seen or t.price > corp.cash or not room:
            continue
        seen.add((t.name, t.owner))
        src = "bank" if t.owner == "depot" else "discard pile"
        out.append(Choice(t.id, f"{t.name}-train from the bank ({src}), {_price_text(game, t)}"))
    for t, price in game.exchange_options(corp):
        if price <= corp.cash:
            out.append(Choice(f"{t.id}", f"{t.name}-train trading in, {game.fmt(price)}"))
    if room and corp.cash >= 1:
        for t in game.other_corp_trains(corp):
            out.append(Choice(t.id, f"{t.name}-train from {t.owner}, {game.fmt(1)}-{game.fmt(corp.cash)}"))
    return out


def _step_train_choices(game: Game, corp: Corporation, buyable: list[Train]) -> list[Choice]:
    """The trains a title's train step lists (1856 family), with what the buyer can pay: a
    bank train at its price (the cheapest one with the president's help when a train must be
    bought), another corporation's for $1 up to the treasury (at face value where the title
    says so), a trade-in at the reduced price."""
    out = []
    seen = set()
    cash = corp.cash
    cheapest = game.cheapest_depot_train(corp)
    pres_cash = game.player(corp.president).cash if corp.president else 0
    for t in buyable:
        if t.owner in ("depot", "discard"):
            if (t.name, t.owner) in seen:
                continue
            seen.add((t.name, t.owner))
            helped = game.must_buy_train(corp) and t is cheapest and t.price - cash <= pres_cash
            if t.price <= cash or helped:
                src = "bank" if t.owner == "depot" else "discard pile"
                note = " (president helps)" if t.price > cash else ""
                out.append(Choice(t.id, f"{t.name}-train from the bank ({src}), {_price_text(game, t)}{note}"))
        elif game.face_value_only(corp, t):
            if t.price <= cash:
                out.append(Choice(t.id, f"{t.name}-train from {t.owner}, {game.fmt(t.price)}"))
        elif cash >= 1:
            out.append(Choice(t.id, f"{t.name}-train from {t.owner}, {game.fmt(1)}-{game.fmt(cash)}"))
    for t, price in game.exchange_options(corp):
        if price <= cash and t in buyable:
            out.append(Choice(f"{t.id}", f"{t.name}-train trading in, {game.fmt(price)}"))
    return out


def _discard_train(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if entity not in game.corporations:
        return []
    trains = list(game.corporations[entity].trains)
    rnd = game.round
    for step in rnd.steps if isinstance(rnd, OperatingRound) else []:
        listed = step.discardable() if not step.passed and "discard_train" in step.actions(entity) else None
        if listed is not None:
            trains = listed
            break
    return [Choice(t, f"{game.trains[t].name}-train {t}") for t in trains]


def _borrow_train(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    rnd = game.round
    for step in rnd.steps if isinstance(rnd, OperatingRound) else []:
        if not step.passed and "borrow_train" in step.actions(entity):
            return [Choice(t, f"borrow the {game.trains[t].name}-train {t}") for t in step.borrowable()]
    return []


def _dividend(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if entity not in game.corporations:
        return []
    labels = {"payout": "pay out to shareholders", "withhold": "withhold in the treasury"}
    return [Choice(k, labels.get(k, k)) for k in game.dividend_kinds(game.corporations[entity])]


def _buy_company(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    if entity not in game.corporations:
        return []
    corp = game.corporations[entity]
    return [Choice(c.sym, f"{c.sym} - {c.name}, {game.fmt(game.company_min_price(c))}-{game.fmt(game.company_max_price(c))}")
            for c in game.purchasable_companies() if game.company_min_price(c) <= corp.cash]


def _price_text(game: Game, train: Train) -> str:
    """A bank train's price; for a two-sided card (1833NE) each side's ("3/5 $180 or 2+2 $140")."""
    sides = game.train_variants(train)
    if not sides:
        return game.fmt(train.price)
    return " or ".join(f"{name} {game.fmt(price)}" for name, price in sides)


def _train_variants(game: Game, corp: Corporation, train_id: str) -> list[Choice]:
    """1833NE two-sided cards: the sides of a bank train the corporation can pay for."""
    train = game.trains.get(train_id)
    if train is None:
        return []
    floor = game.side_floor(corp, train)  # 1833NE after an emergency issue
    return [Choice(name, f"{name} for {game.fmt(price)}") for name, price in game.train_variants(train)
            if floor <= price <= corp.cash]


def _special_buy(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    """What the corporation may buy besides trains and privates now: 1856 rights, 1833NE ferries."""
    corp = game.corporations.get(entity)
    if corp is None:
        return []
    return [Choice(name, name) for name in game.special_buys(corp)]


def _none(game: Game, entity: str, partial: dict[str, str]) -> list[Choice]:
    return []


_HANDLERS: dict[str, ChoiceHandler] = {
    "bid": _bid, "par": _par, "buy_shares": _buy_shares, "sell_shares": _sell_shares,
    "lay_tile": _lay_tile, "place_token": _place_token, "buy_train": _buy_train,
    "discard_train": _discard_train, "borrow_train": _borrow_train, "dividend": _dividend, "buy_company": _buy_company,
    "remove_token": _remove_token, "assign": _assign, "pass": _none, "take_loan": _none, "payoff_loan": _none, "run_routes": _none,
    "accept_takeover": _none, "special_buy": _special_buy,
}


def suggest_routes(game: Game, corp: str, *, time_budget: float = 1.0) -> list[dict[str, Any]]:
    """The optimizer's best routes for ``corp`` now, in the run_routes shape (may be empty);
    computed once per position (:func:`engine.router.cached_best_routes`)."""
    from .router import cached_best_routes

    return list(cached_best_routes(game, corp, time_budget=time_budget).routes)


# ---------------------------------------------------------------------- explanations
# Facts behind a refusal or a listing, for the front ends to put in words.


def track_exits(game: Game, hex_id: str, tile_id: str, rotation: int) -> list[str]:
    """The neighbouring hexes the track of ``tile_id`` laid on ``hex_id`` at ``rotation`` leads to."""
    h = game.board.hexes[hex_id]
    tile = game.board.tile_for(tile_id.rsplit("-", 1)[0]).with_rotation(rotation)
    return sorted({h.neighbors[e] for e in tile.exits if e in h.neighbors})


def share_blockers(game: Game, pid: str, sym: str) -> list[str]:
    """Why ``pid`` cannot buy a share of ``sym`` now (empty when one can be bought): the stock
    round's own reasons for the next IPO share and each market share."""
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return ["shares are bought in stock rounds"]
    corp = game.corporations[sym]
    if not corp.ipoed:
        return [f"{sym} has not been started yet"]
    ipo = [s for s in game.ipo_shares(sym) if not s.president][:1]
    candidates = ipo + game.pool_shares(sym)
    if not candidates:
        return [f"no share of {sym} is left in the IPO or the market"]
    reasons: list[str] = []
    for share in candidates:
        why = rnd.why_not_buy(pid, share)
        if why is None:
            return []
        if why not in reasons:
            reasons.append(why)
    return reasons


def round_title(game: Game, *, short: bool = False) -> str:
    """The round as 18xx.games names it: "Stock Round 2", "Operating Round 2.1 (of 2)"; short:
    "SR 2", "OR 2.1"."""
    rnd = game.round
    if rnd is None:
        return ""
    if isinstance(rnd, OperatingRound):
        if short:
            return f"OR {game.turn}.{game.round_num}"
        return f"Operating Round {game.turn}.{game.round_num} (of {game.operating_rounds_in_set})"
    if isinstance(rnd, StockRound):
        return f"SR {game.turn}" if short else f"Stock Round {game.turn}"
    if isinstance(rnd, AuctionRound):
        return "Auction" if short else "Auction Round"
    return f"{rnd.name} {game.turn}"
