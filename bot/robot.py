"""The automatic seat: the computer player (:mod:`engine.computer`) moves for a seat that is
the computer's — a seat opened with ``/game new robots:N``, handed over with ``/game robot``
(or ``/game sub user:robot``), or conceded by its player.

The engine has no voluntary exit (in the 1856 family ``bankrupt`` is only legal in a cash crisis
and ends the game for everyone), so such a seat keeps playing, as a steady player would, until a
person takes it over with ``/game sub``. Its moves are ordinary logged actions, so replays and
exports see them like any other; each comes with a one-line reason, posted with the move.

What such a seat (or a free one: nobody answers for either) agrees to when a purchase takes its
private or its corporation's train (:func:`taken_from`): it sells at face value or more, nobody
being there to agree to less (:func:`absent_seller_refusal`), and the prices shown for its
trains start there (:func:`absent_sellers_prices`, :func:`absent_seller_span`) in the replies,
autocomplete, the price box and the game message's menus alike. The computer player buys
nothing from a person (:func:`takes_from_person`): it cannot wait for an answer. A seated person
is asked instead (:mod:`bot.handlers.offers`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import actions as A
from engine.choice import Choice
from engine.computer import Decision, decide
from engine.decisions import acting_entities
from engine.game import Game
from engine.moves.spec import Span

from .storage.rows import Seat

ROBOT_USER = "robot"  # the user id of a seat the computer player holds (and of its logged moves)
ROBOT_NAMES = ("robot", "computer")  # what /game sub user: accepts for the computer player


def robot_decision(game: Game, entity: str, seed: int = 0,
                   avoid: Callable[[A.Action], bool] | None = None) -> Decision | None:
    """The computer player's move for ``entity`` (one it controls that must act now) and why;
    never one ``avoid`` refuses (a purchase from a person, who would have to agree)."""
    return decide(game, entity, seed=seed, avoid=avoid)


def robot_action(game: Game, entity: str, seed: int = 0) -> A.Action | None:
    """The move the automatic seat makes for ``entity``."""
    d = robot_decision(game, entity, seed)
    return d.action if d is not None else None


def robot_entity(game: Game, conceded: set[str]) -> str | None:
    """The acting entity whose decision belongs to an automatic seat, if any."""
    if not conceded:
        return None
    for e in acting_entities(game):
        if game.controller_of(e) in conceded:
            return e
    return None


@dataclass(frozen=True)
class Sale:
    """What a purchase takes from another player: ``seller`` (a player id) and ``thing``
    ("P1", "B&L's 2-train (2-0)": the train as it runs, its card in brackets), a private of
    theirs or a train of a corporation they preside."""

    seller: str
    thing: str
    private: bool

    @property
    def yours(self) -> str:
        return f"your private {self.thing}" if self.private else f"your corporation {self.thing}"


def taken_from(game: Game, action: A.Action) -> Sale | None:
    """Whose private or corporation's train ``action`` buys (before it is processed), when it
    belongs to a player (None: the bank's, the depot's, or not a purchase)."""
    if isinstance(action, A.BuyCompany):
        company = game.companies.get(action.company)
        if company is not None and company.owner in game.player_by_id:
            return Sale(company.owner, company.sym, True)
    elif isinstance(action, A.BuyTrain):
        train = game.trains.get(action.train)
        seller = game.corporations.get(train.owner) if train is not None else None
        if train is not None and seller is not None and seller.president:
            return Sale(seller.president, f"{seller.sym}'s {train.name}-train ({train.id})", False)
    return None


def takes_from_person(game: Game, action: A.Action, automatic: set[str]) -> bool:
    """Whether ``action`` buys from a player not in ``automatic`` (the seats the computer plays)
    other than its own mover: the computer player does not, as it cannot wait for an answer."""
    sale = taken_from(game, action)
    return sale is not None and sale.seller not in automatic and sale.seller != game.controller_of(action.entity)


def absent_seller_refusal(game: Game, action: A.Action, seats: list[Seat]) -> str | None:
    """The answer when ``action`` buys from a seat nobody is there to answer for (the computer
    plays it, or it is free): such a seat sells at face value or more, nobody being there to
    agree to less; the refusal, or None (no such purchase, or a price it takes)."""
    sale = taken_from(game, action)
    if sale is None or sale.seller == game.controller_of(action.entity):
        return None
    seat = next((s for s in seats if s.player_id == sale.seller), None)
    if seat is None or not (seat.conceded or seat.user_id in (None, ROBOT_USER)):
        return None
    if isinstance(action, A.BuyCompany):
        face = game.companies[action.company].value
    else:
        assert isinstance(action, A.BuyTrain)
        face = game.trains[action.train].price
    if action.price >= face:
        return None
    if seat.user_id is None:
        return (f"Nobody holds {seat.name}'s seat to agree: {sale.thing} sells for no less than {game.fmt(face)},"
                " its face value (a player who claims the seat with /game claim may agree to less)")
    return (f"The computer player, who plays {seat.name}'s seat, sells {sale.thing} for no less than"
            f" {game.fmt(face)}, its face value (nobody is there to agree to less)")


def absent_seller_span(game: Game, entity: str, train_id: str, span: Span, seats: list[Seat]) -> Span:
    """``span`` (the engine's price agreed for another corporation's train: $1 up to the
    treasury) from the train's face value when its seller's seat is one nobody answers for
    (:func:`absent_seller_refusal`), as far as the treasury reaches; else ``span`` itself."""
    train = game.trains.get(train_id)
    if train is None or not 1 <= train.price <= span.high or not _absent_seller(game, entity, train_id, seats):
        return span
    return Span(train.price, span.high, _from_face(game, train.price, span.high), span.what)


def absent_sellers_prices(game: Game, entity: str, choices: list[Choice], seats: list[Seat],
                          ) -> tuple[list[Choice], list[str]]:
    """The train choices of ``entity`` (the engine's: another corporation's train "for $1 up
    to the treasury") with the price a seat nobody answers for takes (:func:`absent_seller_refusal`):
    from its face value; and, left out of the choices, those whose face value is more than the
    treasury, each as "BBG's 3-train: $180"."""
    corp = game.corporations.get(entity)
    if corp is None:
        return choices, []
    out: list[Choice] = []
    beyond: list[str] = []
    for c in choices:
        train = game.trains.get(c.value)
        seller = game.corporations.get(train.owner) if train is not None else None
        if train is None or seller is None or game.face_value_only(corp, train) or \
                not _absent_seller(game, entity, train.id, seats):
            out.append(c)
            continue
        face = train.price
        if face > corp.cash:
            beyond.append(f"{seller.sym}'s {train.name}-train: {game.fmt(face)}")
            continue
        out.append(Choice(c.value, f"{train.name}-train from {seller.sym}, {_from_face(game, face, corp.cash)} "
                                   "(its seat sells at face value or more)"))
    return out, beyond


def _absent_seller(game: Game, entity: str, train_id: str, seats: list[Seat]) -> bool:
    """Whether ``entity`` buys ``train_id`` from a seat nobody answers for (below face value
    refused)."""
    probe = A.BuyTrain(entity=entity, entity_type="corporation", train=train_id, price=1)
    return absent_seller_refusal(game, probe, seats) is not None


def _from_face(game: Game, face: int, most: int) -> str:
    """ "$300-$733" (from the face value up to what the treasury holds), "$300" when they meet."""
    return game.fmt(face) if face == most else f"{game.fmt(face)}-{game.fmt(most)}"
