"""Signals the scoring app sends to the rest of the project.

``result_official`` is sent with ``match=`` once a match's result becomes official: its
súmula was signed by both pairs and received by the organizer (art. 25,
``scoring.services.mark_received``). Receivers read the result with
``scoring.services.official_result(match)``; the tournaments app advances its brackets
from it (``tournaments.receivers``). Send it inside the transaction that receives the
súmula, so the receipt and what follows from it are written together or not at all.

``match_started`` is sent with ``match=`` and ``at=`` when a match's first hand is written (inside its
transaction): the tournament's room starts the match's time limit from it (issue 25 §2,
``tournaments.services.time_limit``) and writes its end on the match (``Match.time_up_at``).
"""
from django.dispatch import Signal

result_official = Signal()  # sent with match=<scoring.models.Match>
match_started = Signal()  # sent with match=<scoring.models.Match>, at=<datetime>
