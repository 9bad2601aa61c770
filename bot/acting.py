"""Who acts: the entities that may act now, which one a caller acts for with a command (and why
not, when none may), and the "waiting for ..." line naming each acting entity and its commands.
"""

from __future__ import annotations

from engine.decisions import acting_entities, action_types, round_title, share_blockers, why_not_now
from engine.game import Game
from engine.moves import Move
from engine.moves.spec import entity_type, pick
from engine.rounds.stock import StockRound

from .play import allowed_commands, offered_commands
from .reply import UserError
from .texts.summary import why_over
from .texts.turns import activity


def candidates(game: Game) -> list[str]:
    """Entities that may act now: the acting ones, their controllers, and privates they own."""
    out: list[str] = []
    acting = acting_entities(game)
    extra: list[str] = []
    for e in acting:
        ctrl = game.controller_of(e)
        if ctrl:
            extra.append(ctrl)
        owned = (
            game.corporations[e].companies
            if e in game.corporations
            else (game.player_by_id[e].companies if e in game.player_by_id else [])
        )
        extra.extend(owned)
    for e in [*acting, *extra]:
        if e not in out:
            out.append(e)
    return out


def resolve_entity(
    game: Game, cmd: Move, pids: set[str], explicit: str | None, params: dict[str, str] | None = None
) -> str:
    """Which entity the caller (holding seats ``pids``) acts for with ``cmd`` now (``params``:
    the command's options, to say why it cannot)."""
    if cmd.any_time:
        mine = sorted(pids)
        if explicit:
            entity = pick(explicit, list(game.player_by_id), "player")
            if entity not in pids:
                raise UserError(f"You do not hold {game.name_of(entity)}'s seat")
            return entity
        if not mine:  # /help NAME asked by someone without a seat
            raise UserError("You do not hold a seat in this game")
        acting = [p for p in game.acting_players() if p in pids]
        if len(mine) > 1 and not acting:
            raise UserError("You hold several seats; say which with entity:")
        return (acting or mine)[0]
    if explicit:
        names = list(game.player_by_id) + list(game.corporations) + list(game.companies)
        entity = pick(explicit, names, "player, corporation or private")
        if game.controller_of(entity) not in pids:
            raise UserError(f"You do not control {game.name_of(entity)}")
        _check_kind(game, cmd, entity)
        if cmd.action_type not in action_types(game, entity):
            raise UserError(f"{game.name_of(entity)} cannot /{cmd.command} now"
                            + _why_not(game, entity, cmd, params or {}) + _can_now(game, entity))
        return entity
    mine = [e for e in candidates(game) if game.controller_of(e) in pids]
    for e in mine:
        if cmd.action_type in action_types(game, e) and kind_ok(game, cmd, e):
            return e
    acting_mine = [e for e in acting_entities(game) if game.controller_of(e) in pids]
    if not acting_mine:
        raise UserError(f"It is not your turn: {waiting_for(game)}")
    e = acting_mine[0]
    # a player's command while their corporation is to act (a /buy typed after the stock round
    # ended): say where the game is, so the next command is not meant for the round before
    where = "" if kind_ok(game, cmd, e) else f"It is {round_title(game)} now: "
    raise UserError(
        where + f"{game.name_of(e)} cannot /{cmd.command} now" + _why_not(game, e, cmd, params or {}) + _can_now(game, e)
    )


def _why_not(game: Game, entity: str, cmd: Move, params: dict[str, str]) -> str:
    """The cause, where one is known: a share that cannot be bought (cash, sold this round,
    limits), a sale, a loan or a pass the rules do not allow now (:func:`why_not_now`)."""
    key = (params.get("share") or params.get("shares") or params.get("corporation") or "").split(",")[0]
    key = key.strip().split(" ")[0].lower()
    sym = next((c for c in game.corporations if c.lower() == key), None)
    if sym is None:
        sym = next((s.corporation for sid, s in game.shares.items() if sid.lower() == key), None)
    if cmd.action_type == "buy_shares":
        if sym is None or not isinstance(game.round, StockRound) or entity not in game.player_by_id:
            return ""
        return f" ({'; '.join(share_blockers(game, entity, sym))})"
    why = why_not_now(game, entity, cmd.action_type, sym)
    return f" ({why})" if why else ""


def kind_ok(game: Game, cmd: Move, entity: str) -> bool:
    return cmd.entity_kind is None or entity_type(game, entity) == cmd.entity_kind


def _check_kind(game: Game, cmd: Move, entity: str) -> None:
    if not kind_ok(game, cmd, entity):
        raise UserError(f"/{cmd.command} is for a {cmd.entity_kind}, not {game.name_of(entity)}")


def _can_now(game: Game, entity: str) -> str:
    allowed = allowed_commands(game, entity)
    return f"; it can: {', '.join(allowed)}" if allowed else ""


def waiting_for(game: Game, seat_user: dict[str, str] | None = None) -> str:
    """ "waiting for BBG (president Alice) to lay track: /lay, /pass" for each acting entity."""
    if game.finished:
        return f"the game is over ({why_over(game)})"
    parts = []
    for e in acting_entities(game):
        ctrl = game.controller_of(e)
        who = game.name_of(e)
        if ctrl and ctrl != e:
            who += f" (president {game.name_of(ctrl)})"
        cmds = offered_commands(game, e)
        parts.append(f"{who} to {activity(game, e)}" + (f": {', '.join(cmds)}" if cmds else ""))
    return "waiting for " + ("; ".join(parts) if parts else "nobody")
