"""Celery tasks of the tournaments app, for the worker to find: the periodic check of the official
results. The room's tasks are the room app's (``room.tasks``); the ratings' are the seasons app's
(``seasons.tasks``)."""
from celery import shared_task


@shared_task(name="tournaments.verify_results")
def verify_results() -> dict:
    """Periodic (Celery beat, with ``scoring.verify_sumulas``): every official result held to its seal,
    the sealed súmula and the audit log (tournaments/result_seals.py); problems are logged as errors
    and returned by match id."""
    import logging

    from .result_seals import check_all

    found = check_all()
    for match_id, problems in found.items():
        logging.getLogger("tournaments.results").error("official result of match %s altered: %s", match_id,
                                                       "; ".join(problems))
    return {str(k): v for k, v in found.items()}


