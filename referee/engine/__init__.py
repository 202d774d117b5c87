"""The Truco rules engine: pure Python, no Django.

Public entry point: :func:`check_report` replays one hand report (a JSON-like mapping,
see ``docs/hand-report.md``) and returns its verdict as a plain dict. It never raises
for bad input: a malformed report gets ``{"valid": False, "error": {...}}``.
"""
from .verdict import check_report

__all__ = ["check_report"]
