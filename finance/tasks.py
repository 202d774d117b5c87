"""Celery tasks of the finance app, for the worker to find: the unpaid pairs past the payment
deadline give their places to the waiting list (``finance.release_unpaid``, Celery beat), defined
beside its service (``deadline``)."""
from .deadline import release_unpaid_task as release_unpaid  # noqa: F401
