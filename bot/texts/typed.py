"""What a typed move is told when the round changed just before it.

A button carries the position it was made for (``state:N``) and is refused once the game has
moved on; a typed command carries nothing of what its player saw. A typed ``/pass`` right after
another player's move ended the round therefore passes whatever the new round asks of the
caller (a corporation's track, say, where the player meant to pass in the stock round). Refusing
it would also refuse every deliberate first pass of a round (nothing tells the two apart), so
the pass is made and the reply says plainly what it passed and how to take it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game


@dataclass(frozen=True)
class RoundTurn:
    """The round ended with a move: the state id after it, who made it, the round that ended."""

    seq: int
    user_id: str
    user_name: str
    ended: str


def typed_pass_note(game: Game, entity: str, turn: RoundTurn | None, seq: int, caller_id: str) -> str | None:
    """The line for a typed pass by ``entity`` at state ``seq`` when the round ended with the
    move just before it, made by someone else; None otherwise."""
    if turn is None or turn.seq != seq or turn.user_id == caller_id or game.round is None:
        return None
    now, who = game.round.name, game.name_of(entity)
    ended, new = (f"the {turn.ended}", f"the {now}") if turn.ended != now else ("that round", f"the next {now}")
    return (f"Note: {turn.user_name}'s move just ended {ended}: this /pass was {who}'s, in {new}. "
            f"If you meant to pass in {ended}, /game undo takes it back.")
