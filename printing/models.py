"""The print job (:class:`PrintJob`): súmulas of a round or a list of matches rendered into one PDF by a
background task (``printing.jobs``). It moved here from ``scoring`` keeping its tables (``scoring_printjob``
and ``scoring_printjob_matches``; docs/architecture.md, "How the models moved")."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from draw.models import Match, Round
from events.models import Tournament


def print_job_upload_to(job: "PrintJob", filename: str) -> str:
    return f"sumulas/impressao/{timezone.now():%Y/%m}/{filename}"


class PrintJob(models.Model):
    """Súmulas of a round (or a list of matches) rendered into one PDF by a background task."""

    class Kind(models.TextChoices):
        BLANK = "blank", pgettext_lazy("print job", "Blank súmulas (to fill in by pen)")
        FILLED = "filled", pgettext_lazy("print job", "Filled súmulas")

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("print job", "Queued")
        RUNNING = "running", pgettext_lazy("print job", "Running")
        DONE = "done", pgettext_lazy("print job", "Done")
        FAILED = "failed", pgettext_lazy("print job", "Failed")

    kind = models.CharField(pgettext_lazy("print job", "kind"), max_length=10, choices=Kind.choices)
    status = models.CharField(
        pgettext_lazy("print job", "status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True,
        related_name="print_jobs", verbose_name=pgettext_lazy("print job", "tournament"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True,
        related_name="print_jobs", verbose_name=pgettext_lazy("print job", "round"),
    )
    matches = models.ManyToManyField(
        Match, related_name="print_jobs", verbose_name=pgettext_lazy("print job", "matches")
    )
    done = models.PositiveIntegerField(pgettext_lazy("print job", "súmulas rendered"), default=0)
    total = models.PositiveIntegerField(pgettext_lazy("print job", "súmulas to render"), default=0)
    file = models.FileField(pgettext_lazy("print job", "PDF"), upload_to=print_job_upload_to, blank=True)
    error = models.TextField(pgettext_lazy("print job", "error"), blank=True)
    task_id = models.CharField(pgettext_lazy("print job", "task id"), max_length=64, blank=True)
    site_url = models.CharField(
        pgettext_lazy("print job", "site address"), max_length=200, blank=True,
        help_text=pgettext_lazy("print job", "The address the print was asked from (e.g. http://192.168.0.10:8000): "
                                "the QR codes point there. Empty: the SITE_URL setting."),
    )
    attempts = models.PositiveSmallIntegerField(
        pgettext_lazy("print job", "attempts"), default=0,
        help_text=pgettext_lazy("print job", "How many times a worker started it (a lost worker's job is taken again)."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="print_jobs", verbose_name=pgettext_lazy("print job", "created by"),
    )
    created_at = models.DateTimeField(pgettext_lazy("print job", "created at"), default=timezone.now)
    started_at = models.DateTimeField(pgettext_lazy("print job", "started at"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("print job", "finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(pgettext_lazy("print job", "updated at"), auto_now=True)

    class Meta:
        db_table = "scoring_printjob"
        ordering = ["-created_at", "-id"]
        verbose_name = pgettext_lazy("print job", "print job")
        verbose_name_plural = pgettext_lazy("print job", "print jobs")
        constraints = [
            models.CheckConstraint(condition=Q(done__lte=F("total")), name="print_job_done_at_most_total"),
            models.CheckConstraint(condition=Q(kind__in=["blank", "filled"]), name="print_job_kind"),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]), name="print_job_status"
            ),
            models.CheckConstraint(
                condition=Q(round__isnull=True) | Q(tournament__isnull=False), name="print_job_round_needs_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"print job {self.pk} ({self.kind}, {self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        return 100 if self.status == self.Status.DONE else (100 * self.done // self.total if self.total else 0)
