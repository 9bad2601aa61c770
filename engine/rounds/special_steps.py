"""Operating-round steps for private companies' abilities, extra purchases and home stations.

General steps any title's operating round may list (see :meth:`engine.game.Game.new_operating_round`).
"""

from __future__ import annotations

from .. import actions as A
from ..errors import RULE, UNAVAILABLE, GameError
from .operating import Step, TrackStep


class SpecialStep(Step):
    """Private abilities used by the owning corporation: extra/special tile lays and tokens."""

    name = "use a private"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        company = self.game.companies.get(entity)
        if not company or company.closed or company.owner != self.corp.sym:
            return []
        out = []
        if company.ability("tile_lay") and self.game.special_tile_lay_ok(self.round, company):
            out.append("lay_tile")
        token = company.ability("token")
        if token and (company.sym, "token") not in self.game.used_abilities \
                and self.game.special_token_time(self.round) \
                and (token.get("extra_action") or not self.round.state.get("tokened")):
            # the private's station is the turn's station: not once one is placed (as 18xx.games)
            out.append("place_token")
        teleport = company.ability("teleport")
        if teleport and (company.sym, "teleport") not in self.game.used_abilities \
                and self.round.state.get("tiles_laid", 0) < self.game.tile_lays_per_turn(self.corp) \
                and "lay_tile" not in out and (teleport.get("when") != "track" or self._track_open()):
            out.append("lay_tile")
        return out

    def _track_open(self) -> bool:
        return not any(isinstance(s, TrackStep) and s.passed for s in self.round.steps)

    def process(self, action: A.Action) -> None:
        self.game.use_private(self.round, self.corp, action)


class HomeTokenStep(Step):
    """Placing a home token whose city must be chosen: a home hex with several cities and
    track, or a token lifted by an upgrade of a multi-city hex without track."""

    name = "place the home token"

    def pending(self) -> list[tuple[str, str, str]]:
        """(token owner, hex, who places it): a lifted token is placed again by the corporation
        that laid the tile (18xx.games: the current operator)."""
        g = self.game
        out = list(g.pending_tokens)
        if self.round.state.get("home_pending"):
            out.append((self.corp.sym, self.corp.home or "", self.corp.sym))
        return out

    def active_entities(self) -> list[str]:
        p = self.pending()
        return [p[0][2]] if p else [self.corp.sym]

    def actions(self, entity: str) -> list[str]:
        p = self.pending()
        return ["place_token"] if p and p[0][2] == entity else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.PlaceToken)
        g = self.game
        sym, hid_expected, _ = self.pending()[0]
        corp = g.corp(sym)
        hid, city = g.parse_city(action.city)
        if hid != hid_expected:
            raise GameError(f"{sym} must place its token on {hid_expected}", RULE, corporation=sym, hex=hid_expected)
        if g.board.free_slots(g.board.hex(hid), city, sym) <= 0:
            raise GameError(f"No free space for {sym} in that city of {hid}", UNAVAILABLE, corporation=sym, hex=hid)
        g.board.place_token(hid, city, sym, action.slot)
        g.map_cache_cleared()
        tok = corp.next_token()
        assert tok is not None
        tok.used, tok.hex, tok.city = True, hid, city
        g.log.append(f"{sym} places a token on {g.place_words(hid, city)}")
        if g.pending_tokens:
            g.pending_tokens.pop(0)
        else:
            self.round.state["home_pending"] = False

    def skip(self) -> None:
        pass


class SpecialBuyStep(Step):
    """Buying a tunnel/bridge right for $50."""

    name = "buy a right"
    blocks_always = False

    def actions(self, entity: str) -> list[str]:
        # any corporation may buy a right during the operating round (as on 18xx.games)
        corp = self.game.corporations.get(entity)
        if corp is None or corp.closed:
            return []
        return ["special_buy"] if self.game.special_buys(corp) else []

    def process(self, action: A.Action) -> None:
        assert isinstance(action, A.SpecialBuy)
        self.game.special_buy(self.game.corporations[action.entity], action)
