"""Elimination brackets: laying out and persisting the bracket nodes, drawing and starting a
bracket, advancing it when results become official, and reading it (``bracket_view``,
``bracket_json``).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Match

from ..models import BracketNode, Pair, Result, Round, Stage, Tournament
from draw.pairing.double_elimination import double_elimination
from draw.pairing.placings import Placings, bracket_placings
from draw.pairing.elimination import (
    BracketMatch,
    EliminationBracket,
    Section,
    Slot,
    Source,
    record_results,
    single_elimination,
)
from ..room_hooks import room
from .base import _has_entries, _result_json
from .writing import _auto_walkovers, _mark_generated, _withdrawn_ids, stage_best_of, write_pairings


def _levels(bracket: EliminationBracket) -> dict[str, int]:
    """Play order of every bracket match: 1 + the latest of its sources (the reset follows the final)."""
    level: dict[str, int] = {}
    for m in bracket.matches():
        sources = [s.source.match_id for s in (m.top, m.bottom) if s.source is not None]
        level[m.match_id] = 1 + max((level[s] for s in sources), default=0)
    if len(bracket.finals) > 1:
        level[bracket.finals[1].match_id] = level[bracket.finals[0].match_id] + 1
    return level


def _round_name(stage: Stage, bracket: EliminationBracket, level: int, levels: dict[str, int]) -> str:
    last = max(levels.values())
    if bracket.double:
        if len(bracket.finals) > 1 and level == last:
            return _("Grand final reset")
        if level == levels[bracket.finals[0].match_id]:
            return _("Grand final")
        return ""
    from_end = last - level
    if from_end == 0:
        if bracket.classification:
            return _("Final and places 3 to 8") if bracket.third_place is not None else _("Final and places 5 to 8")
        return _("Final and third-place match") if bracket.third_place is not None else _("Final")
    if from_end == 1:
        return _("Semifinals and places 5 to 8") if bracket.classification else _("Semifinals")
    if from_end == 2:
        return _("Quarterfinals")
    return _("Round of %(count)s") % {"count": 2 ** (from_end + 1)}


def _slot_layout(slot: Slot) -> tuple[int | None, str, str]:
    if slot.source is not None:
        return None, slot.source.match_id, slot.source.takes
    return slot.seed, "", ""


def _create_nodes(stage: Stage, bracket: EliminationBracket) -> list[BracketNode]:
    """Store the bracket's layout: one node per match (state empty until :func:`persist_bracket`)."""
    levels = _levels(bracket)
    rows = []
    for m in bracket.matches():
        top_seed, top_source, top_takes = _slot_layout(m.top)
        bottom_seed, bottom_source, bottom_takes = _slot_layout(m.bottom)
        rows.append(BracketNode(
            stage_id=stage.pk, code=m.match_id, section=m.section.value, bracket_round=m.round_number,
            position=m.position, level=levels[m.match_id], top_seed=top_seed, top_source=top_source,
            top_takes=top_takes, bottom_seed=bottom_seed, bottom_source=bottom_source,
            bottom_takes=bottom_takes,
        ))
    return BracketNode.objects.bulk_create(rows)


def _layout(stage: Stage, nodes: Sequence[BracketNode]) -> EliminationBracket:
    """The bracket as drawn (layout only, no results), rebuilt from its stored nodes."""
    seeds = tuple(stage.bracket_seeds)

    def slot(seed, source, takes) -> Slot:
        if source:
            return Slot(source=Source(source, takes))
        if seed <= len(seeds):
            return Slot(pair=seeds[seed - 1], seed=seed)
        return Slot(bye=True, seed=seed)

    sections: dict[str, dict[int, list[BracketMatch]]] = defaultdict(lambda: defaultdict(list))
    for n in sorted(nodes, key=lambda n: (n.bracket_round, n.position)):
        sections[n.section][n.bracket_round].append(BracketMatch(
            n.code, Section(n.section), n.bracket_round, n.position,
            slot(n.top_seed, n.top_source, n.top_takes), slot(n.bottom_seed, n.bottom_source, n.bottom_takes),
        ))

    def rounds(section: str) -> tuple:
        return tuple(tuple(sections[section][r]) for r in sorted(sections[section]))

    winners = rounds("winners")
    finals = tuple(m for r in rounds("grand_final") for m in r)
    third = [m for r in rounds("third_place") for m in r]
    return EliminationBracket(
        double=bool(finals), size=2 ** len(winners), seeds=seeds, winners=winners, losers=rounds("losers"),
        finals=finals, third_place=third[0] if third else None,
        classification=tuple(m for r in rounds("classification") for m in r),
    )


