"""The computer player (engine/computer) on positions of recorded games: it buys a train when
its corporation must, saves instead of paying out into a forced train purchase, never passes
an action it may not pass, only makes moves the engine accepts, decides the same for the
same seed, buys trains below value only from who did it first; and on 1833NE positions it
issues, redeems and takes over when that pays."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from engine import actions as A
from engine.computer import decide
from engine.computer.capital import issue_decisions, redeem_decisions
from engine.computer.policy import next_train_cost, rust_imminent, underpaid_by
from engine.entities import POOL
from engine.game import Game
from engine.replay import filter_actions, game_from_export
from engine.rounds.operating import OperatingRound
from engine.titles.g1833ne.game import G1833NE
from tests.fixture_util import load_export


def position(title: str, name: str, upto: int) -> Game:
    """The recorded game ``name`` after its first ``upto`` actions."""
    export = load_export(title, name)
    game = game_from_export(export)
    for raw in filter_actions(export["actions"])[:upto]:
        game.process(A.Action.from_dict(raw), safe=False)
    return game


def _acting_corp(game: Game) -> str:
    acting = game.acting()
    assert acting and acting[0] in game.corporations and isinstance(game.round, OperatingRound)
    return acting[0]


@pytest.mark.parametrize(("name", "upto"), [("89363", 24), ("hotseat004", 75), ("51745", 314)])
def test_buys_a_train_when_its_corporation_must(name: str, upto: int) -> None:
    game = position("1856", name, upto)
    sym = _acting_corp(game)
    corp = game.corporations[sym]
    assert game.must_buy_train(corp) and not game.needs_emergency_money(corp)
    decision = decide(game, sym, seed=1)
    assert decision is not None and isinstance(decision.action, A.BuyTrain), decision
    assert "must" in decision.reason
    game.process(decision.action)
    assert corp.trains


def test_takes_a_loan_before_its_president_pays_for_a_forced_train() -> None:
    game = position("1856", "51745", 455)
    sym = _acting_corp(game)
    corp = game.corporations[sym]
    assert game.must_buy_train(corp) and game.needs_emergency_money(corp)
    decision = decide(game, sym, seed=1)
    assert decision is not None and isinstance(decision.action, A.TakeLoan)
    president = corp.president
    assert president is not None
    cash = game.player(president).cash
    game.process(decision.action)
    then = decide(game, sym, seed=1)  # then it buys the train without its president's money
    assert then is not None and isinstance(then.action, A.BuyTrain)
    game.process(then.action)
    assert game.corporations[sym].trains and game.player(president).cash == cash


def before_action(title: str, name: str, action_id: int) -> Game:
    """The recorded game ``name`` just before its action ``action_id``."""
    export = load_export(title, name)
    game = game_from_export(export)
    for raw in filter_actions(export["actions"]):
        if raw.get("id") == action_id:
            return game
        game.process(A.Action.from_dict(raw), safe=False)
    raise AssertionError(f"no action {action_id} in {name}")


@pytest.mark.parametrize(("name", "action_id", "seller", "price"),
                         [("1856_p5_s1011", 898, "CA", 550), ("1856_p4_s102", 981, "BBG", 71)])
def test_takes_its_presidents_other_corporations_only_train_rather_than_go_bankrupt(
        name: str, action_id: int, seller: str, price: int) -> None:
    """A corporation that must own a train, no bank train its president can pay for (nor a
    sale that would pay for one), and the only trains on offer are persons' corporations' and
    one of another corporation its president runs, its only train: the computer player (which
    buys nothing from a person) went bankrupt, ending the game. It now buys that train."""
    game = before_action("generated/1856", name, action_id)
    sym = _acting_corp(game)
    corp = game.corporations[sym]
    assert game.must_buy_train(corp) and not game.president_can_fund_train(corp)
    assert len(game.corp_trains(seller)) == 1 and game.corporations[seller].president == corp.president
    others = {c.sym for c in game.corporations.values() if c.president not in (None, corp.president)}
    decision = decide(game, sym, seed=1, avoid=lambda a: isinstance(a, A.BuyTrain)
                      and game.trains[a.train].owner in others)
    assert decision is not None and isinstance(decision.action, A.BuyTrain), decision
    train = game.trains[decision.action.train]
    assert (train.owner, decision.action.price) == (seller, price)
    assert decision.reason.startswith(f"buys {seller}'s only {train.name} train for ${price}: its president cannot")
    game.process(decision.action)
    assert game.corporations[sym].trains and not game.finished


@pytest.mark.parametrize(("name", "upto"), [("89363", 113), ("51745", 115), ("51745", 468)])
def test_does_not_pay_out_into_a_forced_emergency(name: str, upto: int) -> None:
    """Its trains rust within the next purchases and the treasury cannot buy the next one:
    it withholds (the recorded players paid out in two of these)."""
    game = position("1856", name, upto)
    sym = _acting_corp(game)
    corp = game.corporations[sym]
    assert "dividend" in game.action_types(sym)
    assert rust_imminent(game, corp) and corp.cash < next_train_cost(game, corp)
    decision = decide(game, sym, seed=1)
    assert decision is not None and isinstance(decision.action, A.Dividend)
    assert decision.action.kind == "withhold" and "withholds" in decision.reason


def test_pays_out_when_its_trains_last() -> None:
    game = position("1856", "hotseat001", 63)
    sym = _acting_corp(game)
    assert not rust_imminent(game, game.corporations[sym])
    decision = decide(game, sym, seed=1)
    assert decision is not None and isinstance(decision.action, A.Dividend) and decision.action.kind == "payout"


@pytest.mark.parametrize(("title", "name", "every"),
                         [("1856", "hotseat001", 3), ("1856", "51745", 13), ("1836jr56", "hotseat003", 7)])
def test_every_decision_is_accepted_and_never_passes_a_forced_action(title: str, name: str, every: int) -> None:
    """At every few positions of a recorded game, the computer player's move for whoever acts
    is accepted by the engine, and it passes only where passing is offered."""
    export = load_export(title, name)
    game = game_from_export(export)
    checked = 0
    for i, raw in enumerate(filter_actions(export["actions"])):
        acting = game.acting()
        if i % every == 0 and acting and not game.finished:
            decision = decide(game, acting[0], seed=i)
            assert decision is not None, (i, acting)
            action = decision.action
            assert game.accepts(action), (i, action.describe())
            if isinstance(action, A.Pass):
                assert "pass" in game.action_types(action.entity), (i, game.action_types(action.entity))
            if isinstance(action, A.BuyTrain) and game.trains[action.train].owner in game.corporations:
                # below value only from a corporation that did it to one of its president's
                buyer, seller = (game.corporations[s] for s in (action.entity, game.trains[action.train].owner))
                assert (action.price >= game.trains[action.train].price or seller.president == buyer.president
                        or seller.sym in underpaid_by(game, buyer.president or "")), (i, action.describe())
            assert decision.reason
            checked += 1
        game.process(A.Action.from_dict(raw), safe=False)
    assert checked > 20


def test_the_same_seed_makes_the_same_decisions() -> None:
    game = position("1856", "51745", 314)
    twin = copy.deepcopy(game)
    for _ in range(12):
        if game.finished:
            break
        a, b = decide(game, seed=5), decide(twin, seed=5)
        assert a is not None and b is not None
        assert a.action.to_dict() == b.action.to_dict() and a.reason == b.reason
        game.process(a.action)
        twin.process(b.action)


@pytest.mark.parametrize("upto", [1072, 1275])
def test_its_decisions_do_not_depend_on_the_machines_speed(monkeypatch: pytest.MonkeyPatch, upto: int) -> None:
    """Its searches are budgeted in work done, not on the wall clock: on a machine so slow that
    every look at the clock finds a second gone, it lays the same tile as on this one (dense
    late positions of a national game, where the wall clock once changed the tile laid)."""
    assert_lays_the_same_on_a_slow_clock(position("generated/1856", "1856_p5_s101", upto), monkeypatch)


def assert_lays_the_same_on_a_slow_clock(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decision at ``game`` (a tile lay) is the same when every look at the clock finds a
    second gone."""
    twin = copy.deepcopy(game)
    a = decide(game, seed=5)
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    b = decide(twin, seed=5)
    assert a is not None and b is not None and a.action.type == "lay_tile"
    assert a.action.to_dict() == b.action.to_dict() and a.reason == b.reason


