"""1833NE takeover game: paying a takeover with the acquirer's own shares and the 6/9 cards
takeovers remove (notes rows 29, 32, 33); each test names the rule it checks."""

from __future__ import annotations

import copy

import pytest

from engine import actions as A
from engine.entities import POOL
from engine.errors import GameError
from engine.moves import choices_for
from engine.titles.g1833ne import data as g1833ne_data
from engine.titles.g1833ne.game import G1833NE
from engine.titles.g1833ne.takeover import (
    AcceptTakeover,
    Takeover,
    TakeoverRound,
    take_over,
    takeover_share_options,
    takeover_targets,
)
from tests.positions import rejected, state

ANN, BEN, CY = "1", "2", "3"


def new() -> G1833NE:
    return G1833NE(g1833ne_data, [(ANN, "Ann"), (BEN, "Ben"), (CY, "Cy")], ["takeover_game"], seed=1)


def par(g: G1833NE, pid: str, sym: str, price: int) -> None:
    cell = g.market.par_cell(price)
    g.round.index = g.round.order.index(pid)
    g.process(A.Par(entity=pid, corporation=sym, share_price=f"{cell.price},{cell.row},{cell.col}"))


def set_price(g: G1833NE, sym: str, price: int) -> None:
    corp = g.corporations[sym]
    corp.price = g.market.move(sym, corp.price, next(c for c in g.market.grid[0] if c and c.price == price))


def buy(g: G1833NE, pid: str, sym: str, n: int) -> None:
    """``pid`` buys ``n`` treasury shares of ``sym`` at its current price."""
    for s in [s for s in g.ipo_shares(sym) if not s.president][:n]:
        g.transfer_share_from_ipo(pid, s, 0)
    g.change_president(sym)


def start(g: G1833NE, sym: str, pid: str, price: int) -> None:
    """Set by hand: ``pid`` starts ``sym`` at ``price`` on its home (as a Par action would)."""
    corp = g.corporations[sym]
    g.par_corporation(corp, g.market.par_cell(price), pid)
    g.transfer_share_from_ipo(pid, next(s for s in g.corp_shares(sym) if s.president), price)
    g.place_home(corp)


def unsold_six_nine(g: G1833NE) -> list[str]:
    return [t for t in g.train_order if g.card_of[t] == "6/9" and g.trains[t].owner == "depot"]


def position(*, bl_price: int = 50, ann_bw: int = 0, cy_bl: int = 0, pool_bl: int = 0,
             bl_train: bool = False) -> G1833NE:
    """BW (Ann, started at $100) reaches a B&L station (Ben, started at $50) in Boston.

    Reached with real actions up to the two starts; then set by hand: phase II, a train for BW
    (and for B&L if ``bl_train``), B&L's second station on BW's Boston city, the extra shares
    bought at the start prices (``pool_bl`` B&L shares moved to the market), B&L's price, and
    the round number (the takeover round follows the second OR of a set: highest price first).
    """
    g = new()
    g.round = g.new_stock_round()
    g.round.start()
    par(g, ANN, "BW", 100)
    par(g, BEN, "B&L", 50)
    buy(g, ANN, "BW", ann_bw)
    buy(g, CY, "B&L", cy_bl)
    for s in [s for s in g.ipo_shares("B&L") if not s.president][:pool_bl]:
        g.move_share(s, POOL)
    if bl_price != 50:
        set_price(g, "B&L", bl_price)
    g.phase_index = g.phase_index_of("II")
    g.give_train(g.trains["2-0"], "BW")
    if bl_train:
        g.give_train(g.trains["2-1"], "B&L")
    tok = g.corporations["B&L"].tokens[1]
    g.board.hexes["G22"].tokens[0].append("B&L")
    tok.used, tok.hex, tok.city = True, "G22", 0
    g.board.changed()
    g.round_num = 2
    g.round = TakeoverRound(g)
    g.round.start()
    assert g.round.acting() == ["BW"]
    return g


def takeover(shares: int = 0, target: str = "B&L") -> Takeover:
    return Takeover(entity="BW", entity_type="corporation", corporation=target, shares=shares)


def holdings(g: G1833NE, sym: str) -> dict[str, int]:
    return {p.id: g.percent_of(p.id, sym) for p in g.players} | {POOL: g.percent_of(POOL, sym)}


# ---------------------------------------------------------------------------- paying
def test_all_cash_payment() -> None:
    """Without shares the acquirer pays every outstanding target share in cash at the target's
    price, to each player and, for market shares, to the bank; it then takes the target's
    treasury, the target closes and the certificate limit falls (13 corporations in play)."""
    g = position(ann_bw=2, cy_bl=2, pool_bl=1)
    bw = g.corporations["BW"]
    cash = {p.id: p.cash for p in g.players}
    bank, bw_cash, bl_cash = g.bank, bw.cash, g.corporations["B&L"].cash
    assert g.cert_limit() == 35
    g.process(takeover())
    assert g.corporations["B&L"].closed
    assert {p.id: p.cash - cash[p.id] for p in g.players} == {ANN: 0, BEN: 100, CY: 100}
    assert g.bank - bank == 50  # the market's 10%
    assert bw.cash == bw_cash - 250 + bl_cash
    assert holdings(g, "BW") == {ANN: 40, BEN: 0, CY: 0, POOL: 0}
    assert g.cert_limit() == 33
    assert "BW takes over B&L for $250" in g.log