def _draw_bracket(stage: Stage, rnd: Round, order: Sequence[int], by) -> None:
    if len(order) < 2:
        raise Conflict(_("At least 2 pairs are needed for a bracket."), "pairs")
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        bracket = double_elimination(order, reset=stage.grand_final_reset)
    else:
        bracket = single_elimination(order, third_place=stage.third_place, classification=stage.classification)
    stage.bracket_seeds = list(order)
    stage.bracket_first_round = rnd.number
    stage.save(update_fields=["bracket_seeds", "bracket_first_round", "lot_seed", "swiss_rounds", "updated_at"])
    _start_bracket(stage, rnd, bracket, by)


def _start_bracket(stage: Stage, rnd: Round, bracket: EliminationBracket, by) -> None:
    rnd.stage = stage
    _create_nodes(stage, bracket)
    rnd.name = _round_name(stage, bracket, 1, _levels(bracket))
    _mark_generated(rnd, Round.Phase.BRACKET)
    _advance_bracket(stage, by)


def _bracket_rounds(stage: Stage, bracket: EliminationBracket, levels: dict[str, int],
                    needed: set[int]) -> dict[int, Round]:
    """Rounds for the given levels (created, paired and named on first use)."""
    tournament = stage.tournament
    first = stage.bracket_first_round
    numbers = {level: first + level - 1 for level in needed}
    existing = {r.number: r for r in Round.objects.filter(tournament=tournament, number__in=numbers.values())}
    out = {}
    for level, number in numbers.items():
        rnd = existing.get(number)
        if rnd is None:
            rnd = Round.objects.create(tournament=tournament, number=number)
        if not rnd.is_generated:
            rnd.name = rnd.name or _round_name(stage, bracket, level, levels)
            rnd.stage = stage
            _mark_generated(rnd, Round.Phase.BRACKET)
        rnd.tournament = tournament
        out[level] = rnd
    return out


def _node_state(m: BracketMatch) -> tuple:
    return (m.top.pair, m.bottom.pair, m.top.bye, m.bottom.bye, m.winner, m.unplayed)


def _stored_state(n: BracketNode) -> tuple:
    return (n.top_pair_id, n.bottom_pair_id, n.top_bye, n.bottom_bye, n.winner_id, n.unplayed)


