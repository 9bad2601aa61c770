"""Purchases that need the seller's word: a corporation buying another player's private, or a
train from a corporation another player presides over. The rules let them happen "at a price
both agree" (1856: a train "for any amount agreed by both presidents", a private between half
and twice its face value); 18xx.games asks the seller nothing, so at a table played by messages
the buyer could take a train for $1.

Here the buyer's command becomes an *offer*: checked by the engine (a purchase it would refuse is
refused at once), kept in the store's table of votes at a key of its own for the position
(:func:`slot`: an undo vote there is left alone) and shown with Accept and Refuse buttons that
name it and ping the seller. ``/game offer vote:yes`` by the seller makes the purchase, as the buyer's
move; ``vote:no`` refuses it (by the buyer: withdraws it). Any other move (an undo too) ends the
offer, and its reply says so: an answer then finds the game moved on and changes nothing. A
seller's seat handed to another person passes the question on: they are pinged with its buttons
(:func:`after_hand_over`). Automatic seats and conceded seats are not asked (their moves are the
computer's; what they agree to: :mod:`bot.robot`); a player selling to themselves is not asked
either.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from engine import actions as A
from engine.game import Game

from ..reply import Button, Caller, Reply, UserError
from ..robot import ROBOT_USER, Sale, taken_from
from ..storage.rows import GameRow, Seat, UndoRequest
from ..texts.game import decision_buttons

if TYPE_CHECKING:
    from ..service import CachedGame, GameService

TOPIC = "offer:"  # an offer's topic in the store's request: this prefix, then the action as JSON


def slot(seq: int) -> int:
    """Where the offer made at state ``seq`` is kept: the store's table of votes, at a key of its
    own (below 0), so that it and an undo vote at the same position leave each other alone."""
    return -1 - seq


def offer_id(data: str) -> str:
    """A short name for an offer (its action, as stored): the buttons carry it, so a late tap on
    an offer since withdrawn does not answer the one made after it."""
    return hashlib.sha1(data.encode()).hexdigest()[:8]


def consent_needed(game: Game, action: A.Action, seats: list[Seat], caller_id: str) -> tuple[Sale, Seat] | None:
    """The sale and the seller's seat when ``action`` takes something from another person at
    the table, who must agree first (None: nobody to ask)."""
    sale = taken_from(game, action)
    if sale is None or sale.seller == game.controller_of(action.entity):
        return None
    seat = next((s for s in seats if s.player_id == sale.seller), None)
    if seat is None or not seat.user_id or seat.conceded or seat.user_id in (caller_id, ROBOT_USER):
        return None
    return sale, seat


def _price(game: Game, action: A.Action) -> str:
    return game.fmt(int(getattr(action, "price", 0)))


async def propose(service: GameService, row: GameRow, cached: CachedGame, caller: Caller, action: A.Action,
                  sale: Sale, seller: Seat) -> Reply:
    """The buyer's purchase as an offer to the seller (the engine accepts it: checked before)."""
    game = cached.game
    data = json.dumps(action.to_dict(), sort_keys=True)
    await service.store.save_undo_request(row.id, UndoRequest(slot(cached.seq), f"{caller.id}\n{TOPIC}{data}",
                                                              [caller.id]))
    answer = f"/game offer offer:{offer_id(data)} state:{cached.seq}"
    buyer = f"{game.name_of(action.entity)} ({caller.name})"
    price = _price(game, action)
    owner = f"{seller.name}, its owner" if sale.private else f"{seller.name}, its president"
    reply = Reply(
        lines=[f"{buyer} offers {price} for {sale.thing}: {owner}, accepts or refuses "
               "(nothing changes until then; another move withdraws the offer)"],
        buttons=[Button(f"Accept {price}", f"{answer} vote:yes", "success"),
                 Button("Refuse", f"{answer} vote:no", "danger")],
    )
    reply.game_id = row.id  # a game message: its buttons are the channel's live ones (the buyer's go)
    assert seller.user_id is not None  # (consent_needed asks only seated people)
    reply.heads_up.append((seller.user_id, _ask(seller.name, buyer, price, sale)))
    return reply


