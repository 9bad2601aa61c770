"""The game status as a PNG: a header (phase, bank, round), the players table, the
corporations table, the private companies, the trains still in the depot and, for a title
with values no source gives (1833NE), its table of provisional values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from engine.decisions import round_title

from .draw import to_png
from .fonts import font
from .palette import BACKGROUND, INK, MUTED, contrast, rgb
from .table import Cell, Table

MARGIN = 18
GAP = 22


def _safe(fn: Callable[[], Any], default: Any = None) -> Any:
    """The engine is still growing: a missing helper must not break the picture."""
    try:
        return fn()
    except Exception:  # noqa: BLE001
        return default


def _money(game: Any, amount: Any) -> str:
    if amount is None:
        return ""
    return str(_safe(lambda: game.fmt(amount), f"${amount}"))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _corp_chip(corp: Any) -> Cell:
    fill = rgb(getattr(corp, "color", None))
    text = rgb(getattr(corp, "text_color", None), contrast(fill))
    if abs(sum(text) - sum(fill)) < 150:
        text = contrast(fill)
    return Cell(corp.sym, chip=fill, chip_text=text)


def _round_name(game: Any) -> str:
    """The round as 18xx.games (and the bot's messages) name it: "Operating Round 2.1 (of 2)"."""
    if getattr(game, "round", None) is None:
        return ""
    return str(_safe(lambda: round_title(game), ""))


def _shown_corps(game: Any) -> list[Any]:
    corps = list((getattr(game, "corporations", None) or {}).values())
    players = getattr(game, "players", [])
    shown = []
    for corp in corps:
        held = any(_safe(lambda c=corp, p=p: game.percent_of(p.id, c.sym), 0) for p in players)
        if getattr(corp, "ipoed", False) or held or getattr(corp, "price", None) is not None:
            shown.append(corp)
    return shown


def players_table(game: Any) -> Table:
    corps = _shown_corps(game)
    limit = _safe(game.cert_limit, None)
    if not isinstance(limit, (int, float)):
        limit = None  # e.g. a title whose limit depends on more than the player count
    headers = ["Player", "Cash", "Certs"] + [c.sym for c in corps] + ["Privates", "Value"]
    rows: list[list[Any]] = []
    for p in getattr(game, "players", []):
        certs = _safe(lambda p=p: game.num_certs(p.id), None)
        cert_text = "" if certs is None else _num(certs) + (f"/{limit}" if limit else "")
        over = certs is not None and limit is not None and certs > limit
        row: list[Any] = [
            Cell(p.name + (" (bankrupt)" if getattr(p, "bankrupt", False) else ""), bold=True,
                 muted=getattr(p, "bankrupt", False)),
            _money(game, p.cash),
            Cell(cert_text, bold=over),
        ]
        for corp in corps:
            pct = _safe(lambda c=corp, p=p: game.percent_of(p.id, c.sym), 0) or 0
            pres = getattr(corp, "president", None) == p.id
            row.append(Cell(f"{pct}%" + ("P" if pres else "") if pct else "", bold=pres))
        companies = [c for c in getattr(p, "companies", []) if not _company_closed(game, c)]
        row.append(", ".join(companies))
        row.append(Cell(_money(game, _safe(lambda p=p: game.player_value(p), p.cash)), bold=True))
        rows.append(row)
    align = "lrr" + "c" * len(corps) + "lr"
    return Table(headers, rows, align=align)


def _company_closed(game: Any, sym: str) -> bool:
    company = (getattr(game, "companies", None) or {}).get(sym)
    return bool(getattr(company, "closed", False))


def corporations_table(game: Any) -> Table:
    loans = getattr(game, "HAS_LOANS", True)  # 1833NE has none: no column
    ipo_name = getattr(getattr(game, "data", None), "IPO_NAME", "IPO")
    headers = ["Corp", "President", "Cash", "Price", "Par", "Trains", *(["Loans"] if loans else []), "Tokens",
               ipo_name, "Pool", "Capital"]
    obsolete = getattr(game, "obsolete", set())  # 1833NE: trains that run once more, then go
    rows: list[list[Any]] = []
    players = getattr(game, "player_by_id", None) or {p.id: p for p in getattr(game, "players", [])}
    for corp in (getattr(game, "corporations", None) or {}).values():
        closed = getattr(corp, "closed", False)
        started = getattr(corp, "ipoed", False) or getattr(corp, "price", None) is not None
        pres = getattr(corp, "president", None)
        pres_name = players[pres].name if pres in players else ""
        price = getattr(corp, "price", None)
        par = getattr(corp, "par", None)
        trains = [_train_name(game, t) + (" (obsolete)" if t in obsolete else "") for t in getattr(corp, "trains", [])]
        tokens = getattr(corp, "tokens", [])
        left = sum(1 for t in tokens if not getattr(t, "used", False))
        ipo = _safe(lambda c=corp: game.percent_of(c.sym, c.sym), 0) or 0
        pool = _safe(lambda c=corp: game.percent_of("market", c.sym), 0) or 0
        cap = getattr(corp, "capitalization", None) or ""
        escrow = getattr(corp, "escrow", None)
        if escrow:
            cap = f"{cap} {_money(game, escrow)} held".strip()
        if closed:
            cap = "closed"
        muted = closed or not started
        rows.append([
            _corp_chip(corp),
            Cell(pres_name, muted=muted),
            Cell(_money(game, corp.cash) if started else "", muted=muted),
            Cell(_money(game, price.price) if price else "", bold=bool(price)),
            Cell(_money(game, par.price) if par else "", muted=muted),
            Cell(", ".join(trains), bold=True),
            *([Cell(str(getattr(corp, "loans", 0) or ""))] if loans else []),
            Cell(f"{left}/{len(tokens)}" if tokens else "", muted=muted),
            Cell(f"{ipo}%" if ipo and started else "", muted=muted),
            Cell(f"{pool}%" if pool else ""),
            Cell(cap, muted=muted),
        ])
    return Table(headers, rows, align="llrrrl" + ("c" if loans else "") + "rrrl")


def _train_name(game: Any, tid: str) -> str:
    """The train's name now (a 1833NE card shows the side it was bought as)."""
    train = (getattr(game, "trains", None) or {}).get(tid)
    return str(getattr(train, "name", None) or tid.rsplit("-", 1)[0])


def companies_table(game: Any) -> Table | None:
    companies = [c for c in (getattr(game, "companies", None) or {}).values() if not getattr(c, "closed", False)]
    if not companies:
        return None
    names = {p.id: p.name for p in getattr(game, "players", [])}
    rows = []
    for c in companies:
        owner = names.get(c.owner, c.owner) if c.owner else "(for sale)"
        rows.append([Cell(c.sym, bold=True), c.name, Cell(owner or "", muted=not c.owner), _money(game, c.value),
                     _money(game, c.revenue)])
    return Table(["Private", "Name", "Owner", "Value", "Income"], rows, align="lllrr")


PROVISIONAL_TITLE = "Provisional values: set from your rulebook (host: /game rules)"


def provisional_table(game: Any) -> Table | None:
    """1833NE: the bonuses and ferry values no source gives, by phase, with where each comes
    from (rules summary, provisional, set by the host); the current phase in bold."""
    rows = _safe(game.provisional_rows, None) if hasattr(game, "provisional_rows") else None
    if not rows:
        return None
    phases = ["I", "II", "III", "IV", "V"]
    now = (getattr(game, "phase", None) or {}).get("name")
    cells = []
    for what, *values, source in rows:
        cells.append([Cell(what, bold=True),
                      *(Cell(v, bold=p == now, muted=v in ("-", "0") and p != now)
                        for p, v in zip(phases, values, strict=True)),
                      Cell(source, muted=source != "provisional")])
    return Table(["Bonus / ferry", *phases, "Source"], cells, align="lrrrrrl")


def trains_line(game: Any) -> str:
    trains = _safe(game.upcoming_trains, []) or []
    groups: list[list[Any]] = []
    for t in trains:
        if groups and groups[-1][0].name == t.name:
            groups[-1].append(t)
        else:
            groups.append([t])
    variants = getattr(game, "train_variants", None)  # 1833NE: a card's two sides and prices

    def price(t: Any) -> str:
        sides = _safe(lambda: variants(t), []) if variants else []
        if sides:
            return " or ".join(f"{name} {_money(game, cost)}" for name, cost in sides)
        return _money(game, t.price)

    parts = [f"{g[0].name} ×{len(g)} ({price(g[0])})" for g in groups]
    return "Depot: " + ("  ·  ".join(parts) if parts else "empty")


def header_lines(game: Any) -> tuple[str, str]:
    phase = getattr(game, "phase", None) or {}
    title = getattr(game, "title", "")
    parts = [str(title)]
    if phase:
        parts.append(f"Phase {phase.get('name', '?')}")
        if "train_limit" in phase:
            parts.append(f"train limit {phase['train_limit']}")
        if phase.get("tiles"):
            parts.append("tiles " + "/".join(phase["tiles"]))
    sub = [f"Bank {_money(game, getattr(game, 'bank', 0))}"]
    rnd = _round_name(game)
    if rnd:
        sub.append(rnd)
    if getattr(game, "finished", False):
        sub.append("game over")
    return "  ·  ".join(parts), "  ·  ".join(sub)


def render_status(game: Any) -> bytes:
    """PNG with the players, corporations, privates and depot of ``game``."""
    tables = [("Players", players_table(game)), ("Corporations", corporations_table(game))]
    privates = companies_table(game)
    if privates is not None:
        tables.append(("Private companies", privates))
    provisional = provisional_table(game)
    if provisional is not None:
        tables.append((PROVISIONAL_TITLE, provisional))
    title, sub = header_lines(game)
    depot = trains_line(game)
    notes = list(_safe(game.status_notes, []) or []) if hasattr(game, "status_notes") else []
    f_title, f_sub, f_sec = font(24, True), font(17), font(18, True)
    width = max([t.width() for _, t in tables] + [int(f_title.getlength(title))]
                + [int(f_sub.getlength(line)) for line in (depot, *notes)])
    width += 2 * MARGIN
    height = MARGIN + 34 + 28 + 28 * (1 + len(notes)) + sum(t.height() + 30 + GAP for _, t in tables) + MARGIN
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    y = MARGIN
    draw.text((MARGIN, y), title, font=f_title, fill=INK)
    y += 34
    draw.text((MARGIN, y), sub, font=f_sub, fill=INK)
    y += 28
    for line in (depot, *notes):
        draw.text((MARGIN, y), line, font=f_sub, fill=MUTED)
        y += 28
    for name, table in tables:
        y += GAP // 2
        draw.text((MARGIN, y), name, font=f_sec, fill=INK)
        y += 30
        y = table.draw(draw, MARGIN, y)
        y += GAP // 2
    return to_png(img.crop((0, 0, width, min(height, int(y) + MARGIN))), palette=True)