def persist_bracket(stage: Stage, bracket: EliminationBracket, nodes: dict[str, BracketNode], by=None,
                    *, withdrawn: set[int] = frozenset()) -> list[Match]:
    """Write a resolved bracket: update the nodes whose state changed, and create (in the round of
    their play order, at the next free tables) the scoring matches of the nodes that became
    playable. A new match with a withdrawn pair gets no table. Returns the new matches.

    Raises :class:`Conflict` if a match already played no longer has the pairs the bracket
    now gives it (a result changed upstream)."""
    levels = {code: n.level for code, n in nodes.items()}
    changed: dict[str, BracketNode] = {}  # by code
    to_create: list[tuple[BracketNode, BracketMatch]] = []
    stale: list[tuple[BracketNode, BracketMatch]] = []
    for m in bracket.all_matches():
        node = nodes[m.match_id]
        state = _node_state(m)
        if state != _stored_state(node):
            (node.top_pair_id, node.bottom_pair_id, node.top_bye, node.bottom_bye, node.winner_id,
             node.unplayed) = state
            changed[node.code] = node
        wanted = (m.top.pair, m.bottom.pair) if _needs_match(m) else None
        if node.match_id is None:
            if wanted is not None:
                to_create.append((node, m))
        elif _match_pairs(node) != wanted:
            stale.append((node, m))
    for node, m in stale:
        _repair_stale(node, m, changed)
    created: list[Match] = []
    if to_create:
        rounds = _bracket_rounds(stage, bracket, levels, {node.level for node, _m in to_create})
        by_round: dict[int, list[tuple[BracketNode, BracketMatch]]] = defaultdict(list)
        for node, m in to_create:
            by_round[node.level].append((node, m))
        for level, round_items in sorted(by_round.items()):
            rnd = rounds[level]
            formats: dict[int | None, list[tuple[BracketNode, BracketMatch]]] = defaultdict(list)
            for node, m in round_items:
                formats[node_best_of(stage, bracket, node, levels)].append((node, m))
            for best_of, items in formats.items():
                created.extend(_write_nodes(stage, rnd, items, withdrawn, best_of, changed, by))
    _save_node_states(list(changed.values()))
    return created


def node_best_of(stage: Stage, bracket: EliminationBracket, node: BracketNode, levels: dict[str, int]) -> int | None:
    """A bracket match's format: the third-place match its own (``third_place_best_of``, else the
    stage's, never the final's); in a double elimination "-1" is the grand final, its reset
    included (the reset is the grand final continued); otherwise the stage's per-round format."""
    if node.section == BracketNode.Section.THIRD_PLACE:
        return stage.third_place_best_of or stage.best_of
    if node.section == BracketNode.Section.CLASSIFICATION:
        return stage.best_of  # places 5-8: the stage's format, not the semifinals' nor the final's
    level, last = node.level, max(levels.values())
    if bracket.double and bracket.finals:
        last = levels[bracket.finals[0].match_id]
        level = min(level, last)
    return stage_best_of(stage, level, last)


def _write_nodes(stage: Stage, rnd: Round, items, withdrawn, best_of, changed, by) -> list[Match]:
    """Create the scoring matches of bracket ``items`` (nodes of one round and one format) at the
    round's next free tables (none for a match with a withdrawn pair)."""
    table = Match.objects.filter(round=rnd).aggregate(t=Max("table"))["t"] or 0
    boards = []
    for _node, m in items:
        if m.top.pair in withdrawn or m.bottom.pair in withdrawn:
            boards.append((m.top.pair, m.bottom.pair, None))
        else:
            table += 1
            boards.append((m.top.pair, m.bottom.pair, table))
    matches = write_pairings(rnd, boards, by=by, best_of=best_of)
    for (node, _m), match in zip(items, matches):
        node.match_id = match.pk
        node.match_pairs = (match.pair_a_id, match.pair_b_id)
        changed[node.code] = node
        if match.table is not None:  # at its table: optional push and e-mail to its pairs
            room().match_called(match.pk, match.table)
    return matches


NODE_BATCH = 1000  # nodes per UPDATE: each field's CASE grows with the batch
NODE_STATE = ("top_pair_id", "bottom_pair_id", "top_bye", "bottom_bye", "winner_id", "unplayed", "match_id")


def _save_node_states(nodes: Sequence[BracketNode]) -> None:
    """Write the state fields of the nodes whose state changed: one UPDATE a node."""
    for node in nodes:
        BracketNode.objects.filter(pk=node.pk).update(**{name: getattr(node, name) for name in NODE_STATE})


def _needs_match(m: BracketMatch) -> bool:
    """A bracket match is played (needs a scoring match) once both pairs are known, unless it is a bye
    or a reset that is not needed."""
    return m.top.pair is not None and m.bottom.pair is not None and not m.unplayed


