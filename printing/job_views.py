"""The print job's retry (POST /sumulas/impressao/trabalho/<pk>/de-novo/): the organizer
queues a failed job again from its page (``printing.upkeep.retry_job``); with the broker down
the job's page answers 503 with the reason."""
from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from config.errors import Unavailable

from . import jobs as printing
from . import views as printing_pages
from .models import PrintJob
from .upkeep import retry_job


@require_POST
def job_retry(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    job = get_object_or_404(PrintJob.objects.select_related("tournament"), pk=pk)
    if not printing.can_see_job(request.user, job):
        raise PermissionDenied
    try:
        retry_job(job)  # a second tap (the job is queued already) changes nothing
    except Unavailable:  # the broker is down: the job's page says so (failed again, with the reason)
        job.refresh_from_db()
        response = printing_pages.render_job_page(request, job, status=503)
        response["Retry-After"] = str(Unavailable.retry_after)
        return response
    return redirect("printing:job", pk=job.pk)
