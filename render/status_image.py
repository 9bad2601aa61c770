"""The game status as a PNG: a header (phase, bank, round), the players table, the
corporations table, the private companies, the trains still in the depot and, for a title
with values no source gives (1833NE), its table of provisional values."""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from engine.decisions import round_title, standing_bids
from engine.entities import POOL, Corporation, Train, listed
from engine.game import Game

from .draw import text_length, to_png
from .fonts import FontType, font
from .palette import BACKGROUND, INK, MUTED, corp_colors
from .table import Cell, CellLike, Table

MARGIN = 18
GAP = 22


def _money(game: Game, amount: int | float | None) -> str:
    return "" if amount is None else game.fmt(amount)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _corp_chip(corp: Corporation) -> Cell:
    fill, text = corp_colors(corp)
    return Cell(corp.sym, chip=fill, chip_text=text)


def _shown_corps(game: Game) -> list[Corporation]:
    """Corporations in play: started or priced and not closed, or held by a player."""
    return [corp for corp in game.corporations.values()
            if ((corp.ipoed or corp.price is not None) and not corp.closed)
            or any(game.percent_of(p.id, corp.sym) for p in game.players)]


def players_table(game: Game) -> Table:
    corps = _shown_corps(game)
    limit = game.cert_limit()
    headers = ["Player", "Cash", "Certs"] + [c.sym for c in corps] + ["Privates", "Value"]
    rows: list[list[CellLike]] = []
    for p in game.players:
        certs = game.num_certs(p.id)
        row: list[CellLike] = [
            Cell(p.name + (" (bankrupt)" if game.went_bankrupt(p.id) else ""), bold=True,
                 muted=game.went_bankrupt(p.id)),
            _money(game, p.cash),
            Cell(_num(certs) + (f"/{limit}" if limit else ""), bold=certs > limit),
        ]
        for corp in corps:
            pct = game.percent_of(p.id, corp.sym)
            pres = corp.president == p.id
            row.append(Cell(f"{pct}%" + ("P" if pres else "") if pct else "", bold=pres))
        row.append(", ".join(c for c in p.companies if not _company_closed(game, c)))
        row.append(Cell(_money(game, game.player_value(p)), bold=True))
        rows.append(row)
    align = "lrr" + "c" * len(corps) + "lr"
    return Table(headers, rows, align=align)


def _company_closed(game: Game, sym: str) -> bool:
    company = game.companies.get(sym)
    return company is not None and company.closed


def corporations_table(game: Game) -> Table:
    loans = game.HAS_LOANS  # 1833NE has none: no column
    goals = game.destination_goals()  # 1856 family: where each is headed (a play-tester missed it)
    headers = ["Corp", "President", "Cash", "Price", "Par", "Trains", *(["Loans"] if loans else []), "Tokens",
               game.IPO_NAME, "Pool", *(["Destination"] if goals else []), "Capital"]
    obsolete = game.obsolete_trains()  # 1833NE: trains that run once more, then go
    rows: list[list[CellLike]] = []
    closed: list[Cell] = []
    unstarted: list[Cell] = []
    for corp in game.corporations.values():
        started = corp.ipoed or corp.price is not None
        if corp.closed or not started:  # nothing of it in play: folded into one line under the rows
            (closed if corp.closed else unstarted).append(_corp_chip(corp))
            continue
        pres = game.player_by_id.get(corp.president) if corp.president is not None else None
        price, par = corp.price, corp.par
        trains = [_train_name(game, t) + (" (obsolete)" if t in obsolete else "") for t in corp.trains]
        tokens = corp.tokens
        left = sum(1 for t in tokens if not t.used)
        ipo = game.percent_of(corp.sym, corp.sym)
        pool = game.percent_of(POOL, corp.sym)
        cap = corp.capitalization or ""
        if corp.escrow:
            cap = f"{cap} {_money(game, corp.escrow)} held".strip()
        needed = game.float_percent()
        if corp.ipoed and not corp.closed and not game.floated(corp) and needed is not None:
            sold = 100 - ipo
            when = "floats when it first operates" if sold >= needed else f"floats at {needed}%"
            cap = f"{cap}, {when} ({sold}% sold)".strip(", ")
        rows.append([
            _corp_chip(corp),
            # no president: the certificate lies in the market (1833NE's receivership)
            Cell(pres.name) if pres else Cell("none" if corp.ipoed else "", muted=True),
            Cell(_money(game, corp.cash)),
            Cell(_money(game, price.price) if price else "", bold=bool(price)),
            Cell(_money(game, par.price) if par else ""),
            Cell(", ".join(trains), bold=True),
            *([Cell(str(corp.loans or ""))] if loans else []),
            Cell(f"{left}/{len(tokens)}" if tokens else ""),
            Cell(f"{ipo}%" if ipo else ""),
            Cell(f"{pool}%" if pool else ""),
            *([_destination(game, corp, goals.get(corp.sym, []))] if goals else []),
            Cell(cap),
        ])
    folds = [(label, chips) for label, chips in (("Closed:", closed), ("Not started:", unstarted)) if chips]
    return Table(headers, rows, align="llrrrl" + ("c" if loans else "") + "rrr" + ("l" if goals else "") + "l",
                 folds=folds)


