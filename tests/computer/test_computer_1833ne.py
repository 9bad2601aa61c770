"""The computer player in 1833NE (issue #27): a decision's route searches stop when the router
work it is allowed is spent, and it decides the same on a fast and a slow machine; decisions
after the one taken are not worked out; a corporation whose trains may not run and which may
lay no track buys no more; a corporation others buy trains from for next to nothing withholds
for the next train when its president could not pay for it (1833NE has no loans); a
corporation saves over several runs for a train it will need soon, so that four computer
players get past phase III."""

from __future__ import annotations

from typing import Any

import pytest

from engine import actions as A
from engine.computer import decide
from engine.computer import operating as O
from engine.computer.policy import needs_train_money, next_train_cost
from engine.game import Game
from engine.selfplay import play_seated
from engine.titles.g1833ne.game import G1833NE
from tests.computer.test_computer_player import assert_lays_the_same_on_a_slow_clock
from tests.g1833ne.test_1833ne import new, par, start_or, stock_round


def _random_game(seed: int, actions: int) -> Game:
    """1833NE after ``actions`` moves of four random players."""
    out: list[Game] = []
    play_seated("1833NE", ["random"] * 4, seed, [], actions, game_out=out)
    return out[0]


def _count_searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each route search the computer player's operating decisions make (a spy: the search runs)."""
    searches: list[int] = []
    search = O.best_routes

    def counted(*args: Any, **kwargs: Any) -> Any:
        searches.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(O, "best_routes", counted)
    return searches


def test_a_lay_decision_searches_routes_only_as_far_as_its_work_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """BW's lays (random seed 7, action 168): with the allowance it makes eight searches (now,
    later, three trials of two), where an unlimited one makes 14 for the same tile; 1833NE's
    router clock does not count extension searches, so each is charged at least
    EXTENDED_SEARCH_WORK and gets a small budget."""
    game = _random_game(7, 168)
    assert game.acting() == ["BW"] and "lay_tile" in game.action_types("BW") and game.extends_routes
    work = O.RouteWork(game)
    assert work.budget == O.EXTENDED_TRIAL_BUDGET and work.charge == O.EXTENDED_SEARCH_WORK
    searches = _count_searches(monkeypatch)
    capped = O.lay_decisions(game, game.corporations["BW"])
    assert len(searches) == 8
    searches.clear()
    monkeypatch.setattr(O, "DECISION_WORK", 100.0)
    unlimited = O.lay_decisions(game, game.corporations["BW"])
    assert len(searches) == 14
    assert capped and [d.action.to_dict() for d in capped[:1]] == [d.action.to_dict() for d in unlimited[:1]]


def test_a_corporation_saving_for_a_train_lays_track_that_pays_for_itself_in_a_run() -> None:
    """1833NE charges $20 for every lay. BW (random seed 7, action 168: $25, three 2 trains that
    rust, the next train $140) is saving for a train; a lay leaving it $5 still goes ahead when
    its routes earn at least the $20 more (computer corporations saving for a train never built
    track before); every lay it keeps earns its cost back in one run."""
    game = _random_game(7, 168)
    bw = game.corporations["BW"]
    assert needs_train_money(game, bw) and bw.cash - 20 < next_train_cost(game, bw)
    decisions = O.lay_decisions(game, bw)
    assert decisions and decisions[0].reason == "lays N23 on G22: routes earn $20 more"
    assert game.corporations["BW"].cash == 25  # (trials leave ``bw`` a stale copy: read afresh)
    game.process(decisions[0].action)
    assert game.corporations["BW"].cash == 5
    for d in decisions:  # (every lay kept earns its cost back in one run)
        assert "routes earn" in d.reason


def test_a_corporation_saving_for_a_train_places_a_station_that_pays_for_itself_in_a_run() -> None:
    """StL&A (random seed 11, action 309: $80, two 2 trains that rust, the next train $230)
    places its $80 station in Rutland, which earns its routes $80 more a run; saving for the
    train it passed (an all-computer game's BW passed up its $40 station in Worcester, +$110 a
    run, three turns running)."""
    game = _random_game(11, 309)
    stla = game.corporations["StL&A"]
    assert needs_train_money(game, stla) and next_train_cost(game, stla) == 230 and stla.cash == 80
    decision = decide(game, seed=1)
    assert decision is not None and isinstance(decision.action, A.PlaceToken)
    assert decision.reason == "places a station in C12 Rutland, $80, leaves $0: routes earn $80 more"


