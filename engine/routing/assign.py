"""Branch and bound over the listed routes (step 3 of :mod:`engine.routing.router`): disjoint
routes, at most one per train, of greatest total revenue."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from operator import neg

from .clock import Clock
from .extension import Extender
from .graph import Link
from .listing import Candidate
from .long import bit_users

_GREEDY_STARTS = 8  # first routes tried by the greedy start
_GREEDY_SCAN = 4096  # candidates the greedy start looks through for each further train


class Space:
    """The candidates one kind of train may run, best revenue for that kind first.

    Trains whose revenue does not depend on the train (the 1856 family) share one space,
    told apart only by how many stops they reach (``fits``); for 1833NE each side (``N/M``,
    ``N+s``, ...) scores routes its own way and has a space of its own.  ``glob[j]`` is the
    index in the list of all candidates of local candidate j, ``rev[j]`` its revenue here."""

    def __init__(self, glob: list[int], rev: list[int]):
        self.glob = glob
        self.rev = rev
        self.n = len(glob)
        self.fits: dict[int, int] = {}
        self.users: dict[int, int] = {}  # track bit -> local candidates running on it
        self.conf: dict[int, int] = {}  # global candidate -> local candidates sharing track with it
        self.link_conf: dict[int, int] = {}  # id(link) -> local candidates sharing track with it


class Assigner:
    """Disjoint candidates, at most one per train, of greatest total revenue.

    ``trains``: (space, stops reached) per train.  Starts from a greedy assignment
    (``best_total``); keeps only candidates that could beat it (revenue above it minus what
    the other trains could earn at best).  Sets of candidates are Python ints used as bit
    sets, one per space, over that space's list (best revenue first, so the lowest set bit
    is the best member).  ``Space.users[b]``: the candidates running on track bit b;
    ``Space.fits[d]``: those a train running d stops can take."""

    def __init__(self, cands: list[Candidate], spaces: list[tuple[list[int], list[int]]],
                 trains: list[tuple[int, int]], clock: Clock, extender: Extender | None = None,
                 optimistic: dict[int, int] | None = None,
                 scan: list[tuple[list[int], list[int]]] | None = None):
        self.cands = cands
        self.clock = clock
        # the lists the greedy start looks through, per space (default: the spaces themselves)
        self.scan = scan
        # route extension: revenues in the spaces include each candidate's optimistic gain
        # (``optimistic``); a complete assignment is valued with the exact extensions
        self.extender = extender
        self.optimistic = optimistic or {}
        self.spaces = [Space(g, r) for g, r in spaces]
        for sp in self.spaces:  # stop counts each space's trains reach
            sp.fits = {d: 0 for s, d in trains if self.spaces[s] is sp}
        self.trains = trains
        lens = [len(c.stops) for c in cands]
        tops = [next((sp.rev[j] for j in range(sp.n) if lens[sp.glob[j]] <= d), 0)
                for sp, d in ((self.spaces[s], d) for s, d in trains)]
        self.best_total, self.greedy = self._greedy(lens)
        others = sum(tops) - min(tops, default=0)
        floor = self.best_total - others
        n_total = 0
        for sp in self.spaces:
            cut = sp.n
            while cut and sp.rev[cut - 1] <= floor:
                cut -= 1
            sp.glob, sp.rev, sp.n = sp.glob[:cut], sp.rev[:cut], cut
            n_total += cut
        self.ok = bool(trains)
        # spaces whose candidates must be narrowed after placing train i: those of trains after i
        self.later: list[list[int]] = [sorted({s for s, _ in trains[i + 1:]}) for i in range(len(trains))]
        needed = {s for s, _ in trains[1:]}
        for si, sp in enumerate(self.spaces):
            n = sp.n
            # (a reach every candidate fits in needs no bit set built one by one)
            fits = {d: bytearray((n + 8) // 8) for d in sp.fits if not all(lens[g] <= d for g in sp.glob)}
            if fits:
                for j, g in enumerate(sp.glob):
                    for d, arr in fits.items():
                        if lens[g] <= d:
                            arr[j >> 3] |= 1 << (j & 7)
            sp.fits = {d: int.from_bytes(fits[d], "little") if d in fits else (1 << n) - 1 for d in sp.fits}
            if si not in needed:  # only the first train takes from it: conflicts never asked
                continue
            sp.users = bit_users([cands[g].mask for g in sp.glob])
            if clock.expired(work=n):
                self.ok = False  # out of time: the greedy assignment stands
                break
        self.best: list[int | None] | None = None  # None: the greedy assignment is still the best
        self.chosen: list[int | None] = [None] * len(trains)
        self.same_after = [next((n for n, t in enumerate(trains[i + 1:]) if t != trains[i]), len(trains) - i - 1)
                           for i in range(len(trains))]
        self.nodes = 0

    def _greedy(self, lens: list[int]) -> tuple[int, list[tuple[int, int] | None]]:
        """A good feasible assignment: for each of the best few routes of the first train,
        the other trains take the best routes still free, in order (among the first few
        thousand of their space)."""
        trains, cands = self.trains, self.cands
        best_total: int = 0
        best: list[tuple[int, int] | None] = [None] * len(trains)
        if not trains:
            return best_total, best
        s0, d0 = trains[0]
        glob0, rev0 = (self.spaces[s0].glob, self.spaces[s0].rev) if self.scan is None else self.scan[s0]
        masks = [c.mask for c in cands]
        for j0 in range(min(len(glob0), _GREEDY_STARTS)):
            g0 = glob0[j0]
            if lens[g0] > d0:
                continue
            picks: list[tuple[int, int] | None] = [(g0, rev0[j0])]
            used = cands[g0].mask
            total = rev0[j0]
            for s, d in trains[1:]:
                sglob, srev = (self.spaces[s].glob, self.spaces[s].rev) if self.scan is None else self.scan[s]
                pick = None
                for at in range(min(len(sglob), _GREEDY_SCAN)):
                    g = sglob[at]
                    if lens[g] <= d and not masks[g] & used:
                        pick = (g, srev[at])
                        break
                picks.append(pick)
                if pick is not None:
                    used |= cands[pick[0]].mask
                    total += pick[1]
            total = self.actual(total, [p[0] for p in picks if p is not None])
            if total > best_total:
                best_total, best = total, picks
        return best_total, best

    def actual(self, total: int, globs: list[int]) -> int:
        """``total`` (with optimistic extension gains) with the exact extensions instead."""
        if self.extender is None:
            return total
        opt = self.optimistic
        return total - sum(opt.get(g, 0) for g in globs) + self.extender.best(globs)[0]

    def conflicts(self, s: int, g: int, keep: bool = True) -> int:
        """Space ``s``'s candidates sharing track with candidate ``g``: the union, over g's
        links, of those sharing track with the link. Kept per candidate when ``keep``: the
        first train's candidates are each placed once, so theirs are not (one bit per
        candidate each: kept, tens of thousands of them took hundreds of megabytes)."""
        sp = self.spaces[s]
        got = sp.conf.get(g)
        if got is None:
            got = 0
            for link in self.cands[g].links:
                got |= self._link_conflicts(sp, link)
            if keep:
                sp.conf[g] = got
        return got

    @staticmethod
    def _link_conflicts(sp: Space, link: Link) -> int:
        """``sp``'s candidates sharing track with ``link`` (kept per link: routes share links)."""
        lc = sp.link_conf.get(id(link))
        if lc is None:
            lc = 0
            for b in link.bits:
                lc |= sp.users.get(b, 0)
            sp.link_conf[id(link)] = lc
        return lc

    def _last_pairs(self, i: int, x: int, acc: int, m: int, rest_other: int) -> None:
        """Trains i and i + 1, the last two, of one kind: for each candidate j in ``x`` on
        train i (best first, while it may pay), the best candidate after it that the last train
        may run beside it, if the pair beats the best total. Only candidates earning enough are
        looked at, so the bit sets narrowed link by link are those candidates' length, not the
        whole list's; the candidates are read off ``x`` once (not a bit set step per candidate).
        ``x``: the candidates both trains may run (fitting their reach, from the first allowed)."""
        sp = self.spaces[self.trains[i][0]]
        rev, glob, cands, link_conf = sp.rev, sp.glob, self.cands, sp.link_conf
        upto: dict[int, int] = {}  # per number of candidates earning enough: those of ``x``
        for j in set_bits(x):
            self.nodes += 1
            if self.nodes & 255 == 0 and self.clock.expired(work=256):
                return
            r = rev[j]
            if acc + r * (m + 1) + rest_other <= self.best_total:
                break
            need = self.best_total - acc - r  # the last train must earn more than this
            hi = bisect_left(rev, -need, key=neg) if need >= 0 else sp.n  # those earning more: [0, hi)
            found = None
            if hi > j + 1:
                top = upto.get(hi)
                if top is None:
                    top = upto[hi] = x & ((1 << hi) - 1)
                cand = top >> (j + 1) << (j + 1)
                for link in cands[glob[j]].links:
                    lc = link_conf.get(id(link))
                    cand ^= cand & (self._link_conflicts(sp, link) if lc is None else lc)
                    if not cand:
                        break
                if cand:
                    found = (cand & -cand).bit_length() - 1
            total = acc + r + (rev[found] if found is not None else 0)
            if total > self.best_total:
                self.best_total = total
                self.chosen[i], self.chosen[i + 1] = j, found
                self.best = list(self.chosen)
                self.chosen[i + 1] = None

    def bound(self, allowed: list[int], i: int) -> int:
        """Upper bound on what trains i.. can add using candidates in ``allowed``: each
        takes the best candidate it may run that is still compatible with the routes placed."""
        total = 0
        spaces = self.spaces
        for s, d in self.trains[i:]:
            sp = spaces[s]
            x = allowed[s] & sp.fits[d]
            if x:
                total += sp.rev[(x & -x).bit_length() - 1]
        return total

    def run(self) -> tuple[int, list[tuple[int, int] | None]]:
        """Best total and, per train in ``trains`` order, its route (index into the list of all
        candidates) and revenue there (optimistic extension gain included), or None."""
        if self.ok and not self.clock.out:
            self.search(0, [(1 << sp.n) - 1 for sp in self.spaces], 0, 0)
        if self.best is None:
            return self.best_total, self.greedy
        out: list[tuple[int, int] | None] = []
        for (s, _), j in zip(self.trains, self.best, strict=True):
            sp = self.spaces[s]
            out.append(None if j is None else (sp.glob[j], sp.rev[j]))
        return self.best_total, out

    def search(self, i: int, allowed: list[int], acc: int, first: int) -> None:
        trains = self.trains
        k = len(trains)
        if i == k:
            if acc > self.best_total and self.extender is not None:
                acc = self.actual(acc, [self.spaces[s].glob[j] for (s, _), j in zip(trains, self.chosen, strict=True)
                                        if j is not None])
            if acc > self.best_total:
                self.best_total = acc
                self.best = list(self.chosen)
            return
        clock = self.clock
        s, d = trains[i]
        sp = self.spaces[s]
        same_next = i + 1 < k and trains[i + 1] == trains[i]
        rest = self.bound(allowed, i + 1)
        # the m trains of this kind after it take candidates after its own (earning no more)
        m = self.same_after[i]
        rest_other = self.bound(allowed, i + 1 + m) if m else rest
        x = (allowed[s] & sp.fits[d]) >> first << first
        rev, glob = sp.rev, sp.glob
        later = self.later[i]
        if same_next and i == k - 2 and self.extender is None:
            self._last_pairs(i, x, acc, m, rest_other)
            if clock.out:
                return
            x = 0  # (every candidate of train i was tried there)
        while x:
            self.nodes += 1
            if self.nodes & 255 == 0 and clock.expired(work=256):
                return
            low = x & -x
            x ^= low
            j = low.bit_length() - 1
            r = rev[j]
            if acc + r * (m + 1) + rest_other <= self.best_total:
                break
            g = glob[j]
            narrowed = list(allowed)
            for t in later:
                narrowed[t] = allowed[t] & ~self.conflicts(t, g, i > 0)
            if same_next:
                narrowed[s] &= -(low << 1)
            if i + 1 < k and acc + r + self.bound(narrowed, i + 1) <= self.best_total:
                continue
            self.chosen[i] = j
            self.search(i + 1, narrowed, acc + r, j + 1 if same_next else 0)
            if clock.out:
                return
        self.chosen[i] = None
        if acc + rest > self.best_total:
            # train i runs nothing; trains of its kind after it then run nothing either
            self.search(i + 1, allowed, acc, sp.n if same_next else 0)


def set_bits(x: int) -> Iterator[int]:
    """The indexes of the bits set in ``x``, lowest first (read off its binary digits)."""
    digits = format(x, "b")[::-1]
    at = digits.find("1")
    while at >= 0:
        yield at
        at = digits.find("1", at + 1)
