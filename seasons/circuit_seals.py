"""The seals of what turns places into circuit points (``manage.py verify_results``; docs/security.md).

A pair's circuit points follow from its place in a stage (held to the tournament's final table by
``ranking_checks.circuit_problems``) and from the circuit's rules: points per place, points past the table,
how many stages count. Those rules, and which tournament is which stage of which circuit, are written once, by
``services.circuits`` (``create_circuit``, ``add_circuit_stage``): the server seals them there with the
súmulas' key ring (``scoring.integrity.seal_record``, labels ``circuit`` and ``circuit-stage``), so a points
table raised in SQL, a stage added or moved to another tournament, is reported as a seal that no longer holds.

A blank seal is "not verifiable" and reported, unless the operator named the row as older than the seals
(``SUMULA_UNSEALED_UNTIL``: ``circuit:N``, ``circuit_stage:M``; ``scoring.integrity.blank_seal``).
Nothing here changes a row but the seal of one just written.
"""
from __future__ import annotations

from scoring import integrity

from .models import Circuit, CircuitStage

CIRCUIT = "circuit"
STAGE = "circuit-stage"


def circuit_payload(circuit: Circuit) -> dict:
    return {"circuit": circuit.pk, "points": circuit.points, "beyond": circuit.beyond_points,
            "best_of": circuit.best_of}


def stage_payload(stage: CircuitStage) -> dict:
    return {"stage": stage.pk, "circuit": stage.circuit_id, "tournament": stage.tournament_id, "number": stage.number}


def seal_circuit(circuit: Circuit) -> Circuit:
    sealed = integrity.seal_record(CIRCUIT, circuit_payload(circuit))
    circuit.server_seal, circuit.server_key = sealed["server_seal"], sealed["server_key"]
    Circuit.objects.filter(pk=circuit.pk).update(**sealed)
    return circuit


def seal_stage(stage: CircuitStage) -> CircuitStage:
    sealed = integrity.seal_record(STAGE, stage_payload(stage))
    stage.server_seal, stage.server_key = sealed["server_seal"], sealed["server_key"]
    CircuitStage.objects.filter(pk=stage.pk).update(**sealed)
    return stage


def _problem(row, label: str, payload: dict, kind: str) -> str | None:
    if not row.server_seal:
        if integrity.blank_seal(row, kind) is None:
            return None
        return "no server seal: not verifiable (this install seals every circuit and stage it records)"
    if not integrity.record_seal_holds(label, payload, row.server_seal, row.server_key):
        return "the server's seal does not hold (changed after it was recorded)"
    return None


def seal_problems(tournament_id: int | None = None) -> list[str]:
    """One line per circuit whose rules, and per stage whose place in its circuit, no longer hold their seal
    (``tournament_id``: only the circuits and stages of that tournament)."""
    stages = CircuitStage.objects.select_related("circuit", "tournament").order_by("circuit_id", "number", "pk")
    circuits = Circuit.objects.order_by("pk")
    if tournament_id is not None:
        stages = stages.filter(tournament_id=tournament_id)
        circuits = circuits.filter(stages__tournament_id=tournament_id).distinct()
    problems = []
    for circuit in circuits:
        found = _problem(circuit, CIRCUIT, circuit_payload(circuit), "circuit")
        if found:
            problems.append(f"circuit {circuit.slug}: its rules (points per place {list(circuit.points)}, "
                            f"past the table {circuit.beyond_points}, stages counted {circuit.best_of or 'all'}): "
                            f"{found}")
    for stage in stages:
        found = _problem(stage, STAGE, stage_payload(stage), "circuit_stage")
        if found:
            problems.append(f"circuit {stage.circuit.slug}: stage {stage.number} ({stage.tournament.slug}): {found}")
    return problems
