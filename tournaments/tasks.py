"""Celery tasks of the tournaments app, for the worker to find: the periodic check of the official
results; the players' ratings brought in step with the official results (after each one). The ratings'
tasks are defined beside their services (``services.ratings``)."""
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


# the ratings' tasks live beside the services that queue them
from .services.ratings import check_ratings_task as check_ratings  # noqa: E402,F401
from .services.ratings import sync_ratings_task as sync_ratings  # noqa: E402,F401
