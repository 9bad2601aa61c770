"""1856's national actions reach players on Discord and at the terminal: ``/borrow`` (a trainless
national borrows a train for its run) and ``/remove`` (the national gives up a station over its
token limit) offer exactly the trains and stations the engine accepts."""

from __future__ import annotations

from bot.choices import action_choices
from engine import actions as A
from engine.moves import MOVES, choices_for
from engine.moves.track import read_city
from tests.positions import at, raw_action

GJR = "generated/1836jr56"
SELF56 = "selfplay/1856"


def test_borrow_offers_the_train_the_national_borrowed() -> None:
    g = at(GJR, "1836jr56_p2_s202", 825)
    played = raw_action(GJR, "1836jr56_p2_s202", 826)
    offered = [c.value for c in action_choices(g, "MESS", MOVES["borrow"], "train", {})]
    assert isinstance(played, A.BorrowTrain) and played.train in offered
    assert offered == [c.value for c in choices_for(g, "MESS", "borrow_train")]
    for tid in offered:
        assert g.accepts(A.BorrowTrain(entity="MESS", entity_type="corporation", train=tid))


def test_remove_offers_the_national_stations_to_give_up() -> None:
    g = at(SELF56, "1856_p6_national_station_removed", 1972)
    played = raw_action(SELF56, "1856_p6_national_station_removed", 1973)
    offered = [read_city(g, c.value) for c in action_choices(g, "CGR", MOVES["remove"], "city", {})]
    assert isinstance(played, A.RemoveToken) and played.city in offered  # the city ids the choices name
    assert g.accepts(played)


def test_no_borrow_or_remove_offered_outside_their_moment() -> None:
    g = at(GJR, "1836jr56_p2_s202", 10)
    assert action_choices(g, "MESS", MOVES["borrow"], "train", {}) == []
    assert action_choices(g, "CGR", MOVES["remove"], "city", {}) == []
