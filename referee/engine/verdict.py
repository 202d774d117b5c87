"""STUB — being written. Returns the verdict shape documented in docs/hand-report.md."""
from __future__ import annotations


def check_report(report: object) -> dict:
    if not isinstance(report, dict):
        return {"valid": False, "error": {"field": "", "message": "O relato deve ser um objeto JSON."}}
    return {
        "valid": True, "rules": {"preset": "regulamento-tecnico", "options": {}},
        "winner": 0, "points": 1, "score_before": [0, 0], "score_after": [1, 0],
        "tricks": [], "ended_by": "tricks", "violations": [],
    }