def _destination(game: Game, corp: Corporation, goals: list[str]) -> Cell:
    """Where the corporation is headed ("Brantford J15"), or that it got there."""
    if not goals:
        return Cell("")
    if corp.destinated:
        return Cell("reached", muted=True)
    return Cell(" or ".join(game.place_first(h) for h in goals))


# what the Capital column's words mean (1856 family: the capitalization set at par by the era)
CAPITAL_NOTES = {
    "escrow": "escrow: par for the first 5 shares sold goes to the corporation, the rest is held until it "
              "reaches its destination",
    "incremental": "incremental: par for each share as it is sold",
    "full": "full: par for all 10 shares when it floats",
}


def corporation_notes(game: Game) -> list[str]:
    """Lines under the corporations: the kinds of capitalization shown, and floating."""
    kinds = [k for k in CAPITAL_NOTES if any(c.capitalization == k for c in game.corporations.values())]
    out = ["Capital: " + "; ".join(CAPITAL_NOTES[k] for k in kinds)] if kinds else []
    out.append("Tokens: stations still to place / all of its stations")
    needed = game.float_percent()
    if needed is not None:
        out.append(f"A corporation floats (operates) once {needed}% of its shares are sold")
    ports = port_note(game)
    return out + ([ports] if ports else [])


def port_note(game: Game) -> str | None:
    """How a port off-board pays (1836Jr56's Harwich, Dover and Paris): the map shows its values
    only, but it pays them for each station of the running corporation on the route, and the
    route needs other stops; None for a title without such ports."""
    hexes = game.rules.port_offboard_hexes
    if not hexes:
        return None
    values: dict[str, int] = {}
    for hid in hexes:
        for node in game.board.hexes[hid].tile.nodes:
            if isinstance(node.revenue, dict):
                values.update(node.revenue)
    pays = ", ".join(f"{game.fmt(v)} from the {c} phases" for c, v in values.items())
    others = game.rules.port_min_stops - 1
    return (f"Ports ({listed([game.place_first(h) for h in hexes])}): {pays}, for each station of the running "
            f"corporation on the route; a route to a port needs {others} other stops")


def player_notes(game: Game) -> list[str]:
    """Under the players: whose shares do not count toward the certificate limit (held ones,
    priced in a zone of the market without it), and what Value takes off for loans (1856),
    when it takes anything."""
    out = []
    free = [c.sym for c in _shown_corps(game)
            if any(s.owner in game.player_by_id and not game.counts_for_limit(s) for s in game.corp_shares(c.sym))]
    if free:
        out.append(f"Certs: the shares of {listed(free)} do not count (priced in a zone of the market "
                   "without a certificate limit)")
    charged = [(p.name, game.loan_charge(p)) for p in game.players]
    charged = [(name, amount) for name, amount in charged if amount]
    if charged:
        each = ", ".join(f"{name} {_money(game, -amount)}" for name, amount in charged)
        out.append(f"Value: cash, shares at their price and privates, less the loans of the corporations whose "
                   f"shares they hold ({each})")
    return out


