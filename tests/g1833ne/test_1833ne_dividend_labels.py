"""1833NE's dividend buttons say what the engine pays: a play-test found "pay half $110" on the
half dividend, which pays $50 ($5 a share) and keeps $60; a payout of $105 read "$10.5 a share"
where each share gets $10 and the corporation keeps $5."""

from __future__ import annotations

import copy
import re

import pytest

from bot.texts.game import decision_buttons
from engine import actions as A
from engine.moves.operating import dividend_choices
from tests.computer.test_computer_1833ne import _dividend_position
from tests.g1833ne.test_1833ne_last_differences import _cv_poor

WORDS = {"payout": "pay out", "half": "pay half", "withhold": "withhold"}


@pytest.mark.parametrize("revenue", [5, 60, 105, 110, 200, 370])
def test_each_dividend_choice_says_what_the_engine_then_pays(revenue: int) -> None:
    g = _cv_poor(100)  # CV at $100: 2 shares Player 1, 1 each Players 2 and 3, 6 in its treasury
    g.round.state["routes"] = [{"revenue": revenue}]  # its run, set by hand as in _last_differences
    labels = {c.value: c.label for c in dividend_choices(g, "CV", {})}
    assert list(labels) == ["payout", "half", "withhold"]
    for kind, label in labels.items():
        after = copy.deepcopy(g)
        cv = after.corporations["CV"]
        before = {p.id: p.cash for p in after.players}
        after.pay_dividend(after.round, cv, kind)
        per_share = after.player("3").cash - before["3"]  # Player 3 holds one share
        assert after.player("1").cash - before["1"] == 2 * per_share
        paid = 10 * per_share  # the ten shares (the treasury's earn for CV)
        if kind == "withhold":
            assert paid == 0 and label.startswith(f"withhold ${revenue},"), label
        elif paid == revenue:
            assert label.startswith(f"{WORDS[kind]} ${revenue} (${per_share} a share)"), label
        elif paid:
            assert label.startswith(f"{WORDS[kind]} ${paid} of ${revenue} (${per_share} a share)"), label
        else:
            assert label.startswith(f"{WORDS[kind]} $0 of ${revenue},"), label
        assert "$0 a share" not in label and ".5 a share" not in label
        old, new = g.corporations["CV"].price, cv.price
        assert old is not None and new is not None
        assert (f"price ${old.price} -> ${new.price}" in label) == (new.price != old.price), label
        if paid < revenue:  # CV keeps some of its run: the label says what its treasury comes to
            assert label.endswith(f"treasury ${cv.cash}") or f"treasury ${cv.cash}," in label, label


def test_the_half_dividend_button_says_what_the_engine_then_does() -> None:
    """At a real dividend step (CV after its run; its price and treasury then set by hand), the
    button's words are the engine's: the half paid, a share's part, the treasury after."""
    g = _dividend_position(500)
    revenue = sum(r["revenue"] for r in g.round.state["routes"])
    buttons = {b.command.split()[1]: b.label for b in decision_buttons(g, 7) if b.command.startswith("/dividend")}
    assert list(buttons) == ["kind:payout", "kind:half", "kind:withhold"]
    g.process(A.Dividend(entity="CV", entity_type="corporation", kind="half"))
    said = next(line for line in g.log if line.startswith("CV pays half of "))
    match = re.match(r"CV pays half of \$(\d+) \(\$(\d+)\) = \$(\d+) per share", said)
    assert match is not None and int(match[1]) == revenue, said
    assert buttons["kind:half"].startswith(f"Pay half ${match[2]} of ${revenue} (${match[3]} a share)")
    assert buttons["kind:half"].endswith(f"treasury ${g.corporations['CV'].cash}"), (buttons, said)
