"""The computer player: a steady player who knows the rules, for every title.

It decides only among the legal choices the move table offers (:mod:`engine.moves`,
:mod:`engine.decisions`), tries promising actions on the game and undoes them to judge them,
and gives a one-line reason with each move. :func:`decide` is the entry point; the modules
are :mod:`.stock` (auction and stock round), :mod:`.operating` (track, stations, routes,
dividends, trains, money), :mod:`.capital` (a corporation's own shares: issues, redemptions,
takeovers), :mod:`.policy` (the facts it decides on) and :mod:`.player` (whose decision it
is, fallbacks) and :mod:`.personality` (a seat's small seeded leanings, for self-play).
"""

from .personality import NEUTRAL, Personality
from .player import decide
from .policy import Decision

__all__ = ["NEUTRAL", "Decision", "Personality", "decide"]
