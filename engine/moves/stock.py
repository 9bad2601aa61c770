"""Moves of the auction and the stock round: ``/bid``, ``/par``, ``/buy``, ``/sell``, ``/pass``
and the standing orders ``/autopass``, ``/autobuy``, ``/autostop``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from .. import actions as A
from ..choice import Choice
from ..decisions import buyable_shares, pick_shares, share_blockers, step_offering
from ..errors import BAD_OPTION, NOT_OWNER, UNAVAILABLE, GameError
from ..game import Game
from ..rounds.operating import OperatingRound
from ..rounds.stock import AuctionRound, StockRound
from .spec import Move, Option, Params, base, flag, no_choices, number, pick, text, yes

BID_STEPS = (0, 5, 10, 20, 50)
LABEL_MAX = 100  # a choice's words as Discord shows them at most (a menu item, an autocomplete answer)


# ---------------------------------------------------------------------- /bid
def bid_companies(game: Game, entity: str, given: Params) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return []
    out = []
    for c in rnd.companies:
        if rnd.auctioning and c.sym != rnd.auctioning:
            continue
        low = rnd.min_bid(c.sym)
        if low <= rnd.max_bid(entity, c.sym):
            price = f"buy for {game.fmt(low)}" if rnd.bought_outright(c.sym) else f"min {game.fmt(low)}"
            out.append(Choice(c.sym, f"{c.sym} - {c.name}, {price}"))
    return out


def bid_prices(game: Game, entity: str, given: Params) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, AuctionRound):
        return []
    syms = [c.sym for c in rnd.companies if not rnd.auctioning or c.sym == rnd.auctioning]
    if given.get("company"):
        try:
            syms = [pick(given["company"], syms, "private company")]
        except GameError:
            return []
    out = []
    for sym in syms:
        low, high = rnd.min_bid(sym), rnd.max_bid(entity, sym)
        if rnd.bought_outright(sym):  # bought at its price, never more
            if low <= high:
                out.append(Choice(str(low), f"{game.fmt(low)} for {sym} (its price: bought at once)"))
            continue
        for step in BID_STEPS if len(syms) == 1 else (0,):
            if low + step <= high:
                what = "the minimum" if step == 0 else f"minimum + {game.fmt(step)}"
                out.append(Choice(str(low + step), f"{game.fmt(low + step)} for {sym} ({what})"))
    return out


def outright_price(g: Game, e: str, p: Params) -> str | None:
    """The price of the private a bid buys at once (the cheapest, in 18xx.games' waterfall
    auction), when ``company:`` names it; None otherwise."""
    rnd = g.round
    if not isinstance(rnd, AuctionRound) or not p.get("company"):
        return None
    try:
        company = pick(text(p, "company"), [c.sym for c in rnd.companies], "private company")
    except GameError:
        return None
    return str(rnd.min_bid(company)) if rnd.bought_outright(company) else None


def build_bid(g: Game, e: str, p: Params) -> A.Action:
    company = pick(text(p, "company"), list(g.companies), "private company")
    return A.Bid(**base(g, e), company=company, price=number(p, "price"))


def sample_bid(game: Game, rng: random.Random, e: str) -> A.Action | None:
    options = bid_companies(game, e, {})
    rnd = game.round
    if not options or not isinstance(rnd, AuctionRound):
        return None
    cheapest = rnd.companies[0].sym if rnd.companies else None
    # most of the time take the private that can be bought outright (keeps auctions moving)
    c = next((o for o in options if o.value == cheapest), None) if rng.random() < 0.7 else None
    c = c or rng.choice(options)
    low = rnd.min_bid(c.value)
    high = min(rnd.max_bid(e, c.value), low + 30)
    return A.Bid(**base(game, e), company=c.value, price=rng.choice(range(low, high + 1, 5)))


# ---------------------------------------------------------------------- /par
def _home_and_goal(game: Game, home: str | None, goals: list[str]) -> str:
    """ ": home London F15, destination Detroit - Windsor A20": where a corporation starts and
    where it heads (what a player picks a corporation by)."""
    said = [f"home {game.place_first(home)}"] if home else []
    if goals:
        said.append(f"destination {' or '.join(game.place_first(g) for g in goals)}")
    return f": {', '.join(said)}" if said else ""


def par_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """The corporations the player may start, then (given one) its par prices they can pay."""
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    cash = game.player(entity).cash
    if "corporation" not in given:
        goals = game.destination_goals()
        out = []
        for c in game.corporations.values():
            if game.can_par(entity, c) and any(cash >= p.price * 2 for p in game.market.par_prices):
                where = _home_and_goal(game, c.home, goals.get(c.sym, []))
                label = f"{c.sym} - {c.name}{where}"
                out.append(Choice(c.sym, label if len(label) <= LABEL_MAX else f"{c.sym}{where}"))
        return out
    corp = game.corporations.get(given["corporation"])
    cells = game.par_prices(corp) if corp is not None else game.market.par_prices
    unique = [c.price for c in cells].count
    # a price is typed as the player reads it ("70"); the cell only where two share a price
    return [Choice(str(cell.price) if unique(cell.price) == 1 and game.market.par_cell(cell.price) == cell
                   else f"{cell.price},{cell.row},{cell.col}",
                   f"{game.fmt(cell.price)} (costs {game.fmt(cell.price * 2)}, leaves {game.fmt(cash - cell.price * 2)})")
            for cell in cells if cash >= cell.price * 2]


def par_price_id(g: Game, raw: str) -> str:
    """A par price as typed ("70") or as 18xx.games writes it ("70,0,4") -> the market cell id."""
    if "," in raw:
        try:
            g.market.cell_from_id(raw)
        except ValueError:
            raise GameError(f"{raw} is not a share price", BAD_OPTION, option="price", value=raw) from None
        return raw
    price = number({"price": raw}, "price")
    cell = g.market.par_cell(price)
    if cell is None:
        prices = ", ".join(str(c.price) for c in g.market.par_prices)
        raise GameError(f"{price} is not a par price; par prices: {prices}", BAD_OPTION, option="price", value=price)
    return f"{cell.price},{cell.row},{cell.col}"


def build_par(g: Game, e: str, p: Params) -> A.Action:
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    # 1833NE takeover game: a corporation without a home starts on a free city of its choice
    extra = {"home": pick(p["home"].upper(), list(g.board.hexes), "hex")} if p.get("home") else {}
    return A.Par(**base(g, e), corporation=corp, share_price=par_price_id(g, text(p, "price")), extra=extra)


def sample_par(game: Game, rng: random.Random, e: str) -> A.Action | None:
    corps = par_choices(game, e, {})
    if not corps:
        return None
    c = rng.choice(corps)
    # start a company only with money to follow it up (three times the president's cost)
    cash = game.player(e).cash
    prices = [p for p in par_choices(game, e, {"corporation": c.value}) if int(p.value.split(",")[0]) * 6 <= cash]
    if not prices:
        return None
    return A.Par(**base(game, e), corporation=c.value, share_price=par_price_id(game, rng.choice(prices).value))


# ---------------------------------------------------------------------- /buy
def buy_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    rnd = game.round
    if not isinstance(rnd, StockRound):
        return []
    out = []
    ipo = "IPO" if game.IPO_NAME == "IPO" else game.IPO_NAME.lower()  # 1833NE: the treasury
    for s in buyable_shares(game, entity):
        from_ipo = s.owner == s.corporation
        where = ipo if from_ipo else "market"
        # typed as players say it: "GW" (from the IPO first), "GW market"
        value = s.corporation if from_ipo else f"{s.corporation} market"
        out.append(Choice(value, f"{s.corporation} {s.percent}% from the {where}, {game.fmt(rnd.share_price_for(s))}"))
    return out


def share_ids(g: Game, raw: str, holder: str | None = None) -> list[str]:
    """Share ids as typed (comma-separated); an unknown one is refused listing ``holder``'s shares."""
    mine = [s.id for s in g.shares.values() if s.owner == holder] if holder is not None else None
    return [pick(s.strip(), list(g.shares), "share", mine) for s in raw.split(",") if s.strip()]


