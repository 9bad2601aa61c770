"""1833NE values no source gives (issue #16): one table per game, set by the host.

The rules summary names only one bonus (Boston-Montreal: $150 in phases I-II, $200 in
III-IV) and says there are five ferries ($40) with "New" and "Last" bonuses; the 18xx.games
data marks bonuses, ferries, P4 and P5 as ``# todo``.  Everything else here is a guess:
the other bonus pairs and the phase-V values, the ferry ports and values, and how many
$1,000 notes are set aside (when the bank counts as empty).  The guesses are defaults only;
every game shows its table marked "provisional: set from your rulebook", and the host may
set any entry before the first operating round.

A game's settings travel as entries in its optional rules (so they are stored and exported
with it): ``provisional:<key>=<value>``, no spaces or commas, e.g.
``provisional:bonus:G22-I14=direct:50/50/80/80/0``, ``provisional:ferry=20``,
``provisional:new=20``, ``provisional:last=20``, ``provisional:ports=G22/I14/C26/E26/I26``,
``provisional:notes=2``.  :func:`parse_settings` reads what a host types.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ... import actions as A
from ...errors import BAD_OPTION, GameError

PREFIX = "provisional:"
SET_ACTION = "set_provisional"  # the action changing the values in play (SetProvisional)
PHASES = ("I", "II", "III", "IV", "V")
KINDS = ("direct", "cross")
SCALARS = {  # key -> (attribute, what it is, lowest, highest)
    "ferry": ("ferry_value", "each ferry's value on a route", 0, 500),
    "new": ("ferry_new", 'the "New" bonus of the most recently bought ferry', 0, 500),
    "last": ("ferry_last", 'the "Last" bonus of the fifth ferry bought (instead of "New")', 0, 500),
    "notes": ("thousand_notes", "the $1,000 notes set aside (the bank is empty with that much left)", 0, 5),
}
FERRY_COUNT = 5
BONUS_PLACE_KINDS = ("city", "offboard")


@dataclass(frozen=True)
class Bonus:
    """A connection bonus between two places (hex ids), by phase I-V.  ``direct``: both
    places among the stops a train counts; ``cross``: a route may also be extended to one."""

    a: str
    b: str
    kind: str
    values: tuple[int, int, int, int, int]
    facts: frozenset[str] = frozenset()  # phases whose value a source states

    @property
    def between(self) -> tuple[str, str]:
        return self.a, self.b

    def value_in(self, phase: str) -> int:
        return self.values[PHASES.index(phase)] if phase in PHASES else 0

    def key(self) -> str:
        return "bonus:" + "-".join(sorted((self.a, self.b)))

    def same_pair(self, other: Bonus) -> bool:
        return {self.a, self.b} == {other.a, other.b}


@dataclass(frozen=True)
class ProvisionalTable:
    """One game's values for what the sources leave open, and which the host set."""

    bonuses: tuple[Bonus, ...]
    ferry_ports: tuple[str, ...]
    ferry_value: int
    ferry_new: int
    ferry_last: int
    thousand_notes: int
    set_by_host: frozenset[str] = field(default_factory=frozenset)

    @property
    def bank_reserve(self) -> int:
        return 1000 * self.thousand_notes

    def host_set(self, key: str) -> bool:
        return key in self.set_by_host


# The guesses (defaults).  Only Boston-Montreal I-IV (and its kind) is from the rules
# summary; see notes.md, "Provisional values".
DEFAULT = ProvisionalTable(
    bonuses=(
        Bonus("G22", "B3", "direct", (150, 150, 200, 200, 100), frozenset({"I", "II", "III", "IV", "kind"})),
        Bonus("G22", "I14", "direct", (50, 50, 80, 80, 0)),
        Bonus("B3", "I14", "cross", (60, 60, 100, 100, 50)),
        Bonus("A6", "G22", "cross", (40, 40, 60, 0, 0)),  # the bonus P4 doubles in phases I-III
        Bonus("A28", "G22", "cross", (0, 0, 50, 80, 100)),
    ),
    # the map's ferry docks: Boston's and Portland's harbour nodes, the port icons C28 (New
    # Haven) and E28 (Norwich), the blue terminal J25 beside Hyannis
    ferry_ports=("G22", "I14", "C26", "E26", "I26"),
    ferry_value=20,
    ferry_new=20,
    ferry_last=20,
    thousand_notes=2,
)


