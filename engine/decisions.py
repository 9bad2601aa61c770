"""Facts about the current decision, computed with the same functions that validate a submitted
action: the tile lays a corporation or private may make, the step that offers an action, the
shares making up a sale, why a share cannot be bought, where a tile's track leads, the best
routes, the round's name. The legal choices of each command's options (:mod:`engine.moves`)
are built on them, so autocomplete, buttons and the random player never offer something the
engine would refuse (and never hide something it would accept).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import actions as A
from .choice import Choice as Choice  # re-exported: the front ends take choices from here
from .choice import per_position
from .errors import CANNOT_AFFORD, GameError
from .game import Game
from .map.board import IMPASSABLE_HEX_COLORS
from .map.hexgrid import hex_order
from .mechanics.track import WalkNeeded
from .rounds.operating import OperatingRound, Step, TrackStep
from .rounds.stock import AuctionRound, StockRound

if TYPE_CHECKING:
    from .entities import Share, Train
    from .map.board import HexState
    from .map.tiles import Tile
    from .routing.router import RouteSolution

# ---------------------------------------------------------------------- stock & auction


def standing_bids(game: Game) -> dict[str, tuple[str, int]]:
    """During the private auction: per private with bids, the highest bid standing (player
    id, amount), for the status and its picture."""
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return {}
    return {sym: max(bids, key=lambda b: b[1]) for sym, bids in rnd.bids.items() if bids}


def deciders(game: Game, acting: str) -> list[str]:
    """Who may act now besides the entity waited for: in an operating turn its president (a
    sale for a train, bankruptcy) and the privates it owns (their abilities)."""
    out = [acting]
    corp = game.corporations.get(acting)
    if corp is not None and isinstance(game.round, OperatingRound):
        if corp.president and corp.president not in out:
            out.append(corp.president)
        out += [c for c in sorted(corp.companies) if c in game.companies and not game.companies[c].closed]
    return out


def acting_entities(game: Game) -> list[str]:
    """``game.acting()``, asked once per position (:func:`per_position`): the reply, its buttons,
    the turn line and the command checks of one position all ask who acts."""
    return list(per_position(game, ("acting",), game.acting))


def action_types(game: Game, entity: str) -> list[str]:
    """``game.action_types(entity)``, asked once per position (:func:`per_position`): the
    commands, buttons and choices of one position all ask it."""
    return list(per_position(game, ("action_types", entity), lambda: game.action_types(entity)))


def buyable_shares(game: Game, pid: str) -> list[Share]:
    """The shares ``pid`` may buy now (the stock round's ``buyable_shares``), found once per
    position (:func:`per_position`): the buy menu and each of its entries ask."""
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    ids = per_position(game, ("buyable_shares", pid), lambda: tuple(s.id for s in rnd.buyable_shares(pid)))
    return [game.shares[i] for i in ids]  # (the game's objects now: a trial restores new ones)


def step_offering(rnd: OperatingRound, entity: str, action_type: str) -> Step | None:
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


def trains_lost_by_a_sale(game: Game, pid: str) -> list[Train]:
    """The trains the operating corporation may buy now that a sale of shares by its president
    ``pid`` for its train would take off the list (1856: once the president has sold, the train
    must come from the bank), as the train step lists them before and after a sale."""
    rnd = _op(game)
    step = step_offering(rnd, pid, "sell_shares") if rnd is not None else None
    if step is None:
        return []
    now, after = step.buyable_trains(), step.buyable_after_sale()
    if now is None or after is None:
        return []
    return [t for t in now if t not in after]


def legal_tile_lays(game: Game, corp_sym: str, hexes: set[str] | None = None) -> dict[str, dict[str, list[int]]]:
    """{hex: {tile id: [rotations]}} the corporation may lay now (normal track lay), on ``hexes``
    only when given; all of them are listed once per position (:func:`per_position`)."""
    if hexes is None:
        lays = per_position(game, ("tile_lays", corp_sym), lambda: _tile_lays(game, corp_sym, None))
        return {h: {t: list(r) for t, r in tiles.items()} for h, tiles in lays.items()}
    return _tile_lays(game, corp_sym, hexes)


def _phase_tiles(game: Game) -> list[tuple[str, Tile]]:
    """(first tile id, tile) of each tile left in supply whose colour the phase allows."""
    b, colors = game.board, game.phase["tiles"]
    return [(ids[0], base) for name, ids in b.supply.items() if ids and (base := b.tile_for(name)).color in colors]


def tile_lay_hexes(game: Game, corp_sym: str) -> list[str]:
    """The hexes of :func:`legal_tile_lays`, sorted: each hex is tried until its first legal lay
    (what the hex menus, ``/moves`` and the refusals need); once per position."""
    return list(per_position(game, ("tile_lay_hexes", corp_sym),
                             lambda: sorted(_tile_lays(game, corp_sym, None, first=True))))


def _tile_lays(game: Game, corp_sym: str, hexes: set[str] | None, *,
               first: bool = False) -> dict[str, dict[str, list[int]]]:
    """The legal lays on ``hexes`` (all hexes: None); with ``first``, only the first found on each."""
    corp = game.corporations[corp_sym]
    rnd = game.round
    if isinstance(rnd, OperatingRound) and rnd.state.get("tiles_laid", 0) >= game.tile_lays_per_turn(corp):
        return {}
    b = game.board
    edges, _ = b.connectivity(corp_sym)
    offered = _phase_tiles(game)
    out: dict[str, dict[str, list[int]]] = {}
    for hid in edges:
        if hexes is not None and hid not in hexes:
            continue
        h = b.hexes[hid]
        reach = game.hex_reach(corp, hid)
        fits = _fitting_rotations(game, h)
        # looking for the first lay only, the ones that need the network walked with the new
        # tile on the hex wait until every other lay there has been tried
        later: list[tuple[str, Tile]] = []
        for tile_id, base in offered:
            fitting = fits(base)
            if not fitting:
                continue  # most tiles stop here
            try:
                game.check_lay_static(corp, hid, tile_id, fitted=True)
            except GameError:
                continue
            rots = []
            for r in fitting:
                tile = base.with_rotation(r)
                try:
                    game.check_lay_rotation(corp, hid, tile, reach=reach, walk=not first, fitted=True)
                except WalkNeeded:
                    later.append((tile_id, tile))
                    continue
                except GameError:
                    continue
                rots.append(r)
                if first:
                    break
            if rots:
                out.setdefault(hid, {})[tile_id] = rots
                if first:
                    break
        if first and hid not in out:
            for tile_id, tile in later:
                try:
                    game.check_lay_rotation(corp, hid, tile, reach=reach, fitted=True)
                except GameError:
                    continue
                out[hid] = {tile_id: [tile.rotation]}
                break
    return out


# (game class, title data, optional rules) -> {(hex, whether laid, its tile and rotation, the
# phase): {a new tile: its rotations that may replace it}}: the same for every game of a title
_FITTING: dict[tuple[Any, ...], dict[tuple[str, bool, str, int, str], dict[str, tuple[int, ...]]]] = {}


def _fitting_rotations(game: Game, h: HexState) -> Callable[[Tile], tuple[int, ...]]:
    """The rotations of a new tile that may replace the tile on hex ``h`` whatever the network:
    an upgrade of it (``upgrades_to``) whose track stays on the map and keeps the old track
    (``check_lay_rotation``'s first checks, the ones most rotations fail). These depend only on
    the hex, the two tiles and the phase (and the title and its options), so they are worked out
    once for all games, and the listing does not check them again (``fitted``)."""
    old = h.tile
    key = (h.id, h.laid, old.name, old.rotation, str(game.phase["name"]))
    title = (type(game), game.data, tuple(game.optional_rules))
    known = _FITTING.setdefault(title, {}).setdefault(key, {})

    def fitting(new: Tile) -> tuple[int, ...]:
        rots = known.get(new.name)
        if rots is None:
            rotated = [new.with_rotation(r) for r in range(6)] if game.upgrades_to(h, old, new) else []
            rots = known[new.name] = tuple(
                t.rotation for t in rotated
                if all(e in h.neighbors for e in t.exits) and game.old_paths_preserved(old, t))
        return rots

    return fitting


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


def private_lay_obstacle(game: Game, company_sym: str) -> str | None:
    """Why a private's tile-laying ability lays nothing now, hex by hex: "no 59 tile left",
    "no tile of P3's fits C4, C6" (they have tiles its own do not upgrade), or the first refusal
    of a lay there; None when there is nothing to say."""
    company = game.companies[company_sym]
    corp = game.corporations.get(company.owner or "")
    ab = company.ability("tile_lay") or company.ability("teleport")
    if corp is None or ab is None:
        return None
    free = bool(ab.get("free")) and company.ability("tile_lay") is not None
    names = ab.get("tiles", [])
    left = [(name, game.board.supply[name][0]) for name in names if game.board.supply.get(name)]
    if names and not left:
        return f"no {' or '.join(names)} tile left"
    unfit: list[str] = []
    reasons: list[str] = []
    for hid in ab.get("hexes", []):
        fits = _fitting_rotations(game, game.board.hexes[hid])
        first: str | None = None
        for name, tile_id in left:
            if not fits(game.board.tile_for(name)):
                continue
            try:
                game.check_lay_static(corp, hid, tile_id, free=free)
            except GameError as err:
                first = first or f"tile {name} on {hid}: {_reason(err)}"
                continue
            first = None
            break
        else:
            if first is None:
                unfit.append(hid)
            elif first not in reasons:
                reasons.append(first)
    out = [f"no tile of {company_sym}'s fits {', '.join(unfit)}"] if unfit else []
    return "; ".join(out + reasons) or None


def _reason(err: GameError) -> str:
    """A lay's refusal without whose lay it was: its message after "B cannot lay tile 57 on H6: "."""
    return str(err).split(": ", 1)[-1]


def city_id(game: Game, hex_id: str, node_index: int) -> str:
    """The 18xx.games id of a city: "<tile id>-<city position>" (a pre-printed tile's id is
    "<hex>-0")."""
    h = game.board.hexes[hex_id]
    pos = [c.index for c in h.tile.cities].index(node_index)
    return f"{h.tile_id or h.id + '-0'}-{pos}"


def route_suggestion(game: Game, corp: str, *, time_budget: float = 1.0, wait: bool = True) -> RouteSolution | None:
    """The optimizer's answer for ``corp`` now (its routes, total, whether proven best),
    computed once per position; ``wait=False``: only an answer already computed (None if none),
    for callers that must not wait."""
    from .routing.cache import cached_best_routes, known_best_routes

    return cached_best_routes(game, corp, time_budget=time_budget) if wait else known_best_routes(game, corp)


def suggest_routes(game: Game, corp: str, *, time_budget: float = 1.0) -> list[dict[str, Any]]:
    """The optimizer's best routes for ``corp`` now, in the run_routes shape (may be empty);
    computed once per position (:func:`engine.routing.cache.cached_best_routes`)."""
    from .routing.cache import cached_best_routes

    return list(cached_best_routes(game, corp, time_budget=time_budget).routes)


# ---------------------------------------------------------------------- explanations
# Facts behind a refusal or a listing, for the front ends to put in words.


def distinct_rotations(game: Game, tile_id: str, rotations: list[int]) -> list[int]:
    """``rotations`` without those that lay the same track as an earlier one (a straight tile at
    rotation 2 and 5)."""
    base = game.board.tile_for(tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id)
    seen: set[frozenset[tuple[frozenset[int], tuple[tuple[str, int], ...]]]] = set()
    out = []
    for r in rotations:
        shape = frozenset(
            (frozenset(p.edges), tuple(sorted((e.kind, e.num) for e in p.ends if e.kind != "edge")))
            for p in base.with_rotation(r).paths
        )
        if shape not in seen:
            seen.add(shape)
            out.append(r)
    return out


def track_exits(game: Game, hex_id: str, tile_id: str, rotation: int) -> list[str]:
    """The neighbouring hexes the track of ``tile_id`` laid on ``hex_id`` at ``rotation`` leads to."""
    h = game.board.hexes[hex_id]
    tile = game.board.tile_for(tile_id.rsplit("-", 1)[0]).with_rotation(rotation)
    return sorted({h.neighbors[e] for e in tile.exits if e in h.neighbors})


def lay_cost(game: Game, corp: str, hex_id: str, tile_id: str, rotation: int) -> int:
    """What ``corp`` pays to lay ``tile_id`` on ``hex_id`` at ``rotation`` now (terrain; in
    1833NE at least $20, with the costed borders the new track completes)."""
    tile = game.board.tile_for(tile_id.rsplit("-", 1)[0]).with_rotation(rotation)
    return game.lay_cost(game.corporations[corp], hex_id, tile)


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


def sale_blockers(game: Game, pid: str, sym: str | None = None) -> list[str]:
    """Why ``pid`` cannot sell shares in this stock round (of ``sym``, or of any corporation;
    empty when some sale is allowed): the round's own reasons, one per kind."""
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    held = sorted({s.corporation for s in game.shares_of(pid)})
    if sym is not None:
        held = [c for c in held if c == sym]
        if not held:
            return [f"{game.name_of(pid)} holds no share of {sym}"]
    if not held:
        return [f"{game.name_of(pid)} holds no shares"]
    reasons: list[str] = []
    for c in held:
        why = rnd.why_not_sell(pid, c, game.share_unit(c))
        if why is None:
            return []
        if why not in reasons:
            reasons.append(why)
    return reasons


def why_not_now(game: Game, entity: str, action_type: str, sym: str | None = None) -> str | None:
    """Why ``entity`` may not take an action of ``action_type`` now, where the rules say a reason
    a player needs (a sale in the first stock round, a second loan, passing without a train; ``sym``:
    the corporation the command names); None when there is nothing more to say than "not now"."""
    rnd = game.round
    if isinstance(rnd, StockRound) and action_type == "sell_shares" and entity in game.player_by_id:
        return "; ".join(sale_blockers(game, entity, sym)) or None
    if isinstance(rnd, AuctionRound) and action_type == "bid" and entity in game.player_by_id:
        return bid_obstacle(game, entity)
    if isinstance(rnd, OperatingRound) and action_type == "lay_tile" and entity in game.companies \
            and not private_tile_lays(game, entity):
        return private_lay_obstacle(game, entity)
    if not isinstance(rnd, OperatingRound) or entity not in game.corporations:
        return None
    corp = game.corporations[entity]
    if action_type == "take_loan" and game.HAS_LOANS:
        return game.loan_blocker(rnd, corp)
    if action_type == "pass" and "buy_train" in action_types(game, entity) and game.must_buy_train(corp):
        return f"{corp.sym} has no train and must buy one"
    if action_type == "buy_train" and not game.room(corp):  # (this turn it buys none, whatever the step)
        return f"{corp.sym} owns as many trains as it may ({game.corp_train_limit(corp)})"
    step = rnd.active_step()
    # the track step waits for something to do first (a tile-laying private, 1833NE's money)
    waits = step.waits_for(entity) if isinstance(step, TrackStep) else []
    if waits and action_type == "lay_tile":
        return "first " + " or ".join(waits)
    if action_type == "lay_tile" and isinstance(step, TrackStep) and not tile_lay_hexes(game, entity):
        return lay_obstacles(game, entity)
    if action_type not in ("place_token", "buy_company", "buy_train") or action_type not in action_types(game, entity):
        return None  # (below: what the step offers, with nothing to choose)
    if action_type == "buy_train":
        offering = step_offering(rnd, entity, action_type)
        listed = offering.buyable_trains() if offering is not None else None
        pool = listed if listed is not None else game.buyable_depot_trains(corp) + game.other_corp_trains(corp)
        if corp.cash >= 1 and any(t.owner in game.corporations and not game.face_value_only(corp, t) for t in pool):
            return None  # (another corporation's train, at a price agreed)
        train = min(pool, key=lambda t: t.price, default=None)
        if train is None or train.price <= corp.cash:
            return None
        seller = ("the bank" if train.owner == "depot" else train.owner if train.owner in game.corporations
                  else "the discard pile")
        return (f"the cheapest train it may buy, a {train.name}-train from {seller}, costs {game.fmt(train.price)} "
                f"({corp.sym} has {game.fmt(corp.cash)})")
    pending = any(p[-1] == entity for p in game.pending_tokens) or rnd.state.get("home_pending")
    if action_type == "place_token" and not pending:
        return token_obstacles(game, entity)
    if action_type == "buy_company":
        for_sale = game.purchasable_companies()
        if not for_sale:
            return "no private company is for sale"
        cheapest = min(for_sale, key=game.company_min_price)
        low = game.company_min_price(cheapest)
        if low > corp.cash:
            return f"the cheapest private, {cheapest.sym}, costs {game.fmt(low)} or more ({corp.sym} has {game.fmt(corp.cash)})"
    return None


def bid_obstacle(game: Game, pid: str) -> str | None:
    """Why the player can bid on no private now, in a player's words: their cash is held for
    their standing bids ("Player 1's $500 is held for their bids: GLSC $295, SCFTC $130, TCC
    $75"), or the lowest bid is more than they have; None when they can bid."""
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return None
    open_ = [c.sym for c in rnd.companies if not rnd.auctioning or c.sym == rnd.auctioning]
    if not open_ or any(rnd.min_bid(sym) <= rnd.max_bid(pid, sym) for sym in open_):
        return None
    player = game.player(pid)
    mine = [(sym, price) for sym, bids in rnd.bids.items() for who, price in bids if who == pid]
    held = ", ".join(f"{sym} {game.fmt(price)}" for sym, price in mine)
    if mine and rnd.committed(pid) >= player.cash:
        return f"{game.name_of(pid)}'s {game.fmt(player.cash)} is held for their bids: {held}"
    low = min(open_, key=rnd.min_bid)
    free = game.fmt(player.cash - rnd.committed(pid))
    return (f"the lowest bid, on {low}, is {game.fmt(rnd.min_bid(low))} ({game.name_of(pid)} has {free}"
            + (f" beside their bids: {held})" if mine else ")"))


def token_obstacles(game: Game, corp_sym: str) -> str | None:
    """Why the corporation can place no station now, in a player's words: none left, no room
    where its track reaches, or "a station costs $40 in F15, F17 (LPS has $5)"; None when it can."""
    corp = game.corporations[corp_sym]
    if corp.next_token() is None:
        return f"{corp_sym} has no station left"
    cities = sorted(game.tokenable_cities(corp))
    if not cities:
        return f"no city {corp_sym}'s track reaches has room for its station"
    where: dict[int, list[str]] = {}  # cost -> hexes
    for hid, _ in cities:
        cost = game.token_cost(corp, hid) or 0
        if cost <= corp.cash:
            return None
        if hid not in where.setdefault(cost, []):
            where[cost].append(hid)
    costs = "; ".join(f"{game.fmt(cost)} in {', '.join(hexes)}" for cost, hexes in sorted(where.items()))
    return f"a station costs {costs} ({corp_sym} has {game.fmt(corp.cash)})"


_HEXES_NAMED = 6  # hexes named where no tile fits (then "and N more")


def lay_obstacles(game: Game, corp_sym: str) -> str | None:
    """Why no hex the corporation reaches takes a tile now, in a player's words: "no tile of this
    phase fits A9, A11, B10; B8 is blocked by E-SF; C9 costs $120 (NFL has $80)" (each hex
    with the first refusal its lays meet); None when it may lay somewhere."""
    corp = game.corporations[corp_sym]
    b = game.board
    edges, _ = b.connectivity(corp_sym)
    if not edges:
        return f"{corp_sym}'s track reaches no hex to build on"
    offered = _phase_tiles(game)
    unfit: list[str] = []
    refused: dict[str, list[str]] = {}  # reason -> hexes
    costs: list[str] = []
    for hid in sorted(edges, key=hex_order):
        fits = _fitting_rotations(game, b.hexes[hid])
        first: GameError | None = None
        for tile_id, base in offered:
            rotations = fits(base)
            if not rotations:
                continue
            try:
                game.check_lay_static(corp, hid, tile_id, fitted=True)
            except GameError as err:
                first = first or err
                continue
            for r in rotations:
                try:
                    game.check_lay_rotation(corp, hid, base.with_rotation(r), reach=game.hex_reach(corp, hid),
                                            fitted=True)
                except GameError as err:
                    first = first or err
                    continue
                return None  # (a lay fits after all)
        if first is None:
            if b.hexes[hid].tile.color not in IMPASSABLE_HEX_COLORS:  # (an off-board, a gray hex: never a tile)
                unfit.append(hid)
        elif first.code == CANNOT_AFFORD:
            costs.append(f"{hid} costs {game.fmt(first.facts.get('cost', 0))}")
        elif first.facts.get("blocker"):
            refused.setdefault(f"blocked by {first.facts['blocker']}", []).append(hid)
        else:
            refused.setdefault(_reason(first), []).append(hid)
    shown = ", ".join(unfit[:_HEXES_NAMED]) + (f" and {len(unfit) - _HEXES_NAMED} more" if len(unfit) > _HEXES_NAMED else "")
    parts = [f"no tile of this phase fits {shown}"] if unfit else []
    parts += [f"{', '.join(hexes)} {'is' if len(hexes) == 1 else 'are'} {why}" if why.startswith("blocked")
              else f"{', '.join(hexes)}: {why}" for why, hexes in refused.items()]
    if costs:
        parts.append(f"{', '.join(costs)} ({corp_sym} has {game.fmt(corp.cash)})")
    return "; ".join(parts) or None


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
