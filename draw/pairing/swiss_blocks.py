"""Solving a Swiss round's matching score group by score group, when that is provably exact.

This module owns one shortcut of the Swiss pairer (:mod:`.swiss`): the blossom
algorithm runs one augmentation per board over the whole graph, so its time
grows with the square of the field, and a field cut into independent blocks
is solved much faster (4,096 pairs in six score groups: about four times).
It is only taken when it gives a matching exactly as good as the whole-graph
solve; otherwise :func:`solve_by_score_groups` returns ``None`` and the caller
solves the whole graph.

Why it is exact.  The vertices are the pairs in standing order (scores never
increase along it) plus, with an odd field, the bye vertex.  Let ``v`` be the
lowest-standing bye-eligible pair, and for each boundary ``b`` between two
adjacent score levels (gap ``g_b`` half points) let ``parity_b`` be the parity
of the number of pairs above ``b``, ``v`` left out.  In any perfect matching
giving the bye to ``v``, an odd number of boards cross an odd boundary, and a
board whose scores differ by ``d = sum of the gaps it crosses`` has
``d**2 >= sum of g_b**2`` over those gaps, so the score tier (sum of ``d**2``)
is at least ``LB = sum of g_b**2 over odd boundaries``, with equality only if
no board crosses an even boundary.  We cut the field at the even boundaries,
put the bye vertex in ``v``'s block, solve each block with the caller's
weights and accept the union ``D`` only if it is perfect, gives the bye to
``v`` and has score tier ``LB``.  Then the whole-graph optimum ``O`` (weights
are lexicographic: bye tier above score tier above standing tier) also gives
the bye to ``v`` (no eligible pair stands lower), so its score tier is at most
``D``'s, i.e. exactly ``LB``, so no board of ``O`` crosses a cut; ``O``
restricted to each block is then a perfect matching of that block, no heavier
than the block's optimum, so ``weight(O) <= weight(D)``: ``D`` is optimal.

Ties between equally good matchings are broken by the order of the edges
inside each block (the caller's order), as in :mod:`.matching`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .matching import max_weight_matching

__all__ = ["solve_by_score_groups"]


def solve_by_score_groups(
    vertex_count: int,
    edges: Sequence[tuple[int, int, int]],
    score: Sequence[int],
    bye_vertex: int,
    bye_eligible: Sequence[bool],
) -> list[int] | None:
    """A maximum-weight perfect matching found block by block, or ``None``.

    ``score[i]`` (non-increasing in ``i``) is pair ``i``'s score in half points,
    ``edges`` the weighted candidate graph of :mod:`.swiss` (bye edges are
    ``(i, bye_vertex, w)``), ``bye_vertex`` is ``-1`` with an even field.
    ``None`` means the shortcut does not apply or could not be proven exact.
    """
    n = len(score)
    lowest_eligible = -1
    if bye_vertex != -1:
        lowest_eligible = max((i for i in range(n) if bye_eligible[i]), default=-1)
        if lowest_eligible == -1:
            return None
    # Boundaries p: pair p-1 above, pair p below, different scores.
    cuts: list[int] = []
    bound = 0
    for p in range(1, n):
        if score[p - 1] != score[p]:
            above = p - (1 if 0 <= lowest_eligible < p else 0)
            if above % 2 == 0:
                cuts.append(p)
            else:
                bound += (score[p - 1] - score[p]) ** 2
    if not cuts:
        return None
    # Blocks are runs of the standing order; the bye vertex joins the block of
    # the lowest eligible pair, after its pairs. Vertices get block-local numbers.
    ends = [*cuts, n]
    block_of = [0] * vertex_count
    local = [0] * vertex_count
    members: list[list[int]] = []
    start = 0
    for k, end in enumerate(ends):
        block_of[start:end] = [k] * (end - start)
        local[start:end] = range(end - start)
        members.append(list(range(start, end)))
        start = end
    if bye_vertex != -1:
        home = block_of[lowest_eligible]
        block_of[bye_vertex] = home
        local[bye_vertex] = len(members[home])
        members[home].append(bye_vertex)
    block_edges: list[list[tuple[int, int, int]]] = [[] for _ in ends]
    for i, j, w in edges:
        k = block_of[i]
        if block_of[j] == k:
            block_edges[k].append((local[i], local[j], w))
    mate = [-1] * vertex_count
    for block, block_edge_list in zip(members, block_edges):
        block_mate = max_weight_matching(len(block), block_edge_list)
        for index, partner in enumerate(block_mate):
            if partner == -1:
                return None
            mate[block[index]] = block[partner]
    if bye_vertex != -1 and mate[bye_vertex] != lowest_eligible:
        return None
    score_tier = sum((score[v] - score[u]) ** 2 for v, u in enumerate(mate[:n]) if v < u < n)
    return mate if score_tier == bound else None
