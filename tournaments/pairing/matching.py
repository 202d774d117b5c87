"""Maximum-weight, maximum-cardinality matching on general graphs (Edmonds' blossom).

This module owns the one graph algorithm the pairing package needs: given a
sparse undirected graph with *integer* edge weights, find, among all matchings
of maximum cardinality, one of maximum total weight.

It is a port of Joris van Rantwijk's public-domain ``mwmatching.py`` (the same
primal-dual O(n^3) algorithm networkx uses, after Galil, "Efficient algorithms
for finding maximum matching in graphs", 1986), always in max-cardinality mode
and restricted to integer weights, so every computation is exact (duals are
stored doubled, slacks of S-S edges are even).  Two changes make it fast on the
nearly-solved instances the Swiss pairer produces:

* **Warm start.**  Each vertex dual starts at half the heaviest weight at that
  vertex, so an edge is tight exactly when it is the heaviest choice for both
  ends; any matching of tight edges is a valid starting point of the
  primal-dual method (duals feasible, matched edges tight, no blossoms).  We
  greedily match tight edges before the first stage, which leaves only a
  handful of stages to run on Swiss instances.  That start is only proven
  exact when the final matching is perfect; otherwise we solve again from the
  classic start (all duals at ``max_weight / 2``), so results are always exact.
* **Work proportional to the alternating forest.**  Each dual update only
  visits the vertices and blossoms labelled in the current stage (tracked in
  lists) instead of scanning all ``n`` vertices and ``n`` blossom slots, and
  per-stage resets only undo what the stage touched.

Neither change alters the result: the algorithm is exact.  Ties between
equally heavy matchings are broken deterministically (by input order).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["max_weight_matching", "matching_weight"]


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


def max_weight_matching(
    vertex_count: int,
    edges: Sequence[tuple[int, int, int]],
    *,
    warm_start: bool = True,
) -> list[int]:
    """Return ``mate`` with ``mate[v]`` the vertex matched to ``v`` or ``-1``.

    ``edges`` are ``(i, j, weight)`` with ``0 <= i, j < vertex_count``,
    ``i != j`` and integer weights (negative weights are fine).  The matching
    has maximum cardinality and, among those, maximum weight.

    With ``warm_start`` the search starts from per-vertex duals (each vertex's
    heaviest incident weight) and a greedy matching of the edges tight under
    them.  That start is provably optimal when the result is perfect (LP
    duality for perfect matching); when it is not, the problem is solved again
    from the classic uniform duals, so the contract above always holds.
    """
    if warm_start:
        mate = _solve(vertex_count, edges, per_vertex_duals=True)
        if all(u != -1 for u in mate):
            return mate
    return _solve(vertex_count, edges, per_vertex_duals=False)


def _solve(
    vertex_count: int,
    edges: Sequence[tuple[int, int, int]],
    *,
    per_vertex_duals: bool,
) -> list[int]:
    nvertex = vertex_count
    nedge = len(edges)
    mate_out = [-1] * nvertex
    if nedge == 0 or nvertex == 0:
        return mate_out

    # Weights are stored quadrupled and vertex duals doubled relative to the
    # textbook formulation, so that every quantity stays an integer whatever
    # the parity of the starting duals (all starting duals are even, hence all
    # free vertices share a parity and S-S slacks stay even).
    ev = [0] * nedge
    ew = [0] * nedge
    wt2 = [0] * nedge
    maxweight = 0
    for k, (i, j, w) in enumerate(edges):
        if i == j or not (0 <= i < nvertex) or not (0 <= j < nvertex):
            raise ValueError(f"bad edge {(i, j, w)!r}")
        if not isinstance(w, int):
            raise TypeError("edge weights must be integers")
        ev[k] = i
        ew[k] = j
        wt2[k] = 4 * w
        if w > maxweight:
            maxweight = w

    # endpoint[p] is the vertex at endpoint p; edge k has endpoints 2k (i) and 2k+1 (j).
    endpoint = [0] * (2 * nedge)
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k in range(nedge):
        i = ev[k]
        j = ew[k]
        endpoint[2 * k] = i
        endpoint[2 * k + 1] = j
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)

    nb = 2 * nvertex
    mate = [-1] * nvertex  # remote endpoint of the matched edge, or -1
    label = [0] * nb  # 0 free, 1 S, 2 T (5 temporarily in scan_blossom)
    labelend = [-1] * nb
    inblossom = list(range(nvertex))
    blossomparent = [-1] * nb
    blossomchilds: list[list[int] | None] = [None] * nb
    blossombase = list(range(nvertex)) + [-1] * nvertex
    blossomendps: list[list[int] | None] = [None] * nb
    bestedge = [-1] * nb
    blossombestedges: list[list[int] | None] = [None] * nb
    unusedblossoms = list(range(nvertex, nb))
    dualvar = [2 * maxweight] * nvertex + [0] * nvertex  # vertex duals; blossom z
    if per_vertex_duals:
        best_incident: list[int | None] = [None] * nvertex
        for k in range(nedge):
            w = wt2[k]
            for x in (ev[k], ew[k]):
                cur = best_incident[x]
                if cur is None or w > cur:
                    best_incident[x] = w
        for x in range(nvertex):
            cur = best_incident[x]
            dualvar[x] = cur // 2 if cur is not None else 0
        # Second pass: lower each dual to the least feasible value given its
        # neighbours' (so every vertex gets at least one tight edge; this is
        # what makes a heavy dummy vertex, like a Swiss bye, start tight).
        for x in range(nvertex):
            lowest = None
            for p in neighbend[x]:
                k = p >> 1
                need = wt2[k] - dualvar[endpoint[p]]
                if lowest is None or need > lowest:
                    lowest = need
            if lowest is not None and lowest < dualvar[x]:
                dualvar[x] = lowest
    allowedge = [False] * nedge
    queue: list[int] = []

    # Per-stage bookkeeping so that dual updates and resets touch only what the
    # stage touched.
    touched_vertices: list[int] = []  # vertices labelled (S or T) in this stage
    touched_blossoms: list[int] = []  # blossom ids labelled or created in this stage
    best_candidates: list[int] = []  # vertices/blossoms whose bestedge was set
    allowed_edges: list[int] = []  # edges whose allowedge flag was set

    def slack(k: int) -> int:
        return dualvar[ev[k]] + dualvar[ew[k]] - wt2[k]

    def blossom_leaves(b: int) -> list[int]:
        if b < nvertex:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < nvertex:
                out.append(t)
            else:
                stack.extend(reversed(blossomchilds[t]))  # type: ignore[arg-type]
        return out

    def allow(k: int) -> None:
        if not allowedge[k]:
            allowedge[k] = True
            allowed_edges.append(k)

    def assign_label(w: int, t: int, p: int) -> None:
        while True:
            b = inblossom[w]
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            touched_blossoms.append(b)
            leaves = blossom_leaves(b)
            touched_vertices.extend(leaves)
            if t == 1:
                queue.extend(leaves)
                return
            base = blossombase[b]
            w = endpoint[mate[base]]
            t = 1
            p = mate[base] ^ 1

    def scan_blossom(v: int, w: int) -> int:
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v = ev[k]
        w = ew[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        blossomchilds[b] = path
        blossomendps[b] = endps
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        touched_blossoms.append(b)
        for v in blossom_leaves(b):
            if label[inblossom[v]] == 2:
                queue.append(v)
            inblossom[v] = b
        bestedgeto: dict[int, int] = {}
        for bv in path:
            bbe = blossombestedges[bv]
            if bbe is None:
                nblists = [[p >> 1 for p in neighbend[v]] for v in blossom_leaves(bv)]
            else:
                nblists = [bbe]
            for nblist in nblists:
                for k2 in nblist:
                    i = ev[k2]
                    j = ew[k2]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1:
                        cur = bestedgeto.get(bj, -1)
                        if cur == -1 or slack(k2) < slack(cur):
                            bestedgeto[bj] = k2
            blossombestedges[bv] = None
            bestedge[bv] = -1
        blossombestedges[b] = list(bestedgeto.values())
        be = -1
        for k2 in blossombestedges[b]:  # type: ignore[union-attr]
            if be == -1 or slack(k2) < slack(be):
                be = k2
        bestedge[b] = be
        if be != -1:
            best_candidates.append(b)

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in blossomchilds[b]:  # type: ignore[union-attr]
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for v in blossom_leaves(s):
                    inblossom[v] = s
        if (not endstage) and label[b] == 2:
            childs = blossomchilds[b]
            endps = blossomendps[b]
            assert childs is not None and endps is not None
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allow(endps[j - endptrick] >> 1)
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                allow(p >> 1)
                j += jstep
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            touched_blossoms.append(bv)
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                found = -1
                for v in blossom_leaves(bv):
                    if label[v] != 0:
                        found = v
                        break
                if found != -1:
                    v = found
                    label[v] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(v, 2, labelend[v])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            augment_blossom(t, v)
        childs = blossomchilds[b]
        endps = blossomendps[b]
        assert childs is not None and endps is not None
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= nvertex:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= nvertex:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[blossomchilds[b][0]]  # type: ignore[index]

    def augment_matching(k: int) -> None:
        for s, p in ((ev[k], 2 * k + 1), (ew[k], 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    # Warm start: greedily match edges that are tight under the starting duals
    # (a state the primal-dual method could itself have reached).
    for v in range(nvertex):
        if mate[v] != -1:
            continue
        for p in neighbend[v]:
            k = p >> 1
            w = endpoint[p]
            if mate[w] == -1 and dualvar[v] + dualvar[w] == wt2[k]:
                mate[v] = p
                mate[w] = p ^ 1
                break

    # All blossoms ever created (top-level ones can survive a stage).
    live_blossoms: set[int] = set()

    while True:
        # Reset the labels and best edges of everything the last stage touched.
        for v in touched_vertices:
            label[v] = 0
            bestedge[v] = -1
        for b in touched_blossoms:
            label[b] = 0
            bestedge[b] = -1
        for b in best_candidates:
            bestedge[b] = -1
        for b in live_blossoms:
            label[b] = 0
            bestedge[b] = -1
            blossombestedges[b] = None
        for k in allowed_edges:
            allowedge[k] = False
        touched_vertices.clear()
        touched_blossoms.clear()
        best_candidates.clear()
        allowed_edges.clear()
        queue.clear()

        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        if not queue:
            break

        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbend[v]:
                    k = p >> 1
                    w = endpoint[p]
                    bw_ = inblossom[w]
                    if inblossom[v] == bw_:
                        continue
                    kslack = 0
                    if not allowedge[k]:
                        kslack = dualvar[ev[k]] + dualvar[ew[k]] - wt2[k]
                        if kslack <= 0:
                            allowedge[k] = True
                            allowed_edges.append(k)
                    if allowedge[k]:
                        lw = label[bw_]
                        if lw == 0:
                            assign_label(w, 2, p ^ 1)
                        elif lw == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                                live_blossoms.add(inblossom[base])
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                            touched_vertices.append(w)
                    elif label[bw_] == 1:
                        b = inblossom[v]
                        cur = bestedge[b]
                        if cur == -1 or kslack < slack(cur):
                            if cur == -1:
                                best_candidates.append(b)
                            bestedge[b] = k
                    elif label[w] == 0:
                        cur = bestedge[w]
                        if cur == -1 or kslack < slack(cur):
                            if cur == -1:
                                best_candidates.append(w)
                            bestedge[w] = k
            if augmented:
                break

            # Dual update: find the largest delta keeping duals feasible.
            deltatype = -1
            delta = 0
            deltaedge = -1
            deltablossom = -1
            seen: set[int] = set()
            for v in best_candidates:
                if v < nvertex and v not in seen:
                    seen.add(v)
                    if label[inblossom[v]] == 0 and bestedge[v] != -1:
                        d = slack(bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 2
                            deltaedge = bestedge[v]
            top_blossoms: set[int] = set()
            for v in touched_vertices:
                top_blossoms.add(inblossom[v])
            for b in best_candidates:
                if b >= nvertex and blossomparent[b] == -1 and blossombase[b] >= 0:
                    top_blossoms.add(b)
            top_sorted = sorted(top_blossoms)
            for b in top_sorted:
                if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    kslack = slack(bestedge[b])
                    d = kslack // 2
                    if deltatype == -1 or d < delta:
                        delta = d
                        deltatype = 3
                        deltaedge = bestedge[b]
            for b in top_sorted:
                if (
                    b >= nvertex
                    and blossombase[b] >= 0
                    and blossomparent[b] == -1
                    and label[b] == 2
                    and (deltatype == -1 or dualvar[b] < delta)
                ):
                    delta = dualvar[b]
                    deltatype = 4
                    deltablossom = b
            if deltatype == -1:
                # No augmenting path exists: maximum cardinality reached.
                deltatype = 1
                delta = 0

            seen_v: set[int] = set()
            for v in touched_vertices:
                if v in seen_v:
                    continue
                seen_v.add(v)
                lb = label[inblossom[v]]
                if lb == 1:
                    dualvar[v] -= delta
                elif lb == 2:
                    dualvar[v] += delta
            for b in top_sorted:
                if b >= nvertex and blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta

            if deltatype == 1:
                break
            elif deltatype == 2:
                allow(deltaedge)
                i = ev[deltaedge]
                j = ew[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allow(deltaedge)
                queue.append(ev[deltaedge])
            else:
                expand_blossom(deltablossom, False)
                live_blossoms.discard(deltablossom)

        if not augmented:
            break

        # End of stage: expand S-blossoms with zero dual.
        for b in sorted(live_blossoms):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)
        live_blossoms = {b for b in live_blossoms if blossombase[b] >= 0}

    for v in range(nvertex):
        if mate[v] >= 0:
            mate_out[v] = endpoint[mate[v]]
    return mate_out