def _buyable_text(g: Game, e: str) -> str:
    """ "; buyable now: GW (IPO $80), LPS (market $65)" for the stock round."""
    rnd = g.round
    if not isinstance(rnd, StockRound):
        return ""
    seen: dict[str, str] = {}
    for s in buyable_shares(g, e):
        where = "IPO" if s.owner == s.corporation else "market"
        seen.setdefault(s.corporation, f"{s.corporation} ({where} {g.fmt(rnd.share_price_for(s))})")
    return "; buyable now: " + ", ".join(seen.values()) if seen else "; no share can be bought now"


def build_buy(g: Game, e: str, p: Params) -> A.Action:
    raw = text(p, "share")
    words = raw.split()
    source = words[1].lower() if len(words) == 2 and words[1].lower() in ("market", "ipo", "treasury") else None
    if source is not None:
        raw = words[0]
    if raw.lower() in {c.lower() for c in g.corporations}:
        sym = pick(raw, list(g.corporations), "corporation")
        buyable = buyable_shares(g, e)
        options = [s for s in buyable if s.corporation == sym
                   and (source is None or (s.owner == s.corporation) == (source != "market"))]
        if not options:
            raise GameError(f"No share of {sym} can be bought now: " + "; ".join(share_blockers(g, e, sym)),
                            UNAVAILABLE, corporation=sym)
        options.sort(key=lambda s: s.owner != s.corporation)  # the IPO first
        ids = [options[0].id]
    else:
        known = {s.lower() for s in g.shares}
        if any(s.strip().lower() not in known for s in raw.split(",") if s.strip()):
            raise GameError(f"There is no share {raw!r}: name a corporation, for example share:"
                            f"{next(iter(g.corporations))}" + _buyable_text(g, e), BAD_OPTION, option="share")
        ids = share_ids(g, raw)
    if len(ids) != 1:
        raise GameError("Buy one certificate at a time", BAD_OPTION, option="share")
    return A.BuyShares(**base(g, e), shares=tuple(ids), percent=g.shares[ids[0]].percent)