# ---------------------------------------------------------------------------- reading
def place_hex(name: str, data: Any) -> str:
    """A hex id from a hex id or a place name ("Boston", "New York", "Ogdensburg")."""
    raw = name.strip()
    hexes = set(_place_hexes(data))
    if raw.upper() in hexes:
        return raw.upper()
    key = _squash(raw)
    names = data.LOCATION_NAMES
    exact: list[str] = sorted({h for h, n in names.items() if _squash(n) == key and h in hexes})
    starts = sorted({h for h, n in names.items() if _squash(n).startswith(key) and h in hexes}) if key else []
    found = exact or starts
    if len(found) != 1:
        known = ", ".join(sorted({names[h] for h in hexes if h in names}))
        what = "is ambiguous" if found else "is not a place on the map"
        raise GameError(f"{raw!r} {what}; name a hex (like G22) or one of: {known}", BAD_OPTION)
    return found[0]


def _place_hexes(data: Any) -> list[str]:
    """Hexes that may hold a bonus or a ferry: those with a city, town or off-board."""
    out = []
    for groups in data.HEXES.values():
        for hexes, code in groups.items():
            if any(k in code for k in ("city=", "town=", "offboard=")):
                out += list(hexes)
    return out


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _number(key: str, raw: str, lo: int, hi: int) -> int:
    raw = raw.strip().lstrip("$")
    if not raw.isdigit() or not lo <= int(raw) <= hi:
        raise GameError(f"{key} needs a whole number from {lo} to {hi}, not {raw!r}", BAD_OPTION)
    return int(raw)


def _bonus_value(key: str, raw: str) -> tuple[str | None, tuple[int, int, int, int, int]]:
    kind = None
    if ":" in raw:
        kind, raw = raw.split(":", 1)
        kind = kind.strip().lower()
        if kind not in KINDS:
            raise GameError(f"{key}: the kind is direct or cross, not {kind!r}", BAD_OPTION)
    parts = raw.split("/")
    if len(parts) != len(PHASES):
        raise GameError(f"{key} needs five values, one per phase I/II/III/IV/V, like 50/50/80/80/0", BAD_OPTION)
    v1, v2, v3, v4, v5 = (
        _number(f"{key} (phase {p})", v, 0, 2000) for p, v in zip(PHASES, parts, strict=True)
    )
    return kind, (v1, v2, v3, v4, v5)


EXAMPLE = "Boston-Portland=50/50/80/80/0 ferry=20 new=20 last=20 ports=G22,I14,C26,E26,I26 notes=2"


