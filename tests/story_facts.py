"""The facts of an 18xx.games game log, and whether our story tells them.

The reference logs are stored gzipped in tests/fixtures/story/ (``{"id", "message"}`` per line,
made with the 18xx.games engine). Each line of a kind we know (a dividend, a price move, a tile,
a token, a train, a phase, ...) becomes a fact: its kind, its action id and the words that must
appear in what we tell for that action (the action before or after counts too: a log line can be
written by the action that ends a step). Runs are summed per corporation and action, since we
may tell a corporation's runs in one line.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

NUM = r"\$?(-?\d+(?:\.\d+)?)(?:[ \u00a0]F)?"

Words = Callable[[re.Match[str]], list[str]]
KINDS: list[tuple[str, str, Words | None]] = [
    ("payout", rf"^(\S+) pays out {NUM} = {NUM} per share", lambda m: [m[1], m[3]]),
    ("withhold", rf"^(\S+) withholds {NUM}", lambda m: [m[1], m[2]]),
    ("price", rf"^(\S+)'s share price moves \w+ from {NUM} to {NUM}", lambda m: [m[1], m[2], m[3]]),
    ("token", r"^(\S+) places a token on ([A-Z]\d+)", lambda m: [m[1], m[2]]),
    ("tile", r"lays tile #(\S+) with rotation \d on ([A-Z]\d+)", lambda m: [m[1], m[2]]),
    ("train", rf"^(\S+) buys a (\S+) train for {NUM}", lambda m: [m[1], m[3]]),
    ("run", rf"^(\S+) runs a \S+ train for {NUM}", None),
    ("phase", r"^-- Phase (\S+)", lambda m: ["phase", m[1]]),
    ("rust", r"^-- Event: .*rust", lambda m: ["rust"]),
    ("president", r"becomes the president of (\S+)", lambda m: [m[1], "president"]),
    ("close", r"^(\S+) closes$", lambda m: [m[1], "clos"]),
    ("loan", rf"^(\S+) takes a loan and receives {NUM}", lambda m: [m[1], "loan"]),
    ("payoff", rf"^(\S+) pays off a loan for {NUM}", lambda m: [m[1], "loan"]),
    ("interest", rf"^(\S+) pays {NUM} interest", lambda m: [m[1], "interest", m[2]]),
    ("bankrupt", r"goes bankrupt", lambda m: ["bankrupt"]),
    ("income", rf"collects {NUM} from", lambda m: [m[1]]),
    ("sale", rf"sells (?:a |\d+ )?\d+% shares? of (\S+) and receives {NUM}", lambda m: [m[1], m[2]]),
    ("share_buy", rf"buys a \d+% share of (\S+) from the \S+ for {NUM}", lambda m: [m[1], m[2]]),
    ("par", rf"pars (\S+) at {NUM}", lambda m: [m[1], m[2]]),
    ("destination", r"^-- (\S+) has destinated", lambda m: [m[1], "destin"]),
    ("round", r"^-- (Stock|Operating) Round", lambda m: [m[1].lower() + " round"]),
]
_PLAIN = {"clos", "destin", "loan", "interest", "rust", "bankrupt", "president", "phase"}


@dataclass(frozen=True)
class Fact:
    kind: str
    action: int
    words: tuple[str, ...]
    message: str


@dataclass
class Count:
    told: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    total: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    untold: list[Fact] = field(default_factory=list)


def facts(log: Iterable[dict[str, object]]) -> list[Fact]:
    out: list[Fact] = []
    runs: dict[tuple[int, str], int] = defaultdict(int)
    for entry in log:
        msg, aid = str(entry["message"]).strip(), int(str(entry["id"]))
        for kind, pattern, words in KINDS:
            m = re.search(pattern, msg)
            if m is None:
                continue
            if words is None:
                runs[(aid, m[1])] += int(float(m[2]))
            else:
                out.append(Fact(kind, aid, tuple(words(m)), msg))
            break
    for (aid, corp), total in runs.items():
        out.append(Fact("run", aid, (corp, str(total)), f"{corp} runs for {total} in total"))
    return out


def word_pattern(word: str) -> re.Pattern[str]:
    """A number matches as a whole number (14 and 14.0 alike); a name as a whole name."""
    if re.fullmatch(r"-?\d+(?:\.\d+)?", word):
        value = float(word)
        alts = {word} | ({str(int(value))} if value == int(value) else set())
        return re.compile(r"(?<![\d.])(?:" + "|".join(map(re.escape, sorted(alts))) + r")(?:\.0)?(?!\d)")
    if word in _PLAIN or " " in word:
        return re.compile(re.escape(word), re.I)
    return re.compile(r"(?<![A-Za-z0-9&])" + re.escape(word) + r"(?![A-Za-z0-9&])")


def count(log: Iterable[dict[str, object]], story: Iterable[dict[str, object]]) -> Count:
    """Which facts of ``log`` our ``story`` (``{"id", "lines"}`` per action) tells, by kind."""
    told: dict[int, str] = defaultdict(str)
    for entry in story:
        lines = entry.get("lines") or []
        assert isinstance(lines, list)
        told[int(str(entry["id"]))] += "\n" + "\n".join(map(str, lines))
    result = Count()
    for fact in facts(log):
        result.total[fact.kind] += 1
        text = told.get(fact.action - 1, "") + told.get(fact.action, "") + told.get(fact.action + 1, "")
        if all(word_pattern(w).search(text) for w in fact.words):
            result.told[fact.kind] += 1
        else:
            result.untold.append(fact)
    return result