def test_route_work_is_charged_per_search_and_spent() -> None:
    """Every search is charged (a refused one too); once the allowance is gone it is spent."""
    game = _random_game(7, 144)
    corp = game.corporations["BW"]
    work = O.RouteWork(game, allowance=2 * O.EXTENDED_SEARCH_WORK)
    trains = list(game.runnable_trains(corp))
    assert trains
    first = work.revenue(game, "BW", trains)
    assert not work.spent and work.left <= O.EXTENDED_SEARCH_WORK
    assert work.revenue(game, "BW", trains) == first and work.spent
    assert O.RouteWork(game).revenue(game, "BW", []) == 0


def test_its_1833ne_decisions_do_not_depend_on_the_machines_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """B&L's lay (random seed 7, action 75): on a machine so slow that every look at the
    clock finds a second gone it lays the same tile: its searches count work, not time."""
    assert_lays_the_same_on_a_slow_clock(_random_game(7, 75), monkeypatch)


def test_decisions_after_the_one_taken_are_not_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """B&L (random seed 7, action 75) may also redeem, buy a private or a ferry: it lays a
    tile, and the ferries' route searches (and the redemption's trials) are never made; a
    position where nothing is laid still considers the ferries."""
    from engine.computer import capital

    asked: list[str] = []
    for module, name in ((O, "special_buy_decisions"), (capital, "redeem_decisions")):
        real = getattr(module, name)

        def spy(*args: Any, _real: Any = real, _name: str = name) -> Any:
            asked.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, spy)
    game = _random_game(7, 75)
    assert {"special_buy", "buy_shares", "lay_tile"} <= set(game.action_types("B&L"))
    decision = decide(game, seed=5)
    assert decision is not None and decision.action.type == "lay_tile" and asked == []
    game = _random_game(7, 111)
    decision = decide(game, seed=5)
    assert decision is not None and isinstance(decision.action, A.Pass) and asked == ["special_buy_decisions"]


def _bl_with_a_train(cash: int) -> G1833NE:
    """B&L (Player 1, started at $100) at its train step in phase I, owning a 2 train, with
    ``cash``; nobody has bought P2, so it may lay no track and its trains may not run."""
    g = new()
    stock_round(g)
    par(g, "1", "B&L", 100)
    start_or(g)
    train = next(g.trains[t] for t in g.train_order if g.trains[t].owner == "depot")
    g.give_train(train, "B&L")
    g.corporations["B&L"].cash = cash
    return g


def test_buys_no_more_trains_for_a_corporation_whose_trains_cannot_run() -> None:
    """Self-play seed 115: the robot's B&L bought two 3/5 trains beside its forced one while
    its trains could not run and it could lay no track, had nothing left for track and earned
    nothing until it closed. Now it keeps its cash; once a corporation has bought P2 it buys a
    train to earn more."""
    g = _bl_with_a_train(600)
    bl = g.corporations["B&L"]
    assert not g.can_run_routes(bl) and "buy_train" in g.action_types("B&L")
    assert O.train_decisions(g, bl, g.action_types("B&L")) == []
    decision = decide(g, "B&L", seed=1)
    assert decision is not None and isinstance(decision.action, A.Pass)
    assert decision.reason == "buys no train: it keeps its cash"
    g.p2_bought_key = g.round_key()
    bought = O.train_decisions(g, g.corporations["B&L"], g.action_types("B&L"))
    assert bought and isinstance(bought[0].action, A.BuyTrain) and "to earn more" in bought[0].reason


def _dividend_position(president_cash: int) -> G1833NE:
    """CV (Player 1, started at $100, two 2 trains) at its dividend in the second round, after
    FRR (Player 2) bought a third of its trains for $1, as the rules allow; then by hand its
    price at half its start, its treasury empty and Player 1 with ``president_cash``."""
    from engine.computer.policy import underpaid_by
    from tests.g1833ne.test_1833ne import set_price

    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    par(g, "2", "FRR", 100)
    start_or(g)
    depot = [g.trains[t] for t in g.train_order if g.trains[t].owner == "depot"]
    for t in depot[:2]:
        g.give_train(t, "CV")
    bought = False
    for n in range(300):
        entity = g.acting()[0]
        if entity == "FRR" and "buy_train" in g.action_types("FRR") and not bought:
            assert underpaid_by(g, "1") == frozenset()
            g.process(A.BuyTrain(entity="FRR", entity_type="corporation", train=depot[0].id, price=1))
            bought = True
            continue
        if bought and entity == "CV" and "dividend" in g.action_types("CV"):
            break
        step = decide(g, entity, seed=n)
        assert step is not None
        g.process(step.action)
    else:
        pytest.fail("CV never reached its dividend after FRR bought its train")
    set_price(g, "CV", 50)
    g.corporations["CV"].cash = 0
    g.player("1").cash = president_cash
    return g


