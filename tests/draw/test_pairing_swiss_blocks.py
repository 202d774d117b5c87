"""The Swiss matching solved score group by score group: same optimum as the whole graph."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from draw.pairing.matching import matching_weight, max_weight_matching
from draw.pairing.swiss import SwissOrder, _Solver, default_window
from draw.pairing.swiss_blocks import solve_by_score_groups


def swiss_graph(n: int, rng: random.Random, window: int | None = None):
    """A Swiss candidate graph with a random history: (vertex_count, weighted edges, score, bye, eligible)."""
    rounds = rng.randint(0, 5)
    score = sorted((rng.randint(0, 2 * rounds) for _ in range(n)), reverse=True)
    forbidden: list[set[int]] = [set() for _ in range(n)]
    for _ in range(rng.randint(0, n * rounds // 2)):
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            forbidden[i].add(j)
            forbidden[j].add(i)
    odd = n % 2 == 1
    bye_vertex = n if odd else -1
    eligible = [rng.random() < 0.7 for _ in range(n)]
    if not any(eligible):
        eligible[0] = True
    solver = _Solver(n, score, forbidden, bye_vertex, eligible)
    if window is None:
        window = 2 * max(len(f) for f in forbidden) + 8
    edges = solver.weigh(solver.candidate_edges(min(window, n), set()), rematch_penalty=False)
    return n + odd, edges, score, bye_vertex, eligible


@given(st.integers(min_value=2, max_value=60), st.integers(0, 10**6), st.sampled_from([2, 4, None]))
def test_blocks_reach_the_whole_graph_optimum(n, seed, window):
    vertex_count, edges, score, bye_vertex, eligible = swiss_graph(n, random.Random(seed), window)
    blocks = solve_by_score_groups(vertex_count, edges, score, bye_vertex, eligible)
    if blocks is None:
        return
    whole = max_weight_matching(vertex_count, edges)
    assert all(u != -1 for u in blocks)
    assert all(blocks[blocks[v]] == v for v in range(vertex_count))
    assert all(u != -1 for u in whole)  # a perfect matching exists whenever the blocks found one
    assert matching_weight(edges, blocks) == matching_weight(edges, whole)


def test_shortcut_taken_on_even_score_groups():
    """32 pairs after two rounds without draws: groups of 8, 16, 8, all cut apart."""
    score = [4] * 8 + [2] * 16 + [0] * 8
    forbidden: list[set[int]] = [set() for _ in range(32)]
    solver = _Solver(32, score, forbidden, -1, [True] * 32, SwissOrder.NEIGHBOUR)
    edges = solver.weigh(solver.candidate_edges(default_window([]), set()), rematch_penalty=False)
    mate = solve_by_score_groups(32, edges, score, -1, [True] * 32)
    assert mate == [i ^ 1 for i in range(32)]  # Monrad order 1-2, 3-4, ...

    # The default (top half against bottom half) is cut apart the same way.
    fold = _Solver(32, score, forbidden, -1, [True] * 32)
    edges = fold.weigh(fold.candidate_edges(default_window([]), set()), rematch_penalty=False)
    mate = solve_by_score_groups(32, edges, score, -1, [True] * 32)
    groups = [(0, 8), (8, 24), (24, 32)]
    expected = [0] * 32
    for start, end in groups:
        half = (end - start) // 2
        for k in range(start, start + half):
            expected[k], expected[k + half] = k + half, k
    assert mate == expected  # 1-5, 2-6, 3-7, 4-8 in each score group


def test_shortcut_refused_when_it_cannot_be_proven():
    # Groups of 3, 4 and 3 pairs: both boundaries have an odd count above, nothing to cut.
    score = [4, 4, 4, 2, 2, 2, 2, 0, 0, 0]
    solver = _Solver(10, score, [set() for _ in range(10)], -1, [True] * 10)
    edges = solver.weigh(solver.candidate_edges(12, set()), rematch_penalty=False)
    assert solve_by_score_groups(10, edges, score, -1, [True] * 10) is None
    # An even top group whose two pairs have met: it cannot be paired on its own, both
    # must float, so the blocks fail and the whole graph is left to the caller.
    score = [4, 4, 2, 2]
    forbidden = [{1}, {0}, set(), set()]
    solver = _Solver(4, score, forbidden, -1, [True] * 4)
    edges = solver.weigh(solver.candidate_edges(10, set()), rematch_penalty=False)
    assert solve_by_score_groups(4, edges, score, -1, [True] * 4) is None
    assert max_weight_matching(4, edges) == [2, 3, 0, 1]  # 1-3, 2-4: two floaters