def _ask(seller: str, buyer: str, price: str, sale: Sale) -> str:
    return (f"{seller}: {buyer} offers {price} for {sale.yours}; accept or refuse with this message's buttons"
            " (/game offer vote:yes or vote:no)")


async def after_hand_over(service: GameService, row: GameRow, seat: Seat, holder: str, reply: Reply) -> None:
    """Told once ``seat`` changed hands (to ``holder``, as named): an offer waiting for its
    holder's answer now waits for the new holder's, who is pinged with its buttons; the seat of
    the computer player answers no offer (it sells at face value or more, at once), so there the
    offer lapses, and the reply says so."""
    if row.status != "active":
        return
    cached = await service.load(row)
    found = await open_offer(service, row, cached)
    if found is None:
        return
    _, buyer_id, action, data = found
    game = cached.game
    sale = taken_from(game, action)
    if sale is None:
        return
    what = f"{game.name_of(action.entity)}'s offer of {_price(game, action)} for {sale.thing}"
    if game.controller_of(action.entity) == seat.player_id and sale.seller != seat.player_id:
        # the buyer's seat: the offer was its former holder's (an answer finds it no longer stands)
        reply.lines.append(f"({what} lapses: the buyer's seat changed hands; {holder} may offer again)")
        return
    if sale.seller != seat.player_id:
        return
    seats = await service.store.seats(row.id)
    asked = consent_needed(game, action, seats, buyer_id)
    if asked is None:
        why = (f"the computer player plays {seat.name}'s seat now and answers no offer; it sells at face value"
               " or more, at once"
               if any(s.position == seat.position and (s.conceded or s.user_id == ROBOT_USER) for s in seats)
               else f"its buyer holds {seat.name}'s seat now")
        reply.lines.append(f"({what} lapses: {why})")
        return
    seller = asked[1]
    assert seller.user_id is not None
    buyer_seat = next((s for s in seats if s.user_id == buyer_id and s.player_id == game.controller_of(action.entity)),
                      None)
    buyer = f"{game.name_of(action.entity)} ({buyer_seat.name if buyer_seat else 'its president'})"
    answer = f"/game offer offer:{offer_id(data)} state:{cached.seq}"
    price = _price(game, action)
    reply.lines.append(f"{what} waits for {holder}'s answer")
    reply.heads_up.append((seller.user_id, _ask(holder, buyer, price, sale)))
    reply.buttons = [Button(f"Accept {price}", f"{answer} vote:yes", "success"),
                     Button("Refuse", f"{answer} vote:no", "danger")]
    reply.game_id = row.id