def _match_pairs(node: BracketNode) -> tuple | None:
    pairs = getattr(node, "match_pairs", None)
    if pairs is None:
        pairs = (node.match.pair_a_id, node.match.pair_b_id) if node.match_id is not None else None
        node.match_pairs = pairs
    return pairs


def _repair_stale(node: BracketNode, m: BracketMatch, changed: dict[str, BracketNode]) -> None:
    match = Match.objects.select_for_update().get(pk=node.match_id)
    if Result.objects.filter(match=match).exists() or _has_entries([match.pk]):
        raise Conflict(_("Match %(code)s of the bracket was already played between other pairs: change its "
                         "result first.") % {"code": node.code}, "match")
    if _needs_match(m):
        match.pair_a_id, match.pair_b_id = m.top.pair, m.bottom.pair
        match.save(update_fields=["pair_a", "pair_b", "updated_at"])
        node.match_pairs = (match.pair_a_id, match.pair_b_id)
    else:
        node.match_id = None
        node.match_pairs = None
        match.delete()
    changed[node.code] = node


def _load_nodes(stage: Stage) -> dict[str, BracketNode]:
    nodes = {}
    for n in BracketNode.objects.filter(stage=stage).select_related("match").order_by("pk"):
        n.match_pairs = (n.match.pair_a_id, n.match.pair_b_id) if n.match is not None else None
        nodes[n.code] = n
    return nodes


def _bracket_winners(nodes: dict[str, BracketNode]) -> dict[str, int]:
    by_match = {n.match_id: code for code, n in nodes.items() if n.match_id is not None}
    winners = {}
    for match_id, winner_id in (Result.objects.filter(match_id__in=list(by_match))
                                .values_list("match_id", "winner_id")):
        winners[by_match[match_id]] = winner_id
    return winners


def _advance_bracket(stage: Stage, by) -> EliminationBracket:
    """Bring the stored bracket in line with the official results: fill the next matches, create
    them, and turn matches of withdrawn pairs into walkovers (repeating until nothing changes)."""
    tournament = stage.tournament
    nodes = _load_nodes(stage)
    layout = _layout(stage, list(nodes.values()))
    withdrawn = _withdrawn_ids(tournament)
    while True:
        winners = _bracket_winners(nodes)
        try:
            bracket = record_results(layout, winners)
        except ValueError as error:
            raise Conflict(_("The results do not fit the bracket: %(error)s") % {"error": error}, "match") from None
        created = persist_bracket(stage, bracket, nodes, by, withdrawn=withdrawn)
        if not _auto_walkovers(tournament, created, withdrawn, by):
            return bracket


@dataclass(frozen=True)
class BracketView:
    """A bracket for pages: the pure structure (pair ids are ``Pair`` pks) with the official results
    recorded, the pairs' names, and per match code its node, scoring match and official result."""

    stage: Stage
    bracket: EliminationBracket
    names: dict[int, str]
    nodes: dict[str, BracketNode]
    results: dict[str, Result]
    champion: Pair | None
    first_round: int

    def round_of(self, code: str) -> int:
        """The tournament round number the match is played in."""
        return self.first_round + self.nodes[code].level - 1


def _bracket_stage(tournament: Tournament, stage: Stage | None) -> Stage | None:
    if stage is not None:
        return stage if stage.bracket_first_round is not None else None
    return (Stage.objects.filter(tournament=tournament, bracket_first_round__isnull=False)
            .order_by("-position").first())


def stage_bracket(stage: Stage, data) -> EliminationBracket | None:
    """A bracket stage from its stored layout with the official results in ``data``
    (``standings._Loaded``): one query (the nodes); None before it is drawn."""
    nodes = list(BracketNode.objects.filter(stage=stage).order_by("pk"))
    if not nodes:
        return None
    winner_of = {match_id: r.winner for (r, _phase), match_id in zip(data.results, data.match_ids)}
    winners = {n.code: winner_of[n.match_id] for n in nodes if n.match_id in winner_of}
    return record_results(_layout(stage, nodes), winners)