def company_notes(game: Game) -> list[str]:
    """Each open private's ability, in its own words; one with none is left out unless its text
    says more (1836Jr56's ACC: "No special ability. Blocks hex D6 while owned by player.")."""
    return [f"{c.sym}: {c.desc}" for c in game.companies.values()
            if not c.closed and c.desc and not _says_nothing(c.desc)]


def _says_nothing(desc: str) -> bool:
    """ "No special abilities." and nothing else."""
    return re.fullmatch(r"no special abilit(y|ies)\.?", desc.strip().lower()) is not None


def _train_name(game: Game, tid: str) -> str:
    """The train's name now (a 1833NE card shows the side it was bought as)."""
    train = game.trains.get(tid)
    return train.name if train is not None and train.name else tid.rsplit("-", 1)[0]


def companies_table(game: Game) -> Table | None:
    companies = [c for c in game.companies.values() if not c.closed]
    if not companies:
        return None
    names = {p.id: p.name for p in game.players}
    bids = standing_bids(game)
    rows: list[list[CellLike]] = []
    for c in companies:
        high = bids.get(c.sym)
        bid = f"(bid {_money(game, high[1])}: {names.get(high[0], high[0])})" if high else "(for sale)"
        owner = names.get(c.owner, c.owner) if c.owner else bid
        income = game.company_income(c)  # (1833NE: a private flipped in phase III earns nothing)
        rows.append([Cell(c.sym, bold=True), c.name, Cell(owner or "", muted=not c.owner and not high), _money(game, c.value),
                     Cell(_money(game, income), muted=income != c.revenue)])
    return Table(["Private", "Name", "Owner", "Value", "Income"], rows, align="lllrr")


PROVISIONAL_TITLE = "Provisional values: set from your rulebook (host: /game rules)"


def provisional_table(game: Game) -> Table | None:
    """1833NE: the bonuses and ferry values no source gives, by phase, with where each comes
    from (rules summary, provisional, set by the host); the current phase in bold."""
    rows = game.provisional_rows()
    if not rows:
        return None
    phases = ["I", "II", "III", "IV", "V"]
    now = game.phase.get("name")
    cells: list[list[CellLike]] = []
    for what, *values, source in rows:
        cells.append([Cell(what, bold=True),
                      *(Cell(v, bold=p == now, muted=v in ("-", "0") and p != now)
                        for p, v in zip(phases, values, strict=True)),
                      Cell(source, muted=source != "provisional")])
    return Table(["Bonus / ferry", *phases, "Source"], cells, align="lrrrrrl")


def _train_groups(trains: list[Train]) -> list[list[Train]]:
    """Runs of trains of one name, in order."""
    groups: list[list[Train]] = []
    for t in trains:
        if groups and groups[-1][0].name == t.name:
            groups[-1].append(t)
        else:
            groups.append([t])
    return groups


def _train_price(game: Game, t: Train) -> str:
    sides = game.train_variants(t)  # 1833NE: a card's two sides and prices
    if sides:
        return " or ".join(f"{name} {_money(game, cost)}" for name, cost in sides)
    return _money(game, t.price)


def trains_line(game: Game) -> str:
    groups = _train_groups(game.upcoming_trains())
    parts = [f"{g[0].name} {'unlimited' if g[-1].unlimited else f'×{len(g)}'} ({_train_price(game, g[0])})"
             for g in groups]
    return "Depot: " + ("  ·  ".join(parts) if parts else "empty")


def market_trains_line(game: Game) -> str | None:
    """The trains in the open market (discarded, traded in, given back by the national), which a
    corporation buys from the bank at their price; None when there are none."""
    pool = [game.trains[t] for t in game.train_order if game.trains[t].owner == "discard"]
    if not pool:
        return None
    parts = [f"{g[0].name}-train{f' ×{len(g)}' if len(g) > 1 else ''} ({_train_price(game, g[0])})"
             for g in _train_groups(pool)]
    return "Open market (discarded trains, sold by the bank): " + "  ·  ".join(parts)