def sample_buy(game: Game, rng: random.Random, e: str) -> A.Action | None:
    options = buy_choices(game, e, {})
    if not options:
        return None
    return build_buy(game, e, {"share": rng.choice(options).value})


# ---------------------------------------------------------------------- /sell (and /issue's choices)
def sell_choices(game: Game, entity: str, given: Params) -> list[Choice]:
    """The bundles the entity may sell now: a player in a stock round, in a cash crisis, or for
    its corporation's train; a corporation issuing its treasury shares (1833NE)."""
    rnd = game.round
    partial_ok = True  # may a sale end inside the president's certificate?
    if isinstance(rnd, StockRound):
        bundles = rnd.sellable_bundles(entity)
    elif isinstance(rnd, OperatingRound) and game.cash_crisis_player == entity:
        bundles = game.crisis_sellable(entity)
        partial_ok = False
    elif isinstance(rnd, OperatingRound) and entity == rnd.corp.sym \
            and (issues := game.issue_choices(rnd.corp)) is not None:
        # 1833NE: the corporation issues treasury shares (normally, or in an emergency)
        return [Choice(",".join(ids), label) for ids, label in issues]
    elif isinstance(rnd, OperatingRound) and rnd.corp.president == entity:
        step = step_offering(rnd, entity, "sell_shares")
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
        ids = ",".join(picked)
        if sum(game.share(s).percent for s in picked) != percent:
            ids += f" {percent}%"  # part of the president's certificate: the percent sold says how much
        label = f"{percent}% of {sym} for {game.fmt(value)}"
        if price is not None:
            label += f" → {sale_price_effect(game, entity, sym, percent)}"
        if game.corporations[sym].president == entity and (new := game.president_after_sale(sym, entity, percent)):
            label += f" ({game.name_of(new)} becomes president)"
        out.append(Choice(ids, label))
    return out