async def game_offer(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
    """``/game offer vote:yes|no``: the seller's answer to the offer open now (the buyer's
    ``vote:no`` withdraws it)."""
    row, cached = await service.active(channel_id)
    service.check_state(params, cached)
    vote = (params.get("vote") or "").strip().lower()
    if vote not in ("yes", "no"):
        raise UserError("Answer an offer with vote:yes (accept) or vote:no (refuse)")
    found = await open_offer(service, row, cached)
    if found is None:
        raise UserError("No offer is open now (another move ends an offer). Nothing was changed.")
    req, buyer_id, action, data = found
    if params.get("offer") and params["offer"] != offer_id(data):
        raise UserError("That offer was withdrawn; another is open now: answer it with its own buttons."
                        " Nothing was changed.")
    game = cached.game
    seats = await service.store.seats(row.id)
    asked = consent_needed(game, action, seats, buyer_id)
    buyer = next((s for s in seats if s.user_id == buyer_id and s.player_id == game.controller_of(action.entity)),
                 None)
    if asked is None or buyer is None:  # seats changed hands since: the offer lapses
        raise UserError("That offer no longer stands (the seats changed since). Nothing was changed.")
    sale, seller = asked
    what = f"{game.name_of(action.entity)}'s offer of {_price(game, action)} for {sale.thing}"
    if caller.id == buyer_id and caller.id != seller.user_id:
        if vote == "yes":
            raise UserError(f"{seller.name} answers your offer; vote:no withdraws it")
        await _close(service, row, req, "-" + caller.id)
        return Reply(lines=[f"{caller.name} withdraws {what}; nothing changes"],
                     buttons=decision_buttons(game, cached.seq, seats), game_id=row.id)
    if caller.id != seller.user_id:
        raise UserError(f"Only {seller.name} answers {what}")
    await _close(service, row, req, caller.id if vote == "yes" else "-" + caller.id)
    if vote == "no":
        # the buyer's decisions again (the offer's message took the place of theirs)
        reply = Reply(lines=[f"{caller.name} refuses {what}; nothing changes"],
                      buttons=decision_buttons(game, cached.seq, seats), game_id=row.id)
        reply.heads_up.append((buyer_id, f"{buyer.name}: {caller.name} refused your offer; make another, or do"
                               " something else"))
        return reply
    reply = await service.apply(row, cached, Caller(buyer_id, buyer.name), action, seats)
    reply.lines.insert(0, f"{caller.name} accepts {what}:")
    return reply


async def open_offer(service: GameService, row: GameRow, cached: CachedGame,
                     ) -> tuple[UndoRequest, str, A.Action, str] | None:
    """The offer open at the game's position: its record, the buyer's user id, the purchase and
    its stored form (None: none, or it was answered)."""
    return _offer_of(await service.store.undo_request(row.id, slot(cached.seq)))


def _offer_of(req: UndoRequest | None) -> tuple[UndoRequest, str, A.Action, str] | None:
    topic = req.requested_by.partition("\n")[2] if req is not None else ""
    if req is None or not topic.startswith(TOPIC) or any(v.startswith("-") for v in req.votes):
        return None
    data = topic[len(TOPIC):]
    return req, req.requested_by.partition("\n")[0], A.Action.from_dict(json.loads(data)), data


async def offer_note(service: GameService, row: GameRow, cached: CachedGame, caller_id: str) -> str | None:
    """For /moves and /game status: the offer waiting for the caller's answer, or the caller's own
    offer waiting for the seller's (None: neither)."""
    found = await open_offer(service, row, cached)
    if found is None:
        return None
    _, buyer_id, action, _ = found
    game = cached.game
    asked = consent_needed(game, action, await service.store.seats(row.id), buyer_id)
    if asked is None:
        return None
    sale, seller = asked
    what = f"{game.name_of(action.entity)} offers {_price(game, action)} for {sale.thing}"
    if caller_id == seller.user_id:
        return f"An offer waits for your answer: {what}: /game offer vote:yes (accept) or vote:no (refuse)"
    if caller_id == buyer_id:
        return f"Your offer waits for {seller.name}'s answer: {what} (/game offer vote:no withdraws it)"
    return None


async def lapsing_lines(service: GameService, row: GameRow, cached: CachedGame, *, votes: bool = True) -> list[str]:
    """The lines for a move made while an offer is open (the move withdraws it) and, with ``votes``,
    while the table votes on an undo or on the provisional values (the vote was on this position:
    it lapses); one read of the store for both."""
    here = await service.store.undo_requests_at(row.id, (slot(cached.seq), cached.seq))
    lines = []
    found = _offer_of(here.get(slot(cached.seq)))
    if found is not None:
        action = found[2]
        sale = taken_from(cached.game, action)
        thing = sale.thing if sale is not None else "it"
        lines.append(f"({cached.game.name_of(action.entity)}'s offer of {_price(cached.game, action)} for {thing}"
                     " is withdrawn)")
    vote = here.get(cached.seq)
    if votes and vote is not None and not any(v.startswith("-") for v in vote.votes):
        undo = not vote.requested_by.partition("\n")[2]
        what, again = ("undo the last move", "/game undo") if undo else ("change the provisional values", "/game rules")
        lines.append(f"(the vote to {what} lapses: the game moved on; {again} asks again)")
    return lines


async def _close(service: GameService, row: GameRow, req: UndoRequest, vote: str) -> None:
    """The answer recorded (only if nobody answered meanwhile: the store refuses a second)."""
    await service.store.save_undo_request(row.id, UndoRequest(req.state_id, req.requested_by, [*req.votes, vote]),
                                          req.votes)