def test_mixed_payment_with_own_shares() -> None:
    """Paying with 3 BW shares ($100 each) for B&L at $70: each share goes to the player still
    owed the most (Cy 30% = $210, then Ben 20% = $140, then Cy again), only to a player owed at
    least $100; the rest is paid in cash, the market's 10% to the bank; no price moves."""
    g = position(bl_price=70, ann_bw=2, cy_bl=3, pool_bl=1)
    bw = g.corporations["BW"]
    cash = {p.id: p.cash for p in g.players}
    bank, bw_cash, bl_cash = g.bank, bw.cash, g.corporations["B&L"].cash
    assert bw_cash == 400  # too little for $420 in cash: at least one share is needed
    assert takeover_share_options(g, bw, g.corporations["B&L"]) == [1, 2, 3]
    g.process(takeover(3))
    assert holdings(g, "BW") == {ANN: 40, BEN: 10, CY: 20, POOL: 0}
    assert g.percent_of("BW", "BW") == 30
    assert {p.id: p.cash - cash[p.id] for p in g.players} == {ANN: 0, BEN: 40, CY: 10}
    assert g.bank - bank == 70
    assert bw.cash == bw_cash - 120 + bl_cash
    assert bw.price is not None and bw.price.price == 100 and bw.president == ANN
    assert "BW takes over B&L for 3 BW shares and $120" in g.log
    assert "Cy receives 2 BW shares and $10 for 30% of B&L" in g.log
    assert "Ben receives 1 BW share and $40 for 20% of B&L" in g.log
    assert "The bank receives $70 for 10% of B&L" in g.log


def test_shares_received_change_the_acquirers_president() -> None:
    """A player who receives more of the acquirer than its president holds becomes president
    (the president's certificate is exchanged): Cy gets 3 BW shares against Ann's 20%."""
    g = position(bl_price=100, cy_bl=4)
    bw = g.corporations["BW"]
    cash = {p.id: p.cash for p in g.players}
    g.process(takeover(4))
    assert bw.president == CY
    assert next(s for s in g.corp_shares("BW") if s.president).owner == CY
    assert holdings(g, "BW") == {ANN: 20, BEN: 10, CY: 30, POOL: 0}
    assert {p.id: p.cash - cash[p.id] for p in g.players} == {ANN: 0, BEN: 100, CY: 100}
    assert "Cy becomes the president of BW" in g.log


def test_a_takeover_payable_only_with_shares_is_offered() -> None:
    """A corporation whose cash ($200) is too little for all the target's shares ($600) may
    still take it over when its treasury shares cover the rest; the choices offer exactly the
    payable splits."""
    g = position(bl_price=100, cy_bl=4)
    bw, bl = g.corporations["BW"], g.corporations["B&L"]
    assert bw.cash == 200
    assert takeover_targets(g, bw) == [bl]
    assert takeover_share_options(g, bw, bl) == [4, 5, 6]
    assert [c.value for c in choices_for(g, "BW", "takeover")] == ["B&L"]
    labels = [c.label for c in choices_for(g, "BW", "takeover", {"corporation": "B&L"})]
    assert labels == ["pay 4 BW shares and $200", "pay 5 BW shares and $100", "pay 6 BW shares"]


def test_offer_with_shares_is_refused_or_accepted_as_offered() -> None:
    """A target with a running train may refuse; the offer names the payment, refusing changes
    no holdings, and accepting carries out exactly the offer."""
    g = position(bl_price=70, ann_bw=2, cy_bl=3, pool_bl=1, bl_train=True)
    g.process(takeover(2))
    assert g.round.acting() == ["B&L"]
    assert "BW offers to take over B&L for 2 BW shares and $220" in g.log
    refused = copy.deepcopy(g)
    refused.process(A.Pass(entity="B&L", entity_type="corporation"))
    assert not refused.corporations["B&L"].closed and refused.percent_of("BW", "BW") == 60
    g.process(AcceptTakeover(entity="B&L", entity_type="corporation"))
    assert g.corporations["B&L"].closed
    assert holdings(g, "BW") == {ANN: 40, BEN: 10, CY: 10, POOL: 0}


