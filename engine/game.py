"""The game: a :class:`Game` is built from a title's data and changes only by :meth:`Game.process`.

``Game`` holds the general 18xx rules, one module per mechanic, each a class ``Game`` inherits:

- :mod:`engine.mechanics.state` the pieces and their owners, money, look-ups;
- :mod:`engine.hooks` every hook a title may override, with neutral defaults (no loans, no national);
- :mod:`engine.mechanics.shares` certificates, presidency, par, floating, selling, share prices;
- :mod:`engine.mechanics.phases` the bank's trains, phases, rusting, train events;
- :mod:`engine.mechanics.track` tile lays; :mod:`engine.mechanics.stations` tokens;
- :mod:`engine.mechanics.revenue` routes and dividends; :mod:`engine.mechanics.train_buying` buying trains, emergency money;
- :mod:`engine.mechanics.companies` private companies; :mod:`engine.rounds.flow` the round sequence, game end;
- :mod:`engine.mechanics.processing` processing actions, rollback, programmed moves.

Rounds live in :mod:`engine.rounds.stock` and :mod:`engine.rounds.operating`. A title (``engine.titles``)
subclasses ``Game`` and overrides the hooks whose rules it changes.
"""

from __future__ import annotations

import itertools

from . import actions as A
from .mechanics.companies import CompanyRules
from .mechanics.phases import PhaseRules
from .mechanics.processing import ActionProcessing
from .mechanics.revenue import RevenueRules
from .mechanics.shares import ShareRules
from .mechanics.stations import StationRules
from .mechanics.track import TrackRules
from .mechanics.train_buying import TrainBuying
from .rounds.flow import RoundFlow


class Game(ActionProcessing, RoundFlow, CompanyRules, TrainBuying, RevenueRules, StationRules, TrackRules,
           PhaseRules, ShareRules):
    """Base 18xx game. Titles subclass it and override hooks; see ``engine.titles``."""

    # what identifies a position (engine.choice.per_position): a stamp renewed by every processed
    # action and restored with the state when one is refused or undone
    position_stamp = 0
    process_only = False  # set when only process() changes this game (the bot's live games)

    def process(self, action: A.Action, *, safe: bool = True) -> None:
        before = self.position_stamp
        self.position_stamp = next(_STAMPS)
        try:
            super().process(action, safe=safe)
        except Exception:
            if safe:  # refused and rolled back: the very position before it
                self.position_stamp = before
            raise
        self.position_stamp = next(_STAMPS)


_STAMPS = itertools.count(1)
