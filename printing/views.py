"""Printing pages (mounted at /sumulas/impressao/): single súmula PDFs and print jobs.

Thin views over ``printing.jobs``: a match's blank or filled súmula PDF (public for
tournament matches), a print job's progress page, its JSON status and its PDF. A tournament's
printing index and a round's print form are ``printing.round_views``.
"""
from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from draw.models import Match

from . import jobs as printing
from .models import PrintJob


def deny(request):
    """Anonymous visitors are sent to log in; a logged-in user without the right gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _pdf_response(data: bytes, filename: str, *, inline: bool = True) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


@require_GET
def match_pdf(request, pk: int, kind: str):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    if not printing.can_download_match(request.user, match):
        return deny(request)
    data = printing.match_pdf(match, kind, site_url=printing.site_address(request),
                              with_links=printing.may_see_table_link(request.user, match))
    response = _pdf_response(data, printing.pdf_filename(kind, match=match))
    if kind == "blank":  # who asked decides what it carries (the table's link or not): never shared by a cache
        response["Cache-Control"] = "private, no-store"
        response["Vary"] = "Cookie"
    return response


def _job(request, pk: int) -> PrintJob:
    job = get_object_or_404(PrintJob.objects.select_related("tournament", "round"), pk=pk)
    if not printing.can_see_job(request.user, job):
        raise PermissionDenied
    return job


@require_GET
def job_page(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render_job_page(request, _job(request, pk))


def render_job_page(request, job: PrintJob, status: int = 200):
    return render(request, "scoring/print_job.html", {
        "job": job, "status_labels": {value: str(label) for value, label in PrintJob.Status.choices},
    }, status=status)


@require_GET
def job_status(request, pk: int):
    if not request.user.is_authenticated:
        raise PermissionDenied
    job = _job(request, pk)
    status = printing.job_status(job)
    status["download_url"] = reverse("printing:job-pdf", kwargs={"pk": job.pk}) if job.status == job.Status.DONE else ""
    response = JsonResponse(status)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def job_pdf(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    job = _job(request, pk)
    if job.status != job.Status.DONE or not job.file:
        raise Http404("this print job has no PDF")
    return FileResponse(job.file.open("rb"), content_type="application/pdf",
                        filename=printing.pdf_filename(job.kind, job=job), as_attachment=False)