def test_players_never_exceed_sixty_percent_of_the_acquirer() -> None:
    """No player may hold more than 60% of the acquirer: Ann (60% of BW) is owed the most for
    her 30% of B&L but receives no BW share and is paid in cash; the shares go to Ben and Cy."""
    g = position(bl_price=100, ann_bw=4, cy_bl=2)
    for s in [s for s in g.ipo_shares("B&L") if not s.president][:3]:  # set by hand: Ann's 30%
        g.move_share(s, ANN)
    g.change_president("B&L")
    assert g.corporations["B&L"].president == ANN
    cash = {p.id: p.cash for p in g.players}
    g.process(takeover(4))
    assert holdings(g, "BW") == {ANN: 60, BEN: 20, CY: 20, POOL: 0}
    assert {p.id: p.cash - cash[p.id] for p in g.players} == {ANN: 300, BEN: 0, CY: 0}


# ---------------------------------------------------------------------------- refused
def test_more_shares_than_in_the_treasury_are_refused() -> None:
    """The acquirer can hand over only shares in its treasury (6 after Ann bought 2)."""
    g = position(ann_bw=2, cy_bl=2)
    rejected(g, takeover(7), r"BW cannot pay with 7 of its shares: only 6 in its treasury")


def test_not_enough_cash_for_the_rest_is_refused() -> None:
    """What the shares do not pay is paid in cash, and the acquirer must have it."""
    g = position(bl_price=100, cy_bl=4)
    rejected(g, takeover(0), r"BW cannot pay \$600 in cash for B&L's shares: it has \$200")
    rejected(g, takeover(3), r"BW cannot pay \$300 in cash for B&L's shares besides 3 of its shares: it has \$200")


def test_shares_nobody_may_receive_are_refused() -> None:
    """A share goes only to a player still owed at least its value: B&L at $50 is worth $100
    to Ben and to Cy, so BW ($100 a share) can pay with two shares, not three."""
    g = position(cy_bl=2, pool_bl=1)
    rejected(g, takeover(3), r"BW cannot pay with 3 of its shares: only 2 can go to B&L's shareholders")
    rejected(g, takeover(-1), r"cannot be negative")


def test_unconnected_target_is_refused() -> None:
    """Only a corporation connected by track to a station of the target may take it over."""
    g = position()
    start(g, "CV", CY, 50)  # St. Albans, far from Boston
    rejected(g, takeover(0, "CV"), r"BW cannot take over CV: it needs a running train and a track connection")


def test_state_is_unchanged_after_a_rejected_takeover() -> None:
    """A refused takeover leaves the live game exactly as it was (the engine restores its
    snapshot), and the same takeover may then be made with a payable split."""
    g = position(bl_price=100, cy_bl=4)
    before, log = state(g), list(g.log)
    for action in (takeover(0), takeover(3), takeover(9)):
        with pytest.raises(GameError):
            g.process(action)
        assert state(g) == before and g.log == log
    g.process(takeover(4))
    assert g.corporations["B&L"].closed


# ---------------------------------------------------------------------------- 6/9 cards
def test_first_two_takeovers_remove_a_six_nine_card_each() -> None:
    """The takeover game has five 6/9 cards; each of the first two takeovers removes the last
    unsold one, the third removes none (three left, as in the standard game)."""
    g = position(ann_bw=2)
    bw = g.corporations["BW"]
    assert unsold_six_nine(g) == ["6/9-0", "6/9-1", "6/9-2", "6/9-3", "6/9-4"]
    g.process(takeover())
    assert unsold_six_nine(g) == ["6/9-0", "6/9-1", "6/9-2", "6/9-3"]
    assert g.trains["6/9-4"].owner == "removed"
    assert "The takeover removes a 6/9 card from the bank (4 left)" in g.log
    start(g, "CV", BEN, 50)
    start(g, "FRR", BEN, 50)
    take_over(g, bw, g.corporations["CV"])
    assert unsold_six_nine(g) == ["6/9-0", "6/9-1", "6/9-2"]
    assert "The takeover removes a 6/9 card from the bank (3 left)" in g.log
    log_len = len(g.log)
    take_over(g, bw, g.corporations["FRR"])
    assert unsold_six_nine(g) == ["6/9-0", "6/9-1", "6/9-2"]
    assert not any("6/9" in line for line in g.log[log_len:])
    assert g.takeovers["BW"] == 3


def test_no_six_nine_card_is_removed_when_none_is_unsold() -> None:
    """Only unsold cards are removed: with every 6/9 card sold (one back in the discard pile)
    a takeover removes nothing."""
    g = position(ann_bw=2)
    for t in g.train_order:
        if g.card_of[t] == "6/9":  # set by hand: all sold, 6/9-4 discarded
            g.trains[t].owner = "discard" if t == "6/9-4" else "HR"
    g.process(takeover())
    assert g.trains["6/9-4"].owner == "discard"
    assert not any("6/9" in line for line in g.log)


def test_takeover_shares_round_trip_in_the_action_log() -> None:
    """The number of shares is part of the recorded action; an old action without it pays cash."""
    again = A.Action.from_dict(takeover(3).to_dict())
    assert isinstance(again, Takeover) and again.shares == 3
    old = A.Action.from_dict({"type": "takeover", "entity": "BW", "entity_type": "corporation",
                              "corporation": "B&L"})
    assert isinstance(old, Takeover) and old.shares == 0