def stage_placings(stage: Stage, data) -> Placings | None:
    """The placings of a bracket stage (:func:`stage_bracket`'s): one query."""
    bracket = stage_bracket(stage, data)
    return bracket_placings(bracket) if bracket is not None else None


def bracket_view(tournament: Tournament, stage: Stage | None = None) -> BracketView | None:
    """The tournament's bracket (its latest knockout stage, or ``stage``; None before it is drawn),
    from the stored layout and the official results; constant queries."""
    stage = _bracket_stage(tournament, stage)
    if stage is None:
        return None
    stage.tournament = tournament
    # only what the pages and the JSON read of a node's match (a 256-pair bracket has 511 of them)
    node_fields = [f.name for f in BracketNode._meta.concrete_fields]
    nodes = {n.code: n for n in BracketNode.objects.filter(stage=stage).select_related("match")
             .only(*node_fields, "match__table", "match__best_of").order_by("pk")}
    results = {}
    by_match = {n.match_id: code for code, n in nodes.items() if n.match_id is not None}
    for result in Result.objects.filter(match_id__in=list(by_match)):
        results[by_match[result.match_id]] = result
    bracket = record_results(_layout(stage, list(nodes.values())),
                             {code: r.winner_id for code, r in results.items()})
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament).only("tournament", "name")}
    champion = pairs.get(bracket.champion) if bracket.champion is not None else None
    return BracketView(stage, bracket, {pk: p.name for pk, p in pairs.items()}, nodes, results, champion,
                       stage.bracket_first_round)


def bracket_layout(tournament: Tournament) -> EliminationBracket | None:
    """The latest bracket's layout alone (no results, no names: what the match numbers depend on),
    two queries; None before it is drawn."""
    stage = _bracket_stage(tournament, None)
    if stage is None:
        return None
    return _layout(stage, list(BracketNode.objects.filter(stage=stage).order_by("pk")))


def bracket_json(tournament: Tournament, stage: Stage | None = None) -> dict | None:
    """The bracket as JSON: sections of rounds of matches, each with its slots (pair, seed, bye,
    source), winner, scoring match id, table, round number, match format and official result; the
    champion; and the placings (place, pair, the match that decided it; place null while still in)."""
    view = bracket_view(tournament, stage)
    if view is None:
        return None

    def slot(s: Slot) -> dict:
        return {"pair": s.pair, "name": view.names.get(s.pair) if s.pair is not None else None, "seed": s.seed,
                "bye": s.bye, "source": {"match": s.source.match_id, "takes": s.source.takes} if s.source else None}

    def match(m: BracketMatch) -> dict:
        node = view.nodes[m.match_id]
        result = view.results.get(m.match_id)
        return {"code": m.match_id, "section": m.section.value, "bracket_round": m.round_number,
                "position": m.position, "round": view.round_of(m.match_id), "top": slot(m.top),
                "bottom": slot(m.bottom), "winner": m.winner, "unplayed": m.unplayed,
                "match": node.match_id, "table": node.match.table if node.match is not None else None,
                "best_of": node.match.best_of if node.match is not None else None,
                "result": _result_json(result)}

    b = view.bracket
    return {
        "format": view.stage.format, "double": b.double, "size": b.size, "seeds": list(b.seeds),
        "first_round": view.first_round,
        "winners": [[match(m) for m in r] for r in b.winners],
        "losers": [[match(m) for m in r] for r in b.losers],
        "finals": [match(m) for m in b.finals],
        "third_place": match(b.third_place) if b.third_place is not None else None,
        "classification": [match(m) for m in b.classification],
        "champion": b.champion, "champion_name": view.champion.name if view.champion else None,
        "complete": b.complete, "stage": view.stage.position,
        "placings": [{"place": row.place, "pair": row.pair_id, "name": view.names.get(row.pair_id),
                      "decided_by": row.decided_by} for row in bracket_placings(b).rows],
    }
