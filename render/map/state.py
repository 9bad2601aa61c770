"""What the map reads from the game besides the board: the phase (tile colours, name), the
destinations still open, the homes not yet tokened, the hexes private companies block, the
title's own ports (1833NE's ferries), money as the title writes it."""

from __future__ import annotations

from engine.game import Game


def phase_colors(game: Game) -> list[str]:
    return list(game.phase.get("tiles", []))


def phase_name(game: Game) -> str:
    return str(game.phase.get("name", ""))


def header_text(game: Game, where: str = "") -> str:
    """The map's header line: the title, the phase, ``where`` (the part of the map shown) or, on
    the whole map, the tile colours available."""
    phase = phase_name(game)
    text = f"{game.title}  ·  phase {phase}" if phase else str(game.title)
    if where:
        text += f"  ·  {where}"
    colors = phase_colors(game)
    if colors and not where:
        text += f"  ·  tiles: {', '.join(colors)}"
    return text


def current_revenue_key(revenue: dict[str, int], phase_colors: list[str], phase_name: str) -> str | None:
    """Which key of a phase-dependent revenue applies now (``yellow``/``brown``... keyed by
    tile colour, or ``I/II`` keyed by phase names as in 1833NE)."""
    for color in reversed(phase_colors):
        if color in revenue:
            return color
    for key in revenue:
        if phase_name and phase_name in key.split("/"):
            return key
    return None


def destination_hexes(game: Game) -> dict[str, list[str]]:
    """``{corp sym: [hex ids]}`` for corporations still heading for their destination."""
    goals = game.destination_goals()
    return {sym: list(goals[sym]) for sym, corp in game.corporations.items()
            if sym in goals and goals[sym] and not corp.destinated and not corp.closed}


def blocked_hexes(game: Game) -> dict[str, str]:
    """``{hex: private's sym}`` of the hexes no tile may be laid in now because a private
    company blocks them (while a player owns it: the engine's own test)."""
    out = {}
    for hid in game.board.hexes:
        sym = game.hex_blocked_by(hid)
        if sym is not None:
            out[hid] = sym
    return out


def home_reservations(game: Game) -> dict[str, list[tuple[int | None, str]]]:
    """``{hex: [(city index or None, sym)]}`` of homes not yet tokened (plus the board's own
    reservations)."""
    out: dict[str, list[tuple[int | None, str]]] = {}
    board = game.board
    for h in board.hexes.values():
        for city, syms in h.reservations.items():
            for sym in syms:
                out.setdefault(h.id, []).append((city, sym))
    leaving = set(game.stations_leaving().values())  # merged into the national: stations still drawn
    for sym, corp in game.corporations.items():
        home = corp.home
        if not home or home not in board.hexes or corp.closed or sym in leaving:
            continue
        if board.hexes[home].tokened_by(sym) or any(s == sym for _, s in out.get(home, [])):
            continue
        out.setdefault(home, []).append((corp.home_city, sym))
    return out


def money(game: Game, amount: int | float) -> str:
    return game.fmt(amount)
