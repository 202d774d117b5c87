"""Celery tasks of the seasons app, for the worker to find: the players' ratings brought in step with
the official results (``seasons.sync_ratings``, queued after each decision on results) and the periodic
full comparison (``seasons.check_ratings``, Celery beat). Both are defined beside their service
(``services.ratings``)."""
from .services.ratings import check_ratings_task as check_ratings  # noqa: F401
from .services.ratings import sync_ratings_task as sync_ratings  # noqa: F401
