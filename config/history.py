"""Rows written once: súmula versions, signatures and the audit logs are never rewritten or deleted.

``AppendOnly`` is the abstract base of those models: saving over a stored row, or deleting
one, raises :class:`HistoryError` (a correction makes a new row instead). Bulk query
methods are not guarded; the services never use them on these tables.
"""
from __future__ import annotations

from django.db import models


class HistoryError(Exception):
    """Code tried to rewrite or delete a row that is written once."""


class AppendOnly(models.Model):
    history_error: type[HistoryError] = HistoryError

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise self.history_error(f"{self._meta.verbose_name_plural} are never rewritten")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise self.history_error(f"{self._meta.verbose_name_plural} are never deleted")
