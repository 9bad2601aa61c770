"""The blocks bound (engine.routing.blocks): never below the best simple path, exact on trees."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.routing.blocks import blocks_of, chain_most


def _best_path(part: int, nbr: list[int], values: list[int]) -> int:
    """The most a simple path inside ``part`` collects, by trying every path."""
    best = 0

    def go(u: int, seen: int, acc: int) -> None:
        nonlocal best
        best = max(best, acc)
        x = nbr[u] & part & ~seen
        while x:
            b = x & -x
            x ^= b
            w = b.bit_length() - 1
            go(w, seen | b, acc + values[w])

    for u in range(len(nbr)):
        if part >> u & 1:
            go(u, 1 << u, values[u])
    return best


def _graph(n: int, edges: list[tuple[int, int]]) -> list[int]:
    nbr = [0] * n
    for u, v in edges:
        if u != v:
            nbr[u] |= 1 << v
            nbr[v] |= 1 << u
    return nbr


def _component(start: int, nbr: list[int]) -> int:
    comp = frontier = 1 << start
    while frontier:
        new = 0
        x = frontier
        while x:
            b = x & -x
            x ^= b
            new |= nbr[b.bit_length() - 1]
        frontier = new & ~comp
        comp |= frontier
    return comp


graphs = st.integers(1, 9).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n),
    st.lists(st.integers(0, 100), min_size=n, max_size=n)))


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_chain_bound_is_at_least_every_path_and_at_most_the_part(case: tuple[int, list[tuple[int, int]], list[int]]) -> None:
    n, edges, values = case
    nbr = _graph(n, edges)
    part = _component(0, nbr)
    got = chain_most(part, values, blocks_of(part, nbr))
    assert got >= _best_path(part, nbr, values)
    assert got <= sum(values[i] for i in range(n) if part >> i & 1)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, 10**6), min_size=n, max_size=n),
    st.lists(st.integers(0, 100), min_size=n, max_size=n))))
def test_chain_bound_is_exact_on_a_tree(case: tuple[int, list[int], list[int]]) -> None:
    # every block of a tree is one link: the best chain of blocks is the best path
    n, parents, values = case
    nbr = _graph(n, [(i, parents[i] % i) for i in range(1, n)])
    part = (1 << n) - 1
    assert chain_most(part, values, blocks_of(part, nbr)) == _best_path(part, nbr, values)


def test_blocks_of_two_loops_joined_by_a_stop() -> None:
    # 0-1-2-0 and 2-3-4-2, with 5 hanging off 4: three blocks, 2 and 4 cut stops
    nbr = _graph(6, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5)])
    blocks = {top: members for top, members in blocks_of(0b111111, nbr)}
    assert sorted(blocks_of(0b111111, nbr), key=lambda b: b[1]) == sorted(
        [(0, 0b110), (2, 0b11000), (4, 0b100000)], key=lambda b: b[1])
    assert blocks[4] == 1 << 5
    # with stops hanging off 1, 3 and 4, a path ends in two of them: 7 of the 8 stops at most
    nbr8 = _graph(8, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5), (1, 6), (3, 7)])
    assert chain_most(0b11111111, [1] * 8, blocks_of(0b11111111, nbr8)) == _best_path(0b11111111, nbr8, [1] * 8) == 7