def test_four_computer_players_keep_a_game_moving() -> None:
    """Four computer players, 250 actions of 1856 from the start: every move accepted, every
    invariant kept (whole games are measured with ``conductor selfplay --seats robot``)."""
    from engine.selfplay import play_seated

    report = play_seated("1856", ["robot"] * 4, 3, [], 250)
    assert report.problem in (None, "did not end within 250 actions")
    assert report.actions == 250 or report.finished
    assert report.counts["run_routes"] > 0 and report.counts["buy_train"] > 0


def test_selfplay_seats_print_each_game_and_each_policys_record(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main
    from bot.tools.selfplay import run_seated

    run_seated("1856", ["robot", "random", "random"], 1, 7, [], max_actions=40)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 seed 7: 40 actions") and "robot " in out[0] and "random " in out[0]
    assert "robot: wins 0/1" in out[-1] and "random: wins 0/1" in out[-1] and "mean value" in out[-1]
    assert main(["selfplay", "--seats", "robot,chess"]) == 2


def test_selfplay_refuses_an_option_the_title_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt option is refused, not played as the base game without a word."""
    from bot.cli import main

    assert main(["selfplay", "--title", "1833NE", "--option", "takeover", "--games", "1"]) == 2
    assert capsys.readouterr().err.strip() == "1833NE has no option takeover; its options: takeover_game"


def _after_lps_buys_cvs_train_for_a_dollar() -> Game:
    """1856 51745: LPS (another president) buys CV's 2-train for $1, as the rules allow."""
    game = position("1856", "51745", 33)
    cv_president = game.corporations["CV"].president
    assert game.acting() == ["LPS"] and cv_president is not None
    assert underpaid_by(game, cv_president) == frozenset()
    game.process(A.BuyTrain(entity="LPS", entity_type="corporation", train="2-2", price=1))
    assert underpaid_by(game, cv_president) == {"LPS"}
    return game


def _robots_play_until_cv_can(game: Game, kind: str) -> None:
    """Computer players at every seat until CV may take an action of ``kind``."""
    for n in range(200):
        entity = game.acting()[0]
        if entity == "CV" and kind in game.action_types(entity):
            return
        step = decide(game, entity, seed=n)
        assert step is not None
        game.process(step.action)
    pytest.fail(f"CV never reached its {kind} step")


def test_buys_a_train_below_value_back_from_the_corporation_that_did_it_first() -> None:
    game = _after_lps_buys_cvs_train_for_a_dollar()
    _robots_play_until_cv_can(game, "buy_train")
    lps_trains = set(game.corporations["LPS"].trains)
    decision = decide(game, "CV", seed=1)
    assert decision is not None and isinstance(decision.action, A.BuyTrain)
    assert decision.action.train in lps_trains and decision.action.price == 1
    assert "LPS bought its trains below value" in decision.reason


def test_keeps_a_trains_price_once_its_trains_are_bought_below_value() -> None:
    """CV's trains last, but others buy them for next to nothing: it withholds while its
    treasury is short of the next train (its president would pay otherwise)."""
    game = _after_lps_buys_cvs_train_for_a_dollar()
    _robots_play_until_cv_can(game, "dividend")
    cv = game.corporations["CV"]
    assert cv.cash < next_train_cost(game, cv)
    decision = decide(game, "CV", seed=1)
    assert decision is not None and isinstance(decision.action, A.Dividend) and decision.action.kind == "withhold"
    assert "others buy its trains below value" in decision.reason


# ---------------------------------------------------------------------- 1833NE


def _ne_operating(cash: int, *, pool: int = 0, lasting: bool = False) -> G1833NE:
    """1833NE: CV (Player 1, started at $100) at the start of its first turn with ``cash``,
    ``pool`` of its shares in the market and, with ``lasting``, a 7+3 train (it never rusts)."""
    from tests.g1833ne.test_1833ne import new, par, start_or, stock_round

    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    for s in [s for s in g.ipo_shares("CV") if not s.president][:pool]:
        g.move_share(s, POOL)
    start_or(g)
    if lasting:
        g.give_train(g.trains[g.train_order[-1]], "CV")
    g.corporations["CV"].cash = cash
    return g


def test_redeems_market_shares_only_with_money_beyond_its_next_train() -> None:
    """A treasury share earns for the corporation, a market share for nobody: with a lasting
    train and spare cash it redeems the most it can spare; without a lasting train, none."""
    g = _ne_operating(300, pool=3, lasting=True)
    assert "buy_shares" in g.action_types("CV")
    spare = 300 - next_train_cost(g, g.corporations["CV"])
    first = redeem_decisions(g, g.corporations["CV"])[0]
    assert isinstance(first.action, A.BuyShares) and len(first.action.shares) == 2  # 2 x $112 <= spare < 3 x $112
    assert 2 * 112 <= spare < 3 * 112 and "redeems 2 market shares" in first.reason
    trainless = _ne_operating(900, pool=3)
    assert "buy_shares" in trainless.action_types("CV")
    assert redeem_decisions(trainless, trainless.corporations["CV"]) == []


def test_issues_shares_only_for_a_train_it_cannot_pay_for() -> None:
    g = _ne_operating(200)
    assert "sell_shares" in g.action_types("CV") and next_train_cost(g, g.corporations["CV"]) < 200
    assert issue_decisions(g, g.corporations["CV"], emergency=False) == []
    g = _ne_operating(20)
    decisions = issue_decisions(g, g.corporations["CV"], emergency=False)
    assert decisions and isinstance(decisions[0].action, A.SellShares) and len(decisions[0].action.shares) == 1
    g.process(decisions[0].action)
    assert g.corporations["CV"].cash >= next_train_cost(g, g.corporations["CV"])


@pytest.mark.parametrize(("setup", "takes"), [
    ({"bl_train": True, "bl_price": 30}, True),   # a lasting train and B&L's treasury for less
    ({"ann_bw": 2, "cy_bl": 2, "pool_bl": 1}, False),  # $250 of shares for $200 of cash, no train
    ({"bl_train": True, "bl_price": 100, "cy_bl": 3}, False),  # only with 4 of its own shares
])
def test_takes_over_a_connected_corporation_only_when_it_gains(setup: dict[str, Any], takes: bool) -> None:
    from tests.g1833ne.test_1833ne_takeover import position as takeover_position

    g = takeover_position(**setup)
    decision = decide(g, "BW", seed=1)
    assert decision is not None
    assert (decision.action.type == "takeover") is takes, decision
    if takes:
        assert "takes over B&L" in decision.reason
        g.process(decision.action)
        refusal = decide(g, "B&L", seed=1)  # B&L runs a train and keeps its course: it refuses
        assert refusal is not None and isinstance(refusal.action, A.Pass)


def test_never_a_dividend_that_closes_its_corporation_when_another_keeps_it() -> None:
    """1833NE closes a corporation whose price falls to 0. CV ($10, set by hand with its run's
    revenue) would withhold to buy a second train, but withholding moves its price to 0: it
    pays out ($60 in all, more than twice its price: two columns up, to $30)."""
    from tests.g1833ne.test_1833ne import set_price

    g = _ne_operating(50)
    g.give_train(g.trains[g.train_order[0]], "CV")
    while "dividend" not in g.action_types("CV"):
        step = decide(g, "CV", seed=1)
        assert step is not None
        g.process(step.action)
    set_price(g, "CV", 10)
    g.corporations["CV"].cash = 50
    assert isinstance(g.round, OperatingRound)
    g.round.state["routes"][0]["revenue"] = 60
    decision = decide(g, "CV", seed=1)
    assert decision is not None and isinstance(decision.action, A.Dividend)
    assert decision.action.kind == "payout" and "close it" in decision.reason
    g.process(decision.action)
    price = g.corporations["CV"].price
    assert not g.corporations["CV"].closed and price is not None and price.price == 30


def _ne_share_at_10(runs: int) -> G1833NE:
    """1833NE: CV (started at $100, a 7+3 train) after its computer-played turns of ``runs``
    operating rounds, its price set to $10 by hand; Player 2 ($50, too little to start a
    corporation) to act in a stock round."""
    from tests.g1833ne.test_1833ne import set_price, start_or, stock_round

    g = _ne_operating(300, lasting=True)
    for i in range(runs):
        if i:
            start_or(g)
        while "dividend" not in g.action_types("CV"):
            step = decide(g, "CV", seed=1)
            assert step is not None
            g.process(step.action)
    stock_round(g)
    set_price(g, "CV", 10)
    g.round.index = g.round.order.index("2")
    g.player("2").cash = 50
    return g


@pytest.mark.parametrize(("runs", "buys"), [(1, False), (2, True)])
def test_buys_a_share_that_earns_half_its_price_a_run_however_far_it_fell(runs: int, buys: bool) -> None:
    """1833NE prices fall with every small dividend: CV at $10 (a tenth of its start) earns
    $30 after one round ($3 a share: not worth it) and $70 after two ($7 a share, its price
    back in two runs): the computer player buys it then."""
    from engine.computer.stock import earning

    g = _ne_share_at_10(runs)
    assert earning(g, g.corporations["CV"]) == (70 if buys else 30)
    decision = decide(g, "2", seed=1)
    assert decision is not None
    if buys:
        assert isinstance(decision.action, A.BuyShares) and decision.action.shares[0].startswith("CV")
        assert "it runs and pays" in decision.reason
    else:
        assert isinstance(decision.action, A.Pass)


def test_starts_the_corporation_whose_home_has_the_richest_places_near_it() -> None:
    """1833NE, the first stock round: every corporation may start at the same prices; the
    computer player starts one of Boston's rather than the table's first, CV in Burlington with
    no revenue near it; and of Boston's, BW rather than B&L, which may lay no track in phase I
    until a corporation buys P2 (self-play seed 115: its B&L bought three trains it could not
    run, had no money left for track and earned nothing until it closed)."""
    from engine.computer.stock import home_prospect
    from tests.g1833ne.test_1833ne import new, stock_round

    g = new(4)
    stock_round(g)
    prospects = {sym: home_prospect(g, sym) for sym in g.corporations}
    assert max(prospects, key=lambda s: prospects[s]) in ("B&L", "BW") and min(prospects.values()) == prospects["CV"]
    decision = decide(g, "1", seed=1)
    assert decision is not None and isinstance(decision.action, A.Par)
    assert g.tile_lays_per_turn(g.corporations["B&L"]) == 0 < g.tile_lays_per_turn(g.corporations["BW"])
    assert decision.action.corporation == "BW" and decision.reason == "starts BW at $70"


def test_keeps_only_half_its_train_reserve_for_a_share_that_earns_half_its_price() -> None:
    """Player 2 presides FRR (operated, no train, no cash: Player 2 keeps its $75 train as a
    reserve) and has the reserve and $5: CV at $10, earning $7 a share, is worth half the
    reserve (its dividends refill it soon, and it can be sold for the train)."""
    from engine.computer.stock import train_reserve
    from tests.g1833ne.test_1833ne import par

    g = _ne_share_at_10(2)
    g.player("2").cash = 600
    par(g, "2", "FRR", 40)
    frr = g.corporations["FRR"]
    frr.operated, frr.cash = True, 0
    g.round.index = g.round.order.index("2")
    reserve = train_reserve(g, "2")
    assert reserve == next_train_cost(g, frr) == 75
    g.player("2").cash = reserve + 5
    decision = decide(g, "2", seed=1)
    assert decision is not None and isinstance(decision.action, A.BuyShares)
    assert decision.action.shares[0].startswith("CV") and "it runs and pays" in decision.reason


def test_remembered_earnings_belong_to_one_game_and_one_position() -> None:
    """What a corporation earns is remembered per game and position: each of CV's lays on C8,
    tried and undone at the same action count, is judged on its own map (the old cache, keyed
    by the game's address and action count, answered the first lay's $30 for all, and a new
    game at a freed game's address saw that game's facts); the memory does not keep a game
    alive."""
    import gc
    import weakref

    from engine.computer.policy import trial
    from engine.computer.stock import earning
    from engine.moves.spec import base
    from engine.routing.router import best_routes

    g = _ne_operating(300, lasting=True)
    seen = []
    for rotation in (2, 3, 4, 5):
        action = A.LayTile(**base(g, "CV"), hex="C8", tile="5-0", rotation=rotation)
        found = trial(g, action, lambda g: (earning(g, g.corporations["CV"]),
                                            best_routes(g, "CV", time_budget=0.03, deterministic=True).total))
        assert found is not None and found[0] == found[1]
        seen.append(found[0])
    assert seen == [30, 0, 0, 0]
    ref = weakref.ref(g)
    del g
    gc.collect()
    assert ref() is None


def test_a_train_that_may_also_be_had_by_a_trade_in_is_bought_at_its_price() -> None:
    """1856 (generated s1511, GT before action 930, with room for a train and $2000): the D-train
    is offered once, its trade-in price in the label; the computer still considers buying it at
    the full price (it never trades a train in)."""
    from engine.computer.operating import train_decisions
    from tests.positions import at

    game = at("generated/1856", "1856_p5_s1511", 929)
    game.corp("GT").cash = 2000
    game.remove_train(game.trains["4-3"])
    bought = [d.action for d in train_decisions(game, game.corp("GT"), game.action_types("GT"))]
    assert any(isinstance(a, A.BuyTrain) and (a.train, a.price, a.exchange) == ("D-0", 1100, None)
               for a in bought)