@pytest.mark.parametrize(("president_cash", "withholds"), [(0, True), (5000, False)])
def test_withholds_for_a_train_others_may_buy_away_when_its_president_cannot_pay(
        president_cash: int, withholds: bool) -> None:
    """Self-play seed 103: the robot's StL&A (price fallen from $60 to $30) paid out while
    others bought its trains for $1; then it had none, its president could not pay for the
    next, and the robot went bankrupt. Now, with its price fallen, it withholds when its
    president could not pay for the next train, and pays out when he could."""
    from engine.computer.operating import dividend_decision
    from engine.computer.policy import underpaid_by

    g = _dividend_position(president_cash)
    cv = g.corporations["CV"]
    assert underpaid_by(g, "1") == frozenset({"FRR"})
    assert cv.cash < next_train_cost(g, cv)
    decision = dividend_decision(g, cv)
    assert decision is not None
    assert decision.action.kind == ("withhold" if withholds else "payout"), decision  # type: ignore[attr-defined]
    if withholds:
        assert "more than its president has" in decision.reason


def _cv_at_its_dividend(taken: int, cash: int) -> G1833NE:
    """CV (Player 1, started at $100, two 2-trains) at its first dividend, its run $30; the
    bank's first ``taken`` trains taken out of the game (the 2-trains become obsolete with the
    first 4/7 card: after 11 bank sales, less ``taken``) and ``cash`` in its treasury."""
    g = new()
    stock_round(g)
    par(g, "1", "CV", 100)
    start_or(g)
    for t in g.upcoming_trains()[:2]:
        g.give_train(t, "CV")
    for n in range(100):
        entity = g.acting()[0]
        if entity == "CV" and "dividend" in g.action_types("CV"):
            break
        step = decide(g, entity, seed=n)
        assert step is not None
        g.process(step.action)
    else:
        pytest.fail("CV never reached its dividend")
    for t in g.upcoming_trains()[:taken]:
        t.owner = "rusted"
    g.corporations["CV"].cash = cash
    assert sum(r["revenue"] for r in g.round.state["routes"]) == 30
    return g


@pytest.mark.parametrize(("taken", "cash", "kind", "why"), [
    (0, 0, "payout", "pays out $30"),  # its trains last (11 bank sales)
    (8, 0, "withhold", "withholds $30 towards a train ($140): its trains rust soon"),  # 3 sales
    (8, 90, "half", "pays half of $30, keeping $28 towards a train ($140): its trains rust soon"),
    (8, 100, "payout", "pays out $30"),  # two payouts ($24 each for its treasury shares) pay the rest
    (5, 0, "payout", "pays out $30"),  # one 2-train left in the bank: its trains last (6 sales)
    (6, 0, "withhold", "withholds $30 towards a train ($140): the next train starts a phase and its trains"
                       " rust soon after"),  # 5 sales, the next one starting phase II
])
def test_saves_over_several_runs_for_a_train_it_will_need_soon(taken: int, cash: int, kind: str, why: str) -> None:
    """It withheld only when one run, or two while its trains rust within two bank sales, bought
    the next train: in an all-computer game every corporation paid out in phase III and none
    could pay $640 for the first 6/9 card. Now, when its trains rust within three bank sales
    (or none lasts and the next train starts a phase), it withholds when five runs buy the
    train, and pays half, or out, once two runs of what that keeps do."""
    from engine.computer.operating import dividend_decision

    g = _cv_at_its_dividend(taken, cash)
    cv = g.corporations["CV"]
    assert next_train_cost(g, cv) == (75 if taken < 6 else 140)
    decision = dividend_decision(g, cv)
    assert decision is not None and (decision.action.kind, decision.reason) == (kind, why)  # type: ignore[attr-defined]


def test_four_computer_players_get_past_phase_iii() -> None:
    """An all-computer 1833NE game of four players ended when the bank broke in phase III: the
    corporations paid out everything and never bought the next train. Saving for it, they buy
    6/9 cards and the game reaches phase IV."""
    out: list[Game] = []
    report = play_seated("1833NE", ["robot"] * 4, 1, [], 20000, game_out=out)
    assert report.problem is None and report.finished
    assert "IV" in report.phases
    assert any(t.name in ("6/9", "5+3") for t in out[0].trains.values() if t.owner != "depot")