def sale_price_effect(game: Game, pid: str, sym: str, percent: int) -> str:
    """What ``pid``'s sale of ``percent`` of ``sym`` does to its share price: "price falls from
    $90 to $70", "price stays at $90", "GW closes" (:meth:`Game.price_after_sale`: the title's
    own rule, as the sale moves it, without trying the sale)."""
    corp = game.corporations[sym]
    now, after = corp.price, game.price_after_sale(corp, pid, percent)
    if now is None or after is None:
        return "price stays"
    if "close" in after.types:
        return f"{sym} closes"
    if after.price == now.price:
        return f"price stays at {game.fmt(now.price)}"
    return (f"price {'falls' if after.price < now.price else 'rises'} from {game.fmt(now.price)} "
            f"to {game.fmt(after.price)}")


def shares_typed(raw: str) -> tuple[str, int | None]:
    """The share ids of a ``shares:`` value and the percent after them (``CV_0 10%``), if any."""
    head, _, last = raw.strip().rpartition(" ")
    if head and last.endswith("%") and last[:-1].isdigit():
        return head, int(last[:-1])
    return raw, None


def sale_of(game: Game, value: str) -> tuple[tuple[str, ...], int]:
    """The shares and percent a :func:`sell_choices` value sells."""
    raw, typed = shares_typed(value)
    ids = tuple(raw.split(","))
    return ids, typed if typed is not None else sum(game.shares[s].percent for s in ids)


def build_sell(g: Game, e: str, p: Params) -> A.Action:
    percent = number(p, "percent", lo=1, hi=100) if p.get("percent") else None
    if p.get("shares"):
        raw, typed = shares_typed(str(p["shares"]))
        if typed is not None and percent is not None and typed != percent:
            raise GameError(f"shares: says {typed}% and percent: {percent}%", BAD_OPTION, option="percent")
        percent = typed if typed is not None else percent
        ids = share_ids(g, raw, e)
        others = [s for s in ids if g.shares[s].owner != e]
        if others:
            sym = g.shares[others[0]].corporation
            held = [s.id for s in g.corp_shares(sym) if s.owner == e]
            raise GameError(f"{g.name_of(e)} does not own {', '.join(others)}; "
                            + (f"{g.name_of(e)}'s shares of {sym}: {', '.join(held)} (or /sell corporation:{sym}"
                               f" percent:{g.share_unit(sym)})" if held else f"{g.name_of(e)} holds no share of {sym}"),
                            NOT_OWNER, player=e, shares=others)
    elif p.get("corporation"):
        sym = pick(p["corporation"], list(g.corporations), "corporation")
        if percent is None:
            raise GameError("Give percent: with corporation: (or name the shares:)", BAD_OPTION, option="percent")
        ids = pick_shares(g, e, sym, percent)
        if not ids:
            raise GameError(f"You do not hold {percent}% of {sym}", BAD_OPTION, option="percent")
    else:
        raise GameError("Give shares: (share ids, comma-separated) or corporation: and percent:",
                        BAD_OPTION, option="shares")
    if not ids:
        raise GameError("Name at least one share", BAD_OPTION, option="shares")
    if percent is None:
        percent = sum(g.shares[s].percent for s in ids)
    return A.SellShares(**base(g, e), shares=tuple(ids), percent=percent)


def sample_sell(game: Game, rng: random.Random, e: str) -> A.Action | None:
    options = sell_choices(game, e, {})
    if isinstance(game.round, StockRound):
        # (the random player keeps to ordinary shares in a stock round when it can, as when those
        # were all that was offered there: the seeded random games of the tests stay the same)
        options = [c for c in options
                   if not any(game.shares[s].president for s in sale_of(game, c.value)[0])] or options
    if not options:
        return None
    ids, percent = sale_of(game, rng.choice(options).value)
    return A.SellShares(**base(game, e), shares=ids, percent=percent)


def sell_options(a: dict[str, Any]) -> dict[str, Any]:
    return {"shares": ",".join(a["shares"]), "percent": a.get("percent")}


# ---------------------------------------------------------------------- standing orders
def autobuy_corporations(game: Game, entity: str, given: Params) -> list[Choice]:
    return [Choice(c.sym, f"{c.sym} - {c.name}") for c in game.corporations.values() if c.ipoed and not c.closed]


