"""A computer player's small leanings, drawn per seat from a seed, so that all-computer games
differ from seed to seed while every choice stays a sensible one.

The computer player is deterministic: without leanings, four computer players play the same
game whatever the seed. A :class:`Personality` only moves choices that are close: which
corporation to start among homes of similar worth, a par one step below the highest it can
float alone with, which of two near-equal shares to buy, how ties between lays and stations
break. :data:`NEUTRAL` (no leaning at all) is what the bot's computer seats play: their moves
stay exactly what the game's position and seed give.

Every value is drawn from a :class:`random.Random` seeded with integers and strings (whose
seeding is the same on every machine and Python run), never from ``hash()`` or the clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Personality:
    """``salt``: what the tie-breaks and tastes are drawn from (0 with no leaning); ``taste``:
    how much a corporation's drawn appeal counts when choosing what to start (in revenue near
    its home) and what to buy (in share-score points, a tenth of it); ``lower_par``: it starts
    a corporation one par step below the highest it can float alone with; ``jitter``: at most
    how many score points break a tie between near-equal lays and stations."""

    salt: int = 0
    taste: float = 0.0
    lower_par: bool = False
    jitter: float = 0.0
    _memo: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def neutral(self) -> bool:
        return self.taste == 0.0 and not self.lower_par and self.jitter == 0.0

    def _draw(self, key: str) -> float:
        """A uniform number in [-1, 1) for ``key``, the same for this personality every time."""
        value = self._memo.get(key)
        if value is None:
            value = random.Random(f"{self.salt}:{key}").random() * 2 - 1
            self._memo[key] = value
        return value

    def appeal(self, sym: str) -> float:
        """How much it likes corporation ``sym`` (±``taste``)."""
        return self.taste * self._draw(f"corp:{sym}") if self.taste else 0.0

    def tie(self, *key: object) -> float:
        """A small score (±``jitter``) that breaks a tie between near-equal choices named ``key``."""
        return self.jitter * self._draw("tie:" + ":".join(map(str, key))) if self.jitter else 0.0

    @classmethod
    def draw(cls, seed: int, seat: int) -> Personality:
        """The leanings of seat ``seat`` (0-based) in the game of ``seed``."""
        rng = random.Random(f"personality:{seed}:{seat}")
        return cls(salt=rng.randrange(1 << 30), taste=rng.choice((10.0, 20.0, 30.0)),
                   lower_par=rng.random() < 0.3, jitter=rng.choice((1.0, 2.0, 3.0)))


NEUTRAL = Personality()
