"""The computer player watches the train rush: when the bank trains the other corporations
could buy before its next turn would end all its trains, it pays less (or nothing) to keep
money for the train it will then need."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine import actions as A
from engine.computer import decide
from engine.computer import operating as O
from engine.computer.policy import ends_on, last_revenues, train_price, train_rush
from engine.entities import Corporation
from engine.game import Game
from engine.titles.registry import new_game

DATA = Path(__file__).parent / "data"


def _recorded(name: str) -> dict[str, Any]:
    with gzip.open(DATA / f"{name}.json.gz", "rt") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def _replayed(record: dict[str, Any], upto: int) -> Game:
    names = [(str(i + 1), f"Player {i + 1}") for i in range(record["players"])]
    game = new_game(record["title"], names, record["options"], record["seed"])
    for raw in record["actions"][:upto]:
        game.process(A.Action.from_dict(raw), safe=False)
    return game


RUSH_GAME = "1833ne_5p_s8_rush"  # all-computer 1833NE, seed 8, five players, before the foresight
DIVIDEND = 499  # A&StL's dividend: a single 3+3, $80 run, the 6/9 cards sold, 7+3s next


def test_it_withholds_when_the_others_can_make_its_only_train_obsolete_before_its_next_turn() -> None:
    """A&StL ($322, one 3+3, which the first 7+3 makes obsolete) ran for $80. Its policy before
    the foresight paid out: saving could not reach the $1000 of a 7+3 within its runs. FRR
    could buy a 7+3 before A&StL's next turn (and did, in the recorded game): now it withholds."""
    record = _recorded(RUSH_GAME)
    game = _replayed(record, DIVIDEND)
    assert game.acting() == ["A&StL"] and "dividend" in game.action_types("A&StL")
    corp = game.corporations["A&StL"]
    [train] = game.corp_trains("A&StL")
    assert ends_on(game, train) == "7+3"
    rush = train_rush(game, corp)
    assert rush.ends_in == 1 and rush.trains and rush.trains[0].name == "7+3"
    assert rush.cost_then == train_price(game, rush.trains[-1]) > corp.cash + O._revenue(game)
    # FRR's cash and its latest run reach a 7+3 (B&L's cash alone does)
    frr = game.corporations["FRR"]
    assert frr.cash < 1000 <= frr.cash + last_revenues(game)["FRR"] and train_price(game, rush.trains[0]) == 1000

    before = O._policy_dividend(game, corp)  # the policy without the foresight
    assert before is not None and getattr(before.action, "kind", None) == "payout"
    assert record["actions"][DIVIDEND]["kind"] == "payout"  # what the game recorded
    chosen = decide(game, "A&StL", seed=1)
    assert chosen is not None and isinstance(chosen.action, A.Dividend) and chosen.action.kind == "withhold"
    assert "before its next turn" in chosen.reason

    # the recorded game went on: FRR bought the first 7+3, A&StL's 3+3 ran once more and left,
    # and A&StL bought a 7+3 with emergency issues and its president's money
    pid = corp.president or ""
    paid = 0
    for raw in record["actions"][DIVIDEND:]:
        cash = game.player(pid).cash
        game.process(A.Action.from_dict(raw), safe=False)
        if raw["type"] == "buy_train" and raw["entity"] == "A&StL":
            paid = cash - game.player(pid).cash
    assert game.trains["7+3-0"].owner == "FRR"
    assert [t.name for t in game.corp_trains("A&StL")] == ["7+3"]
    assert any("A&StL issues" in line and "in an emergency" in line for line in game.log)
    assert paid > 400  # its president's share of the 7+3


def test_a_rush_needs_buyers_who_can_pay() -> None:
    """The same position with the others' money gone (their treasuries and their presidents'
    cash in the bank): no run of theirs pays for a 7+3, nobody could buy one before A&StL's
    next turn, its 3+3 lasts until then, and it pays out as before."""
    record = _recorded(RUSH_GAME)
    game = _replayed(record, DIVIDEND)
    corp = game.corporations["A&StL"]
    for c in game.corporations.values():
        if c is not corp:
            game.bank += c.cash
            c.cash = 0
    for p in game.players:
        if p.id != corp.president:
            game.bank += p.cash
            p.cash = 0
    price = train_price(game, game.upcoming_trains()[0])
    assert max(last_revenues(game).values()) < price
    rush = train_rush(game, corp)
    assert rush.trains == () and rush.ends_in is None
    decision = decide(game, "A&StL", seed=1)
    assert decision is not None and isinstance(decision.action, A.Dividend) and decision.action.kind == "payout"


LASTING = 153  # StL&A's dividend: a single 2+2 card, five 4/7 cards left, the 6/9 after them


def test_it_saves_for_a_lasting_train_before_the_others_have_bought_the_last_one() -> None:
    """StL&A ($25, one 2+2 card that the first 6/9 makes obsolete, $70 a run) with the five
    4/7 cards (its 3+3 side $230, lasting until the 7+3) left before the 6/9. Its policy
    before the foresight paid out ($25 never reaches $230), and the recorded game went on:
    the others bought the 4/7 cards, StL&A withheld too late, the 6/9 made its 2+2 obsolete
    and its president went bankrupt. The others could buy the last 4/7 within a few of its
    turns, which its runs kept would beat: now it withholds."""
    record = _recorded(RUSH_GAME)
    game = _replayed(record, LASTING)
    assert game.acting() == ["StL&A"] and "dividend" in game.action_types("StL&A")
    corp: Corporation = game.corporations["StL&A"]
    [train] = game.corp_trains("StL&A")
    assert ends_on(game, train) == "6/9"
    rush = train_rush(game, corp, O.RUSH_TURNS)
    assert rush.lasting_price == 230 and rush.lasting_gone_in is not None
    revenue = O._revenue(game)
    assert corp.cash + rush.lasting_gone_in * revenue >= rush.lasting_price > corp.cash + revenue

    before = O._policy_dividend(game, corp)
    assert before is not None and getattr(before.action, "kind", None) == "payout"
    assert record["actions"][LASTING]["kind"] == "payout"
    chosen = decide(game, "StL&A", seed=1)
    assert chosen is not None and isinstance(chosen.action, A.Dividend) and chosen.action.kind == "withhold"
    assert "outlive its own" in chosen.reason

    # what the recorded game shows: its next two runs earned as much, so withholding from here
    # it would have had the $230 at its third turn, when a 4/7 card was still in the bank;
    # paying out, it bought none, and its president went bankrupt after the 6/9 came
    cash, pid = corp.cash, corp.president or ""
    runs: list[int] = []
    cards_then = 0
    for raw in record["actions"][LASTING:]:
        if raw["type"] == "dividend" and raw["entity"] == "StL&A":
            runs.append(O._revenue(game))
            if len(runs) == 3:
                cards_then = sum(1 for t in game.upcoming_trains() if t.name == "4/7")
        game.process(A.Action.from_dict(raw), safe=False)
    assert cash + sum(runs[:3]) >= 230 and cards_then > 0
    assert not any(t.name == "4/7" for t in game.trains.values() if t.owner == "StL&A")
    assert game.player(pid).bankrupt