def _limit_text(game: Game, limit: int) -> str:
    """A corporation's own train limit: "3", or "no limit" for one no corporation could reach
    (1836Jr56's MESS: +99 until its first discard after forming, as 18xx.games has it)."""
    return "no limit" if limit >= len(game.trains) else str(limit)


def header_lines(game: Game) -> tuple[str, str]:
    phase = game.phase
    parts = [str(game.title)]
    if phase:
        parts.append(f"Phase {phase.get('name', '?')}")
        if "train_limit" in phase:
            limit = phase["train_limit"]
            # a corporation with a limit of its own (1856's national, 1833NE's after a takeover)
            own = [f"{c.sym} {_limit_text(game, game.stated_train_limit(c))}" for c in game.corporations.values()
                   if c.started and not c.closed and game.stated_train_limit(c) != limit]
            parts.append(f"train limit {limit}" + (f" ({', '.join(own)})" if own else ""))
        if phase.get("tiles"):
            parts.append("tiles " + "/".join(phase["tiles"]))
    sub = ["Bank broken" if game.bank < 0 else f"Bank {_money(game, game.bank)}"]  # not "Bank -$2013"
    rnd = round_title(game)  # as 18xx.games (and the bot's messages) name it: "Operating Round 2.1 (of 2)"
    if rnd:
        sub.append(rnd)
    if game.finished:
        sub.append("game over")
    return "  ·  ".join(parts), "  ·  ".join(sub)


def _wrap_lines(lines: list[str], f: FontType, width: int) -> list[str]:
    """``lines`` broken at spaces to fit ``width`` pixels (continuations indented)."""
    out: list[str] = []
    for line in lines:
        words, current = line.split(" "), ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if current and text_length(trial, f) > width:
                out.append(current)
                current = "    " + word
            else:
                current = trial
        out.append(current)
    return out


def render_status(game: Game) -> bytes:
    """PNG with the players, corporations, privates and depot of ``game``."""
    tables: list[tuple[str, Table, list[str]]] = [
        ("Players", players_table(game), player_notes(game)),
        ("Corporations", corporations_table(game), corporation_notes(game)),
    ]
    privates = companies_table(game)
    if privates is not None:
        tables.append(("Private companies", privates, company_notes(game)))
    provisional = provisional_table(game)
    if provisional is not None:
        tables.append((PROVISIONAL_TITLE, provisional, []))
    title, sub = header_lines(game)
    market = market_trains_line(game)
    depot = [trains_line(game), *([market] if market else [])]
    notes = game.status_notes()
    f_title, f_sub, f_sec, f_note = font(24, True), font(17), font(18, True), font(14)
    width = max([t.width() for _, t, _ in tables] + [int(text_length(title, f_title))]
                + [int(text_length(line, f_sub)) for line in (*depot, *notes)])
    wrapped = [_wrap_lines(lines, f_note, width) for _, _, lines in tables]
    width += 2 * MARGIN
    height = (MARGIN + 34 + 28 + 28 * (len(depot) + len(notes)) + sum(t.height() + 30 + GAP for _, t, _ in tables)
              + 20 * sum(len(w) for w in wrapped) + MARGIN)
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    y: float = MARGIN
    draw.text((MARGIN, y), title, font=f_title, fill=INK)
    y += 34
    draw.text((MARGIN, y), sub, font=f_sub, fill=INK)
    y += 28
    for line in (*depot, *notes):
        draw.text((MARGIN, y), line, font=f_sub, fill=MUTED)
        y += 28
    for (name, table, _), lines in zip(tables, wrapped, strict=True):
        y += GAP // 2
        draw.text((MARGIN, y), name, font=f_sec, fill=INK)
        y += 30
        y = table.draw(img, MARGIN, y)
        y += 4 if lines else 0
        for line in lines:
            draw.text((MARGIN, y), line, font=f_note, fill=MUTED)
            y += 20
        y += GAP // 2
    return to_png(img.crop((0, 0, width, min(height, int(y) + MARGIN))), palette=True)
