"""The game: a :class:`Game` is built from a title's data and changes only by :meth:`Game.process`.

``Game`` holds the general 18xx rules, one module per mechanic, each a class ``Game`` inherits:

- :mod:`engine.game_state` the pieces and their owners, money, look-ups;
- :mod:`engine.hooks` every hook a title may override, with neutral defaults (no loans, no national);
- :mod:`engine.shares` certificates, presidency, par, floating, selling, share prices;
- :mod:`engine.phases` the bank's trains, phases, rusting, train events;
- :mod:`engine.track` tile lays; :mod:`engine.stations` tokens;
- :mod:`engine.revenue` routes and dividends; :mod:`engine.train_buying` buying trains, emergency money;
- :mod:`engine.companies` private companies; :mod:`engine.round_flow` the round sequence, game end;
- :mod:`engine.processing` processing actions, rollback, programmed moves.

Rounds live in :mod:`engine.rounds` and :mod:`engine.operating`. A title (``engine.titles``)
subclasses ``Game`` and overrides the hooks whose rules it changes.
"""

from __future__ import annotations

from .companies import CompanyRules
from .phases import PhaseRules
from .processing import ActionProcessing
from .revenue import RevenueRules
from .round_flow import RoundFlow
from .shares import ShareRules
from .stations import StationRules
from .track import TrackRules
from .train_buying import TrainBuying


class Game(ActionProcessing, RoundFlow, CompanyRules, TrainBuying, RevenueRules, StationRules, TrackRules,
           PhaseRules, ShareRules):
    """Base 18xx game. Titles subclass it and override hooks; see ``engine.titles``."""
