"""What the engine raises: :class:`GameError` for a rejected action (a rule refusal, with a code
and its facts), :class:`EngineBug` for an unexpected failure inside the engine.

Both leave the game exactly as it was when raised from :meth:`engine.game.Game.process`. Front
ends decide on :attr:`GameError.code` (never on the message's words) and show the message; an
:class:`EngineBug` is logged with its traceback and told as "something went wrong on our side".
"""

from __future__ import annotations

from typing import Any

# The codes of a rejection. A front end may branch on them; the message says the same in words.
NOT_YOUR_TURN = "not_your_turn"        # another entity is to act (facts: waiting)
WRONG_STEP = "wrong_step"              # the action is not offered in this round or step
NO_ROUTE = "no_route"                  # the place is not on the entity's network (facts: hex)
CANNOT_AFFORD = "cannot_afford"        # not enough money (facts: cost, cash)
LIMIT = "limit"                        # a limit: certificates, holding, trains, lays per turn
UNAVAILABLE = "unavailable"            # the piece is not there: no tile/train/share/token left
ILLEGAL_TILE = "illegal_tile"          # the tile does not fit: colour, upgrade, rotation, blocker
ILLEGAL_ROUTE = "illegal_route"        # a route breaks the running rules
NOT_OWNER = "not_owner"                # the entity does not own the piece it names
UNKNOWN = "unknown"                    # an id that names nothing in this game (facts: what, id)
BAD_OPTION = "bad_option"              # an option that cannot be read (facts: option)
PRICE = "price"                        # a price outside what the rules allow (facts: low, high)
GAME_OVER = "game_over"                # the game has ended
RULE = "rule"                          # any other rule refusal

CODES = (NOT_YOUR_TURN, WRONG_STEP, NO_ROUTE, CANNOT_AFFORD, LIMIT, UNAVAILABLE, ILLEGAL_TILE,
         ILLEGAL_ROUTE, NOT_OWNER, UNKNOWN, BAD_OPTION, PRICE, GAME_OVER, RULE)


class GameError(Exception):
    """An action was rejected: ``code`` (one of :data:`CODES`) says why in a word a program
    reads, ``facts`` the ids and amounts involved, the message says it to the player
    ("B cannot lay tile 57 on H6: no route to H6")."""

    def __init__(self, message: str, code: str = RULE, **facts: Any) -> None:
        super().__init__(message)
        if code not in CODES:
            raise ValueError(f"unknown rejection code {code!r}")
        self.code = code
        self.facts = facts

    @property
    def message(self) -> str:
        return str(self)


class EngineBug(Exception):
    """An unexpected exception inside the engine while processing ``action_type`` (a bug, not a
    rule): the game was rolled back; the cause is chained (``__cause__``)."""

    def __init__(self, action_type: str, cause: BaseException) -> None:
        super().__init__(f"internal error while processing {action_type}: {type(cause).__name__}: {cause}")
        self.action_type = action_type