def _split_entries(text: str) -> list[str]:
    """Entries separated by ``;`` (or new lines); without those by spaces, where a word
    without ``=`` belongs to the next entry's key ("New York-Boston=...")."""
    if ";" in text or "\n" in text:
        return [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    out: list[str] = []
    pending: list[str] = []
    for word in text.split():
        pending.append(word)
        if "=" in word:
            out.append(" ".join(pending))
            pending = []
    if pending:
        raise GameError(
            f"cannot read {' '.join(pending)!r}: write key=value (separate entries with ; when a "
            f"value has spaces), e.g. {EXAMPLE}"
        , BAD_OPTION)
    return out


def parse_settings(text: str, data: Any) -> list[str]:
    """What a host typed (``Boston-Portland=50/50/80/80/0 ferry=30 ports=G22,I14,...``) as
    canonical option entries; GameError naming the first thing that is wrong."""
    entries = []
    for part in _split_entries(text.strip()):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise GameError(f"cannot read {part!r}: write key=value, e.g. {EXAMPLE}", BAD_OPTION)
        entries.append(_canonical(key, value.strip(), data))
    if not entries:
        raise GameError(f"nothing to set: write key=value, e.g. {EXAMPLE}", BAD_OPTION)
    return merge_entries([], entries)


def _canonical(key: str, value: str, data: Any) -> str:
    low = key.strip().lower()
    if low in SCALARS:
        _, _, lo, hi = SCALARS[low]
        return f"{PREFIX}{low}={_number(low, value, lo, hi)}"
    if low == "ports":
        ports = [place_hex(p, data) for p in re.split(r"[,/+]", value) if p.strip()]
        if len(ports) != FERRY_COUNT or len(set(ports)) != FERRY_COUNT:
            raise GameError(f"ports needs {FERRY_COUNT} different places, one per ferry", BAD_OPTION)
        return f"{PREFIX}ports=" + "/".join(ports)
    if low.startswith("bonus:"):
        low = key.strip()[len("bonus:") :]
    else:
        low = key.strip()
    pair = [p for p in re.split(r"\s*-\s*|\s+to\s+", low) if p]
    if len(pair) != 2:
        raise GameError(
            f"unknown setting {key!r}: use a pair like Boston-Portland, or one of "
            f"{', '.join([*SCALARS, 'ports'])}"
        , BAD_OPTION)
    a, b = (place_hex(p, data) for p in pair)
    if a == b:
        raise GameError(f"{key}: a bonus needs two different places", BAD_OPTION)
    kind, values = _bonus_value(key.strip(), value)
    shown = f"{kind}:" if kind else ""
    return f"{PREFIX}bonus:{'-'.join(sorted((a, b)))}={shown}{'/'.join(map(str, values))}"


def entry_key(entry: str) -> str:
    return entry[len(PREFIX) :].split("=", 1)[0]


def is_entry(option: str) -> bool:
    return option.startswith(PREFIX)


def merge_entries(options: Iterable[str], new: Iterable[str]) -> list[str]:
    """``options`` with each of ``new`` replacing an entry of the same key (order kept)."""
    out = list(options)
    for entry in new:
        key = entry_key(entry)
        out = [o for o in out if not (is_entry(o) and entry_key(o) == key)]
        out.append(entry)
    return out


def table_from_options(options: Iterable[str], data: Any) -> ProvisionalTable:
    """The defaults with the entries among a game's optional rules applied."""
    table = DEFAULT
    bonuses = list(table.bonuses)
    changes: dict[str, Any] = {}
    host: set[str] = set()
    for option in options:
        if not is_entry(option):
            continue
        key, _, value = option[len(PREFIX) :].partition("=")
        canonical = _canonical(key, value, data)  # validates (an edited export must not slip through)
        key = entry_key(canonical)
        value = canonical.split("=", 1)[1]
        host.add(key)
        if key in SCALARS:
            changes[SCALARS[key][0]] = int(value)
        elif key == "ports":
            changes["ferry_ports"] = tuple(value.split("/"))
        else:
            a, b = key[len("bonus:") :].split("-")
            kind, values = _bonus_value(key, value)
            old = next((x for x in bonuses if {x.a, x.b} == {a, b}), None)
            bonus = Bonus(
                old.a if old else a, old.b if old else b, kind or (old.kind if old else "direct"), values
            )
            bonuses = [bonus if x is old else x for x in bonuses] if old else [*bonuses, bonus]
    return replace(table, bonuses=tuple(bonuses), set_by_host=frozenset(host), **changes)


# ---------------------------------------------------------------------------- showing
def place_name(hid: str, data: Any) -> str:
    names = data.LOCATION_NAMES
    return {"A6": "Ogdensburg", "A12": "D&H"}.get(hid) or names.get(hid) or hid


def bonus_label(b: Bonus, data: Any) -> str:
    return f"{place_name(b.a, data)}-{place_name(b.b, data)} ({b.kind})"


def source_of(table: ProvisionalTable, key: str, facts: frozenset[str] = frozenset()) -> str:
    if table.host_set(key):
        return "set by the host"
    if facts >= set(PHASES):
        return "rules summary"
    if facts:
        known = [p for p in PHASES if p in facts]
        missing = [p for p in PHASES if p not in facts]
        return f"summary {_span(known)}; {_span(missing)} provisional"
    return "provisional"


def _span(phases: list[str]) -> str:
    """ "I-IV" for consecutive phases, else "I/III"."""
    idx = [PHASES.index(p) for p in phases]
    if len(phases) > 1 and idx == list(range(idx[0], idx[0] + len(idx))):
        return f"{phases[0]}-{phases[-1]}"
    return "/".join(phases)


def table_rows(table: ProvisionalTable, data: Any) -> list[list[str]]:
    """Rows ``[what, I, II, III, IV, V, source]`` for pictures and messages."""
    rows = []
    for b in table.bonuses:
        rows.append([bonus_label(b, data), *(str(v) for v in b.values), source_of(table, b.key(), b.facts)])
    ferry_phases = ("I", "II", "III")  # ferries are removed in phase IV (summary)
    for key, label in (
        ("ferry", "Ferry (each)"),
        ("new", 'Ferry "New" bonus'),
        ("last", 'Ferry "Last" bonus'),
    ):
        value = getattr(table, SCALARS[key][0])
        rows.append(
            [label, *(str(value) if p in ferry_phases else "-" for p in PHASES), source_of(table, key)]
        )
    return rows


def summary_lines(table: ProvisionalTable, data: Any, fmt: Any = "${}".format) -> list[str]:
    """The table as message lines (``/game new``, ``/game rules``)."""
    lines = ["Bonuses in phases I/II/III/IV/V:"]
    for b in table.bonuses:
        lines.append(
            f"- {bonus_label(b, data)} {'/'.join(map(str, b.values))} ({source_of(table, b.key(), b.facts)})"
        )
    parts = [
        f"+{fmt(table.ferry_value)} each ({source_of(table, 'ferry')})",
        f'"New" +{fmt(table.ferry_new)} ({source_of(table, "new")})',
        f'"Last" +{fmt(table.ferry_last)} ({source_of(table, "last")})',
    ]
    lines.append("Ferries (phases I-III): " + ", ".join(parts))
    lines.append(ports_line(table, data) + f" ({source_of(table, 'ports')})")
    lines.append(bank_line(table) + f" ({source_of(table, 'notes')})")
    return lines


def ports_line(table: ProvisionalTable, data: Any) -> str:
    return "Ferry ports: " + ", ".join(f"{place_name(h, data)} {h}" for h in table.ferry_ports)


def bank_line(table: ProvisionalTable) -> str:
    n = table.thousand_notes
    return (
        f"Bank: {n} $1,000 note{'s' if n != 1 else ''} set aside; it counts as empty with "
        f"${table.bank_reserve:,} left"
    )


def entry_text(entry: str, data: Any, fmt: Any = "${}".format) -> str:
    """ "Boston-Portland (cross) $50/$50/$80/$80/$0", "ferry $30", "ports Boston, ...", "notes 3"."""
    key, _, value = entry[len(PREFIX) :].partition("=")
    if key in SCALARS:
        return f"{key} {value}" if key == "notes" else f"{key} {fmt(int(value))}"
    if key == "ports":
        return "ports " + ", ".join(place_name(h, data) for h in value.split("/"))
    a, b = key[len("bonus:") :].split("-")
    kind, values = _bonus_value(key, value)
    shown = f" ({kind})" if kind else ""
    return f"{place_name(a, data)}-{place_name(b, data)}{shown} " + "/".join(fmt(v) for v in values)


def entries_text(entries: Iterable[str], data: Any, fmt: Any = "${}".format) -> str:
    return "; ".join(entry_text(e, data, fmt) for e in entries)


# ---------------------------------------------------------------------------- fixed decisions
# What no source settles and the engine decides (not settable): shown by ``/game rules`` so that
# players see them, each with its source; docs/rules-deviations.md lists them with the rule text.
DECISIONS = (
    ('"Last" ferry bonus', 'once no ferry is left for sale, the most recently bought ferry carries "Last" '
     'instead of "New" (summary: "New oder Last", "New" always on the last one bought)'),
    ("P5", "its corporation's owner chooses which of its ferries P5 doubles (/assign), for good "
     '(summary: "verdoppelt den Wert einer der Fähren ...; kann nicht neu zugewiesen werden")'),
    ("6/9 cards in the takeover game", "each of the first two takeovers removes an unsold 6/9 card "
     '(summary: "5 im Takeover-Spiel, wo einige Übernahmen eine davon entfernen")'),
    ("Takeover payment", "every share outside the target's treasury at the target's price, in cash or partly "
     "in the acquirer's treasury shares (at its price); the target may refuse unless it has no running train "
     '(summary: "indem sie alle ihre umlaufenden Aktien mit Geld oder eigenen Aktien zurückkauft")'),
    ("Takeover-game corporations", "names invented (B&M, NH, MEC, CR, GT): the summary gives only "
     '"5 Gesellschaften mit variablem Startort"'),
    ("Corporation without a president", "after a bankruptcy nobody with 20% takes over: it runs its best "
     "routes, withholds, buys the cheapest train it can (summary silent; 18xx.games receivership)"),
    ("N/M trains and bonuses", "connection bonuses and ferries count on every stop an N/M train visits "
     '(all M, not only the N it counts; summary: "besucht bis zu M Orte und zählt N davon", silent on bonuses)'),
)


def decision_lines() -> list[str]:
    return ["Fixed decisions (no source settles them; docs/rules-deviations.md):",
            *(f"- {what}: {decision}" for what, decision in DECISIONS)]


@dataclass(frozen=True)
class SetProvisional(A.Action):
    """New provisional values (entries as :func:`parse_settings` returns them)."""

    type: ClassVar[str] = SET_ACTION
    entries: tuple[str, ...] = ()

    def describe(self, money: Callable[[int], str] = str) -> str:
        return "changes the provisional values"
