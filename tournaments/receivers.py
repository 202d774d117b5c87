"""Signal receivers of the tournaments app (connected in ``TournamentsConfig.ready``).

``on_result_official``: when scoring says a match's result became official (its súmula
signed and received, art. 25: ``scoring.signals.result_official``), record it as the
tournament's result and advance the tournament (the bracket's next match gets its pair,
the champion is known at the end) with ``tournaments.services.record_official_result``.
"""
from __future__ import annotations


def on_result_official(sender, match, **kwargs) -> None:
    if match is None or match.tournament_id is None:
        return  # a friendly
    from .services import record_official_result

    record_official_result(match)
