"""What one route can collect in a part of the map, bounded by its blocks (issue #24).

A route is a simple path: in a part of the map (stops joined to each other), once it leaves a
*block* (a piece that stays joined when any one stop is taken out) by a stop shared with another
block (a cut stop), it cannot come back: the stops it passes lie in the blocks along one path of
the tree the blocks and cut stops form. So no route through the part collects more than the
stops of the best such chain of blocks, which on a map left sparse by another train's route
(dead ends, loops hanging off one stop) is far less than all its stops: in NBDS's pair search it
proves about two thirds of the partner searches that find nothing before they start.
"""

from __future__ import annotations


def blocks_of(part: int, nbr: list[int]) -> list[tuple[int, int]]:
    """The blocks of the stops in ``part`` (a bit set of stops joined to each other; ``nbr[u]``:
    the stops one link from ``u``), as (top, other stops as a bit set), each after the blocks
    hanging below its other stops: a depth-first walk (Tarjan's) from the lowest stop, each
    block's top the stop it was entered by."""
    root = (part & -part).bit_length() - 1
    disc = {root: 0}
    low = {root: 0}
    stack = [root]
    out: list[tuple[int, int]] = []
    frames = [[root, nbr[root] & part, -1]]  # (stop, neighbours still to look at, parent)
    n = 1
    while frames:
        frame = frames[-1]
        v, todo = frame[0], frame[1]
        if todo:
            bit = todo & -todo
            frame[1] = todo ^ bit
            w = bit.bit_length() - 1
            d = disc.get(w)
            if d is None:
                disc[w] = low[w] = n
                n += 1
                stack.append(w)
                frames.append([w, nbr[w] & part & ~(1 << v), v])
            elif d < low[v]:
                low[v] = d
            continue
        frames.pop()
        u = frame[2]
        if u < 0:
            break
        lv = low[v]
        if lv < low[u]:
            low[u] = lv
        if lv >= disc[u]:  # nothing below v reaches above u: v's subtree and u close a block
            members = 0
            while True:
                x = stack.pop()
                members |= 1 << x
                if x == v:
                    break
            out.append((u, members))
    return out


def chain_most(part: int, values: list[int], blocks: list[tuple[int, int]]) -> int:
    """The most (sum of ``values``) of the stops a simple path in ``part`` may visit: the best
    chain of its ``blocks`` (:func:`blocks_of`), each block counting all its stops."""
    if not blocks:  # a single stop
        return values[(part & -part).bit_length() - 1]
    # per stop, the best two chains going down from it into blocks below it (its own value out)
    down: dict[int, tuple[int, int]] = {}
    best = 0
    for top, members in blocks:
        total = d1 = d2 = 0
        x = members
        while x:
            b = x & -x
            x ^= b
            i = b.bit_length() - 1
            total += values[i]
            got = down.get(i)
            if got is not None:
                if got[0] > d1:
                    d1, d2 = got[0], d1
                elif got[0] > d2:
                    d2 = got[0]
        # a path whose highest block is this one: in from below one stop, out below another
        if total + values[top] + d1 + d2 > best:
            best = total + values[top] + d1 + d2
        val = total + d1
        a, b2 = down.get(top, (0, 0))
        if val > a:
            down[top] = (val, a)
        elif val > b2:
            down[top] = (a, val)
    for u, (a, b2) in down.items():  # a path through u between two blocks below it
        if values[u] + a + b2 > best:
            best = values[u] + a + b2
    return best
