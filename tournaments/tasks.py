"""Celery tasks of the tournaments app: the periodic check of the official results; telling a pair its
match was called; the players' ratings brought in step with the official results (after each one)."""
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


@shared_task(name="tournaments.notify_match_called", ignore_result=True, acks_late=True)
def notify_match_called(match_id: int, table: int) -> None:
    """Web Push and e-mail to the pairs of a match just called to ``table`` (
    ``tournaments.services.notify.send_call``: each call told once, safe to run twice)."""
    from .services.notify import send_call

    send_call(match_id, table)


@shared_task(name="tournaments.sync_ratings")
def sync_ratings() -> int:
    """The rating history in step with the official results (tournaments/services/ratings.py); the
    number of matches rated."""
    from .services.ratings import sync_ratings as sync

    return sync()


@shared_task(name="tournaments.check_ratings")
def check_ratings() -> int:
    """Periodic (Celery beat): every official result compared with what was rated, not only the
    matches marked changed (a change that did not go through a service, a data fix); the number of
    matches rated again."""
    from .services.ratings import sync_ratings as sync

    return sync(full=True)
