"""Maximum-weight, maximum-cardinality matching on general graphs (rustworkx).

This module owns the one graph algorithm the pairing package needs: given a
sparse undirected graph with *integer* edge weights, find, among all matchings
of maximum cardinality, one of maximum total weight.  The work is done by
rustworkx's compiled ``max_weight_matching`` (Edmonds' blossom with the
primal-dual method, after Galil 1986, the same algorithm as networkx's, in
Rust, exact on integers: weights are 128-bit inside).  This module only adapts
the calling convention: vertices ``0..n-1`` and ``(i, j, weight)`` tuples in,
a ``mate`` list out.

Determinism and ties
--------------------
The result is a function of the input alone (no randomness, no hash order):
the graph is handed to rustworkx with vertex ``k`` as node ``k`` and the edges
as numbered in the caller's order (a repeated vertex pair keeps its first
position and its heaviest weight), and rustworkx's search visits them in
that order.  When several matchings are equally good, the one returned is the
one that search reaches: ties are broken by the order of the edges, which is
why callers list them in a fixed order (the Swiss pairer: by standing of the
first pair, then of the second).  A caller that needs a particular tie-break
encodes it in the weights (the Swiss pairer's lowest tier, the distance in the
standing order, is such an encoding).
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx

__all__ = ["max_weight_matching", "matching_weight", "WEIGHT_LIMIT"]

# rustworkx keeps weights and doubled dual variables in 128-bit integers; stay
# far enough below 2**127 that its sums of duals cannot overflow.
WEIGHT_LIMIT = 2**100


def matching_weight(edges: Sequence[tuple[int, int, int]], mate: Sequence[int]) -> int:
    """Total weight of the matching ``mate`` (as returned by :func:`max_weight_matching`)."""
    best: dict[tuple[int, int], int] = {}
    for i, j, w in edges:
        key = (i, j) if i < j else (j, i)
        if key not in best or w > best[key]:
            best[key] = w
    total = 0
    for v, u in enumerate(mate):
        if u > v:
            total += best[(v, u)]
    return total


def max_weight_matching(vertex_count: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """Return ``mate`` with ``mate[v]`` the vertex matched to ``v`` or ``-1``.

    ``edges`` are ``(i, j, weight)`` with ``0 <= i, j < vertex_count``,
    ``i != j`` and integer weights (negative weights are fine) of absolute value
    below :data:`WEIGHT_LIMIT`.  The matching has maximum cardinality and, among
    those, maximum weight; ties are broken as the module docstring says.
    """
    mate = [-1] * vertex_count
    if not edges:
        return mate
    edges = edges if isinstance(edges, list) else list(edges)
    weights = [w for _, _, w in edges]
    if not -WEIGHT_LIMIT < min(weights) <= max(weights) < WEIGHT_LIMIT:
        raise ValueError(f"edge weights must lie strictly between -2**100 and 2**100, not {min(weights)}"
                         f"..{max(weights)}")
    if any(i == j for i, j, _ in edges):
        raise ValueError("an edge joins a vertex to itself")
    graph = rustworkx.PyGraph(multigraph=False, node_count_hint=vertex_count, edge_count_hint=len(edges))
    graph.add_nodes_from(range(vertex_count))
    try:
        graph.add_edges_from(edges)
    except (IndexError, OverflowError) as error:
        raise ValueError(f"an edge's end is not a vertex in 0..{vertex_count - 1}") from error
    if graph.num_edges() != len(edges):
        # A pair given twice: rustworkx kept the last weight, the contract says the heaviest.
        graph = rustworkx.PyGraph(multigraph=False, node_count_hint=vertex_count, edge_count_hint=len(edges))
        graph.add_nodes_from(range(vertex_count))
        graph.add_edges_from(_heaviest_per_pair(edges))
    for a, b in rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int):
        mate[a] = b
        mate[b] = a
    return mate


def _heaviest_per_pair(edges: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """One edge per vertex pair, at the position of its first occurrence, with its heaviest weight."""
    position: dict[tuple[int, int], int] = {}
    unique: list[tuple[int, int, int]] = []
    for i, j, w in edges:
        key = (i, j) if i < j else (j, i)
        at = position.get(key)
        if at is None:
            position[key] = len(unique)
            unique.append((i, j, w))
        elif w > unique[at][2]:
            unique[at] = (unique[at][0], unique[at][1], w)
    return unique
