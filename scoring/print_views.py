"""Printing pages (mounted at /sumulas/impressao/): single súmula PDFs, round print jobs.

Thin views over ``scoring.printing``: a match's blank or filled súmula PDF (public for
tournament matches), a tournament's printing index and a round's print form (organizer),
a print job's progress page, its JSON status and its PDF.
"""
from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.models import Round, Tournament

from . import printing
from .models import Match, PrintJob


def _deny(request):
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
        return _deny(request)
    return _pdf_response(printing.match_pdf(match, kind, site_url=printing.site_address(request)),
                         printing.pdf_filename(kind, match=match))


@require_GET
def tournament_index(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    if not printing.can_print_round(request.user, tournament):
        return _deny(request)
    rounds = tournament.rounds.order_by("number").prefetch_related("matches")
    jobs = tournament.print_jobs.select_related("round", "created_by")[:20]
    return render(request, "scoring/print_tournament.html", {"tournament": tournament, "rounds": rounds, "jobs": jobs})


@require_http_methods(["GET", "POST"])
def round_print(request, pk: int):
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not printing.can_print_round(request.user, round_.tournament):
        return _deny(request)
    error = ""
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        if kind not in printing.KINDS:
            error = "kind"
        elif not round_.matches.exists():
            error = "empty"
        else:
            job = printing.start_print_job(kind=kind, user=request.user, round=round_,
                                           site_url=printing.site_address(request))
            return redirect("printing:job", pk=job.pk)
    matches = (
        round_.matches.select_related("pair_a", "pair_b").order_by("table", "pk")
    )
    jobs = round_.print_jobs.select_related("created_by")[:10]
    return render(request, "scoring/print_round.html", {
        "round": round_, "tournament": round_.tournament, "matches": matches, "jobs": jobs, "error": error,
    }, status=400 if error else 200)


def _job(request, pk: int) -> PrintJob:
    job = get_object_or_404(PrintJob.objects.select_related("tournament", "round"), pk=pk)
    if not printing.can_see_job(request.user, job):
        raise PermissionDenied
    return job


@require_GET
def job_page(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    job = _job(request, pk)
    return render(request, "scoring/print_job.html", {
        "job": job, "status_labels": {value: str(label) for value, label in PrintJob.Status.choices},
    })


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
