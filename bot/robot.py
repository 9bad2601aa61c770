"""The automatic seat: the computer player (:mod:`engine.computer`) moves for a seat that is
the computer's — a seat opened with ``/game new robots:N``, handed over with ``/game robot``
(or ``/game sub user:robot``), or conceded by its player.

The engine has no voluntary exit (in the 1856 family ``bankrupt`` is only legal in a cash crisis
and ends the game for everyone), so such a seat keeps playing, as a steady player would, until a
person takes it over with ``/game sub``. Its moves are ordinary logged actions, so replays and
exports see them like any other; each comes with a one-line reason, posted with the move.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import actions as A
from engine.computer import Decision, decide
from engine.decisions import acting_entities
from engine.game import Game

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
