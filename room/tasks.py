"""Celery tasks of the room, for the worker to find: telling a pair its match was called (defined beside
its service, ``services.notify``; its name, ``tournaments.notify_match_called``, is the one queued before
the room had an app of its own)."""
from .services.notify import notify_match_called_task as notify_match_called  # noqa: F401
