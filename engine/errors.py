"""The one error type the engine raises for a rejected action."""


class GameError(Exception):
    """An action was rejected; the message is meant for the player who sent it.

    The engine guarantees that the game state is unchanged when this is raised
    from :meth:`engine.game.Game.process`.
    """
