"""How each game-action command builds its engine action from the options typed: one function
per command of :data:`bot.play.ACTION_COMMANDS` (``bid``, ``par``, ``buy``, ... ``pass_``), each
``(game, entity, options) -> Action``, refusing options it cannot read with what to type instead.
Reading single options is :mod:`bot.action_params`; nothing here touches Discord or the store.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine import actions as A
from engine.decisions import (
    choices_for,
    pick_shares,
    share_blockers,
    suggest_routes,
)
from engine.game import Game
from engine.rounds import StockRound

from .action_params import entity_type, flag, number, pick, text
from .lay_text import only_rotation
from .reply import UserError
from .textcmd import CommandSyntaxError, parse_routes


def _base(game: Game, entity: str) -> dict[str, Any]:
    return {"entity": entity, "entity_type": entity_type(game, entity)}


# ---------------------------------------------------------------------- builders
def bid(g: Game, e: str, p: dict[str, str]) -> A.Action:
    company = pick(text(p, "company"), list(g.companies), "private company")
    return A.Bid(**_base(g, e), company=company, price=number(p, "price"))


def par_price_id(g: Game, raw: str) -> str:
    if "," in raw:
        try:
            g.market.cell_from_id(raw)
        except ValueError:
            raise UserError(f"{raw} is not a share price") from None
        return raw
    price = number({"price": raw}, "price")
    cell = g.market.par_cell(price)
    if cell is None:
        prices = ", ".join(str(c.price) for c in g.market.par_prices)
        raise UserError(f"{price} is not a par price; par prices: {prices}")
    return f"{cell.price},{cell.row},{cell.col}"


def par(g: Game, e: str, p: dict[str, str]) -> A.Action:
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    # 1833NE takeover game: a corporation without a home starts on a free city of its choice
    extra = {"home": pick(p["home"].upper(), list(g.board.hexes), "hex")} if p.get("home") else {}
    return A.Par(**_base(g, e), corporation=corp, share_price=par_price_id(g, text(p, "price")), extra=extra)


def _share_ids(g: Game, raw: str) -> list[str]:
    return [pick(s.strip(), list(g.shares), "share") for s in raw.split(",") if s.strip()]


def buy(g: Game, e: str, p: dict[str, str]) -> A.Action:
    raw = text(p, "share")
    if raw.lower() in {c.lower() for c in g.corporations}:
        sym = pick(raw, list(g.corporations), "corporation")
        buyable = g.round.buyable_shares(e) if isinstance(g.round, StockRound) else []
        options = [s for s in buyable if s.corporation == sym]
        if not options:
            raise UserError(f"No share of {sym} can be bought now: " + "; ".join(share_blockers(g, e, sym)))
        options.sort(key=lambda s: s.owner != s.corporation)  # the IPO first
        ids = [options[0].id]
    else:
        known = {s.lower() for s in g.shares}
        if any(s.strip().lower() not in known for s in raw.split(",") if s.strip()):
            raise UserError(
                f"There is no share {raw!r}: name a corporation, for example share:"
                f"{next(iter(g.corporations))}" + _buyable_text(g, e)
            )
        ids = _share_ids(g, raw)
    if len(ids) != 1:
        raise UserError("Buy one certificate at a time")
    return A.BuyShares(**_base(g, e), shares=tuple(ids), percent=g.shares[ids[0]].percent)


def _buyable_text(g: Game, e: str) -> str:
    """ "; buyable now: GW (IPO $80), LPS (market $65)" for the stock round."""
    rnd = g.round
    if not isinstance(rnd, StockRound):
        return ""
    seen: dict[str, str] = {}
    for s in rnd.buyable_shares(e):
        where = "IPO" if s.owner == s.corporation else "market"
        seen.setdefault(s.corporation, f"{s.corporation} ({where} {g.fmt(rnd.share_price_for(s))})")
    return "; buyable now: " + ", ".join(seen.values()) if seen else "; no share can be bought now"


def sell(g: Game, e: str, p: dict[str, str]) -> A.Action:
    percent = number(p, "percent", lo=1, hi=100) if p.get("percent") else None
    if p.get("shares"):
        ids = _share_ids(g, p["shares"])
    elif p.get("corporation"):
        sym = pick(p["corporation"], list(g.corporations), "corporation")
        if percent is None:
            raise UserError("Give percent: with corporation: (or name the shares:)")
        ids = pick_shares(g, e, sym, percent)
        if not ids:
            raise UserError(f"You do not hold {percent}% of {sym}")
    else:
        raise UserError("Give shares: (share ids, comma-separated) or corporation: and percent:")
    if not ids:
        raise UserError("Name at least one share")
    if percent is None:
        percent = sum(g.shares[s].percent for s in ids)
    return A.SellShares(**_base(g, e), shares=tuple(ids), percent=percent)


def pass_(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.Pass(**_base(g, e))


def lay(g: Game, e: str, p: dict[str, str]) -> A.Action:
    hex_id = pick(text(p, "hex").upper(), list(g.board.hexes), "hex")
    tile = text(p, "tile")
    name = tile.rsplit("-", 1)[0] if tile.count("-") else tile
    if "-" not in tile:
        supply = g.board.supply.get(tile, [])
        tile = sorted(supply)[0] if supply else tile
    elif tile not in g.board.supply.get(name, []):
        supply = g.board.supply.get(name, [])
        if not supply:
            raise UserError(f"There is no tile {name} left")
    if p.get("rotation"):
        rotation = number(p, "rotation", hi=5)
    else:
        rotation = only_rotation(g, e, hex_id, tile)
    return A.LayTile(**_base(g, e), hex=hex_id, tile=tile, rotation=rotation)


def token(g: Game, e: str, p: dict[str, str]) -> A.Action:
    city = text(p, "city")
    if city.upper() in g.board.hexes:  # a hex id: its only city
        h = g.board.hexes[city.upper()]
        if len(h.tile.cities) != 1:
            raise UserError(f"{h.id} has {len(h.tile.cities)} cities; pick one from the city: list")
        city = f"{h.tile_id or h.id + '-0'}-0"  # a pre-printed tile's id is "<hex>-0"
    slot = number(p, "slot", hi=10) if p.get("slot") else None
    return A.PlaceToken(**_base(g, e), city=city, slot=slot)


def routes(g: Game, e: str, p: dict[str, str]) -> A.Action:
    raw = (p.get("routes") or "").strip()
    if not raw or raw.lower() in ("auto", "suggested"):
        routes = suggest_routes(g, e)
    elif raw.lower() == "none":
        routes = []
    else:
        try:
            routes = parse_routes(raw)
        except CommandSyntaxError as exc:
            raise UserError(str(exc)) from None
        for r in routes:
            r["train"] = pick(r["train"], list(g.trains), "train")
            for chain in [*r["connections"], *r.get("extension", [])]:
                for h in chain:
                    pick(h, list(g.board.hexes), "hex")
    return A.RunRoutes(**_base(g, e), routes=tuple(routes))


def dividend(g: Game, e: str, p: dict[str, str]) -> A.Action:
    kinds = ["payout", "withhold"]
    if e in g.corporations:
        kinds = list(g.dividend_kinds(g.corporations[e]))
    kind = pick(text(p, "kind"), kinds, "dividend choice")
    return A.Dividend(**_base(g, e), kind=kind)


def _train_id(g: Game, raw: str, e: str | None = None, action_type: str = "buy_train") -> str:
    if raw in g.trains:
        return raw
    for owner in ("depot", "discard"):  # a train name ("3"): the next one in the bank
        for tid in g.train_order:
            t = g.trains[tid]
            if t.name.lower() == raw.lower() and t.owner == owner:
                return tid
    lowered = {t.lower(): t for t in g.trains}
    if raw.lower() in lowered:
        return lowered[raw.lower()]
    options = choices_for(g, e, action_type) if e else []
    offer = "; ".join(f"train:{c.value} ({c.label})" for c in options[:8])
    if any(t.name.lower() == raw.lower() for t in g.trains.values()):
        head = f"No {raw}-train is left in the bank"
    else:
        head = f"There is no train {raw!r}"
    raise UserError(
        head
        + (f"; {'you can buy' if action_type == 'buy_train' else 'choose from'}: {offer}" if offer else "")
    )


def train(g: Game, e: str, p: dict[str, str]) -> A.Action:
    tid = _train_id(g, text(p, "train"), e)
    train = g.trains[tid]
    # 1833NE: a card from the bank is bought as one of its sides: the one named, else the one
    # at the price given, else the card's first side
    sides = dict(g.train_variants(train))
    price = number(p, "price") if p.get("price") else None
    if p.get("variant") and sides:
        variant = pick(p["variant"], list(sides), "side")
    else:
        variant = next((name for name, cost in sides.items() if cost == price), train.name)
    if price is None:
        if train.owner not in ("depot", "discard"):
            raise UserError(f"Give price: to buy {tid} from {train.owner}")
        price = sides.get(variant, train.price)
    exchange = _train_id(g, p["exchange"]) if p.get("exchange") else None
    return A.BuyTrain(**_base(g, e), train=tid, price=price, variant=variant, exchange=exchange)


def discard(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.DiscardTrain(**_base(g, e), train=_train_id(g, text(p, "train"), e, "discard_train"))


def borrow(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.BorrowTrain(**_base(g, e), train=_train_id(g, text(p, "train"), e, "borrow_train"))


def remove(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.RemoveToken(**_base(g, e), city=text(p, "city"))


def loan(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.TakeLoan(**_base(g, e))


def repay(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.PayoffLoan(**_base(g, e))


def private(g: Game, e: str, p: dict[str, str]) -> A.Action:
    company = pick(text(p, "company"), list(g.companies), "private company")
    return A.BuyCompany(**_base(g, e), company=company, price=number(p, "price"))


def assign(g: Game, e: str, p: dict[str, str]) -> A.Action:
    target = pick(text(p, "target").upper(), list(g.board.hexes), "hex")
    return A.Assign(**_base(g, e), target=target, target_type="hex")


def right(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.SpecialBuy(**_base(g, e), description=text(p, "right"), cost=number(p, "cost", default=0))


def bankrupt(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.Bankrupt(**_base(g, e))


def merge(g: Game, e: str, p: dict[str, str]) -> A.Action:
    corp = pick(p["corporation"], list(g.corporations), "corporation") if p.get("corporation") else None
    return A.Merge(**_base(g, e), corporation=corp)


def takeover(g: Game, e: str, p: dict[str, str]) -> A.Action:
    """1833NE takeover game: the target and how many of its own shares the acquirer pays with
    (the title registers the action type)."""
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    return A.Action.from_dict(
        {"type": "takeover", **_base(g, e), "corporation": corp, "shares": number(p, "shares", default=0)}
    )


def accept(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.Action.from_dict({"type": "accept_takeover", **_base(g, e)})


def issue(g: Game, e: str, p: dict[str, str]) -> A.Action:
    ids = _share_ids(g, text(p, "shares"))
    return A.SellShares(**_base(g, e), shares=tuple(ids), percent=sum(g.shares[s].percent for s in ids))


def redeem(g: Game, e: str, p: dict[str, str]) -> A.Action:
    ids = _share_ids(g, text(p, "share"))
    return A.BuyShares(**_base(g, e), shares=tuple(ids), percent=sum(g.shares[s].percent for s in ids))


def autopass(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.ProgramSharePass(
        **_base(g, e), unconditional=flag(p, "unconditional"), indefinite=flag(p, "indefinite")
    )


def autobuy(g: Game, e: str, p: dict[str, str]) -> A.Action:
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    raw = text(p, "until")
    until: int | str = raw.lower() if raw.lower() == "float" else number(p, "until", lo=1, hi=100)
    action = A.ProgramBuyShares(
        **_base(g, e), corporation=corp, until_condition=until, from_market=bool(flag(p, "from_market"))
    )
    if flag(p, "auto_pass_after") is not None:
        action = dataclasses.replace(action, extra={"auto_pass_after": flag(p, "auto_pass_after")})
    return action


def autostop(g: Game, e: str, p: dict[str, str]) -> A.Action:
    return A.ProgramDisable(**_base(g, e), reason="user")
