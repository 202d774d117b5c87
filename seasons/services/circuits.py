"""Circuits (seasons): creating one, adding its stages, copying a stage's final placings when
the tournament finishes, and the circuit's ranking per player and per pair.

A stage's placings are final when its tournament is ``finished`` (the last stage complete:
every result official, art. 25-26): :func:`refresh_stage_placings` runs from tournaments'
``progress._refresh_status`` after each official result and from a place set by hand (through
``tournaments.services.season_hooks.placings_changed``) and copies the tournament's final table
(``standings(t)``: the overall places, withdrawals and the organizer's placings by hand included)
into :class:`~seasons.models.CircuitPlacing`; a finished tournament reopened (a correction, a
stage added) loses its placings until it finishes again. The ranking is computed on read by the
pure ``draw.pairing.circuit`` from those rows (two queries whatever the size).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from draw.pairing.circuit import CircuitLine, CircuitRules, circuit_ranking, pair_results, player_results

from events import access, organizations

from events.models import Tournament
from people.models import Player
from tournaments.services.base import Forbidden, TournamentError

from .. import circuit_seals
from ..models import Circuit, CircuitPlacing, CircuitStage

CIRCUIT_FIELDS = ("name", "slug", "season", "points", "beyond_points", "best_of",
                  "escalation_across_stages")


def can_manage_circuit(user, circuit: Circuit) -> bool:
    """Its organizer, the members of the organization that owns it, or an operator."""
    return bool(user and user.is_authenticated and (
        access.operates_site(user) or circuit.organizer_id == user.pk
        or (circuit.organization_id is not None and circuit.organization_id in access.organization_ids(user))))


def rules_of(circuit: Circuit) -> CircuitRules:
    return CircuitRules(tuple(circuit.points), circuit.beyond_points, circuit.best_of)


def _clean(fields: dict) -> dict:
    unknown = set(fields) - set(CIRCUIT_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown field."), sorted(unknown)[0])
    if "name" in fields and not str(fields["name"] or "").strip():
        raise TournamentError(_("A circuit needs a name."), "name")
    points = fields.get("points")
    if points is not None and (not isinstance(points, list) or not all(isinstance(p, int) for p in points)):
        raise TournamentError(_("The points per place are a list of whole numbers (1st first)."), "points")
    return fields


def create_circuit(by, **fields) -> Circuit:
    """A new circuit of ``by`` (an organizer); the rules are checked (400 naming the field)."""
    from tournaments.services.tournament import can_create_tournament

    if not can_create_tournament(by):  # who may create tournaments may group them in circuits
        raise Forbidden(_("Only an organizer creates a circuit."))
    fields = dict(fields)
    organization = fields.pop("organization", None)
    fields = _clean(fields)
    fields.setdefault("slug", slugify(f"{fields.get('name', '')} {fields.get('season', '')}")[:140])
    circuit = Circuit(organizer=by, organization=organizations.home_of(by, organization),
                      **fields)
    _check_rules(circuit)
    if not circuit.slug or circuit.slug == "novo":  # /circuitos/novo/ is the new circuit's page
        raise TournamentError(_("Choose another name: it makes no address of its own."), "name")
    if Circuit.objects.filter(slug=circuit.slug).exists():
        raise TournamentError(_("Another circuit has this address."), "slug")
    circuit.save()
    return circuit_seals.seal_circuit(circuit)  # its rules, as written once (verify_results)


def _check_rules(circuit: Circuit) -> None:
    try:
        rules_of(circuit)
    except ValueError as e:
        field = str(e).partition(":")[0]
        message = {"best_of": _("At least one stage counts."),
                   "points": _("Points per place (1st first) are never negative and never increase down the "
                               "table; the points past the table are at most the last place's.")}
        raise TournamentError(message.get(field, message["points"]), field if field in message else "points") from None


@transaction.atomic
def set_escalation_across_stages(circuit: Circuit, by, value: bool) -> Circuit:
    """The circuit's discipline option (art. 26): the referee's escalation counts the same
    two players' rulings in the circuit's other stages. Its organizer only; the same value again
    changes nothing. Rulings already made keep their step; the next ones count this way."""
    if not can_manage_circuit(by, circuit):
        raise Forbidden(_("Only the circuit's organizer changes its rules."))
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if circuit.escalation_across_stages != bool(value):
        circuit.escalation_across_stages = bool(value)
        circuit.save(update_fields=["escalation_across_stages"])
    return circuit


@transaction.atomic
def add_circuit_stage(circuit: Circuit, tournament: Tournament, by) -> CircuitStage:
    """``tournament`` becomes the circuit's next stage: a tournament of the circuit's organizer,
    once per circuit. Its placings are copied at once when it is already finished."""
    if not can_manage_circuit(by, circuit):
        raise Forbidden(_("Only the circuit's organizer adds its stages."))
    if tournament.organizer_id != circuit.organizer_id:
        raise TournamentError(_("A circuit groups tournaments of its own organizer."), "tournament")
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if CircuitStage.objects.filter(circuit=circuit, tournament=tournament).exists():
        raise TournamentError(_("This tournament is already a stage of the circuit."), "tournament")
    number = 1 + max(CircuitStage.objects.filter(circuit=circuit).values_list("number", flat=True), default=0)
    stage = circuit_seals.seal_stage(CircuitStage.objects.create(circuit=circuit, tournament=tournament,
                                                                 number=number))
    refresh_stage_placings(tournament)
    return stage


def refresh_stage_placings(tournament: Tournament) -> None:
    """Copy the final places of a finished tournament into each circuit it is a stage of; a
    tournament not (or no longer) finished has none. A no-op for tournaments outside circuits."""
    stages = list(CircuitStage.objects.filter(tournament=tournament))
    if not stages:
        return
    CircuitPlacing.objects.filter(stage__in=stages).delete()
    if tournament.status != Tournament.Status.FINISHED:
        CircuitStage.objects.filter(pk__in=[s.pk for s in stages]).update(final_at=None)
        return
    from tournaments.services.standings import standings

    rows = standings(tournament).rows
    CircuitPlacing.objects.bulk_create(
        CircuitPlacing(stage=s, pair=line.pair, place=line.rank) for s in stages for line in rows)
    CircuitStage.objects.filter(pk__in=[s.pk for s in stages]).update(final_at=timezone.now())


@dataclass(frozen=True)
class RankingRow:
    line: CircuitLine
    players: list[Player]

    @property
    def name(self) -> str:
        return " / ".join(p.name for p in self.players)


@dataclass(frozen=True)
class CircuitRanking:
    circuit: Circuit
    stages: list[CircuitStage]
    players: list[RankingRow]
    pairs: list[RankingRow]


def circuit_ranking_of(circuit: Circuit) -> CircuitRanking:
    """The circuit's ranking per player and per pair, from the stages whose placings are final; the
    stages in the order of their tournaments' dates (the recency tiebreak and the stages counted
    follow the dates, not the order in which the stages were added)."""
    stages = list(CircuitStage.objects.filter(circuit=circuit).select_related("tournament")
                  .order_by("tournament__date", "number"))
    when = {s.number: (s.tournament.date, s.number) for s in stages}  # recency by date, not by order added
    placings = list(CircuitPlacing.objects.filter(stage__circuit=circuit)
                    .select_related("pair__first_player", "pair__second_player", "stage"))
    rows = [(p.stage.number, (p.pair.first_player_id, p.pair.second_player_id), p.place) for p in placings]
    people: dict[int, Player] = {}
    for p in placings:
        people[p.pair.first_player_id] = p.pair.first_player
        people[p.pair.second_player_id] = p.pair.second_player
    rules = rules_of(circuit)
    by_player = [RankingRow(line, [people[line.entrant]]) for line in circuit_ranking(rules, player_results(rows), when)]
    by_pair = [RankingRow(line, sorted((people[i] for i in line.entrant), key=lambda pl: (pl.name, pl.pk)))
               for line in circuit_ranking(rules, pair_results(rows), when)]
    return CircuitRanking(circuit, stages, by_player, by_pair)


def stage_results(stage: CircuitStage) -> list[tuple[CircuitPlacing, int]]:
    """A stage's final placings with the points each is worth in the circuit."""
    rules = rules_of(stage.circuit)
    placings = (CircuitPlacing.objects.filter(stage=stage)
                .select_related("pair__first_player", "pair__second_player"))
    return [(p, rules.points_for(p.place)) for p in placings]