def autobuy_until(game: Game, entity: str, given: Params) -> list[Choice]:
    limit = game.HOLDING_LIMIT
    return [Choice("float", "until it floats"),
            *(Choice(str(p), f"until holding {p}%") for p in range(20, limit + 1, 10))]


def build_autobuy(g: Game, e: str, p: Params) -> A.Action:
    corp = pick(text(p, "corporation"), list(g.corporations), "corporation")
    raw = text(p, "until")
    until: int | str = raw.lower() if raw.lower() == "float" else number(p, "until", lo=1, hi=100)
    action = A.ProgramBuyShares(**base(g, e), corporation=corp, until_condition=until,
                                from_market=bool(flag(p, "from_market")))
    if flag(p, "auto_pass_after") is not None:
        action = dataclasses.replace(action, extra={"auto_pass_after": flag(p, "auto_pass_after")})
    return action


MOVES = (
    Move("bid", "bid", "bid for (or buy) a private company", "/bid company:GLSC price:75",
         (Option("company", "private company", choices=bid_companies),
          Option("price", "your bid; none to buy the cheapest private at its price", kind="number",
                 choices=bid_prices, default=outright_price)),
         build_bid, lambda a: {"company": a["company"], "price": a["price"]}, sample=sample_bid),
    Move("par", "par", "start a corporation at a par price", "/par corporation:GW price:70",
         (Option("corporation", "corporation to start", choices=par_choices),
          Option("price", "par price", choices=par_choices),
          Option("home", "home city (1833NE takeover corporations)", required=False, choices=no_choices)),
         build_par,
         lambda a: {"corporation": a["corporation"], "price": str(a["share_price"]).split(",")[0],
                    "home": a.get("home")},
         sample=sample_par),
    Move("buy", "buy_shares", "buy a share", "/buy share:GW",
         (Option("share", "share to buy (or a corporation)", choices=buy_choices),),
         build_buy, lambda a: {"share": ",".join(a["shares"])}, entity_kind="player", sample=sample_buy),
    Move("sell", "sell_shares", "sell shares", "/sell corporation:GW percent:20",
         (Option("shares", "shares to sell", required=False, choices=sell_choices),
          Option("corporation", "or a corporation, with percent:", required=False),
          Option("percent", "how much of it to sell, in percent", required=False, kind="number")),
         build_sell, sell_options, entity_kind="player", sample=sample_sell),
    Move("pass", "pass", "pass (or finish your turn / this step)", "/pass", (),
         lambda g, e, p: A.Pass(**base(g, e)), lambda a: {}, ask_entity=True),
    Move("autopass", "program_share_pass", "pass automatically in stock rounds", "/autopass indefinite:yes",
         (Option("unconditional", "even if others act (yes/no)", required=False, kind="flag"),
          Option("indefinite", "in later stock rounds too (yes/no)", required=False, kind="flag")),
         lambda g, e, p: A.ProgramSharePass(**base(g, e), unconditional=flag(p, "unconditional"),
                                            indefinite=flag(p, "indefinite")),
         lambda a: {"unconditional": yes(a.get("unconditional")), "indefinite": yes(a.get("indefinite"))},
         entity_kind="player", any_time=True),
    Move("autobuy", "program_buy_shares", "buy shares automatically", "/autobuy corporation:GW until:float",
         (Option("corporation", "corporation", choices=autobuy_corporations),
          Option("until", "percent to reach, or float", choices=autobuy_until),
          Option("from_market", "also from the market (yes/no)", required=False, kind="flag"),
          Option("auto_pass_after", "pass after (yes/no)", required=False, kind="flag")),
         build_autobuy,
         lambda a: {"corporation": a["corporation"], "until": a["until_condition"],
                    "from_market": yes(a.get("from_market")), "auto_pass_after": yes(a.get("auto_pass_after"))},
         entity_kind="player", any_time=True),
    Move("autostop", "program_disable", "cancel your automatic stock-round moves", "/autostop", (),
         lambda g, e, p: A.ProgramDisable(**base(g, e), reason="user"), lambda a: {},
         entity_kind="player", any_time=True),
)
