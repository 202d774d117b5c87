"""Print jobs and the printing pages: documents in bulk, the eager task, progress, failures,
permissions (docs/printing.md)."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring import pdf
from printing import jobs as printing
from scoring.content import signature_document, sumula_document
from scoring.models import Signature
from printing.models import PrintJob

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_tasks(eager_celery):
    """These tests run the print task in-process, even when a broker is configured (.ci/run's
    second pass); a real worker prints in test_print_worker.py."""
    yield  # tests/conftest.py: eager_celery


def login_url() -> str:
    from django.conf import settings
    from django.shortcuts import resolve_url

    return resolve_url(settings.LOGIN_URL)


def test_sheets_for_equals_sumula_document_match_by_match(printed_round, django_assert_max_num_queries):
    matches = printing.ordered_matches(printed_round["round"].matches.all())
    with django_assert_max_num_queries(6):
        sheets = printing.sheets_for(matches, "filled")
    assert [s.document["match"]["table"] for s in sheets] == [1, 2, 3]
    for match, sheet in zip(matches, sheets):
        assert sheet.document == sumula_document(match)
        expected = Signature.objects.filter(version__match=match).order_by("signed_at", "pk")
        assert list(sheet.signatures) == [signature_document(s) for s in expected]
    assert [s.draft for s in sheets] == [False, False, True]  # the third match is still open: not issued


def test_sheets_for_does_not_grow_with_the_number_of_matches(printed_round, django_assert_max_num_queries):
    from tests.scoring.documents import round_documents, store_round

    store_round(printed_round["round"], round_documents(12, seed=77), referee=printed_round["referee"])
    matches = printing.ordered_matches(printed_round["round"].matches.all())
    assert len(matches) == 15
    with django_assert_max_num_queries(6):
        printing.sheets_for(matches, "filled")
    with django_assert_max_num_queries(0):
        printing.sheets_for(matches, "blank")


def test_round_print_runs_eagerly_to_done_with_one_sumula_per_match(
        printed_round, media_root, pdf_pages, pdf_text, django_capture_on_commit_callbacks, monkeypatch):
    progress = []
    real = printing._Progress.__call__

    def spy(self, done):
        progress.append(done)
        real(self, done)

    monkeypatch.setattr(printing._Progress, "__call__", spy)
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.start_print_job(kind="filled", user=printed_round["organizer"], round=printed_round["round"])
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.error
    assert (job.done, job.total) == (3, 3) and job.percent == 100
    assert progress == [1, 2, 3]
    assert job.started_at and job.finished_at and job.task_id
    assert set(job.matches.all()) == set(printed_round["matches"])
    data = job.file.read()
    assert str(media_root) in job.file.path
    # one súmula per match: the pages of the round PDF are the pages of each súmula, in table order
    singles = [printing.match_pdf(m, "filled") for m in printed_round["matches"]]
    assert pdf_pages(data) == sum(pdf_pages(single) for single in singles)
    text = pdf_text(data)
    firsts = [page for page in text.split("\f") if "Página 1 de" in page]
    assert len(firsts) == 3
    for page, match in zip(firsts, printed_round["matches"]):
        assert f"Mesa {match.table}" in page and match.pair_a.name in page and match.pair_b.name in page


def test_blank_round_print_has_one_sheet_per_match(printed_round, media_root, pdf_pages, pdf_text,
                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.start_print_job(kind="blank", user=printed_round["organizer"], round=printed_round["round"])
    job.refresh_from_db()
    assert job.status == "done" and job.done == 3
    data = job.file.read()
    # best of 3 → 2 pages, single game → 1 page
    assert pdf_pages(data) == 2 + 1 + 2
    assert pdf_text(data).count("SÚMULA (EM BRANCO)") == 3


def test_progress_is_written_while_rendering_not_only_at_the_end(printed_round, media_root, monkeypatch):
    seen = []
    real_layout = pdf.layout
    job = PrintJob.objects.create(kind="blank", tournament=printed_round["tournament"], round=printed_round["round"],
                                  total=3)
    job.matches.set(printed_round["matches"])

    def layout(html):
        seen.append(PrintJob.objects.values_list("status", "done").get(pk=job.pk))
        return real_layout(html)

    monkeypatch.setattr(pdf, "layout", layout)
    printing.run_print_job(job.pk, progress_interval=0)
    assert seen == [("running", 0), ("running", 1), ("running", 2)]
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 3, 3)


def test_a_failed_render_marks_the_job_failed_with_the_error(printed_round, media_root, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    calls = []

    def broken(html):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("fonte DejaVu ausente")
        return object()

    monkeypatch.setattr(pdf, "layout", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.start_print_job(kind="filled", user=printed_round["organizer"], round=printed_round["round"])
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert job.error == "RuntimeError: fonte DejaVu ausente"
    assert job.done == 1 and job.finished_at is not None and not job.file


def test_a_job_already_taken_is_not_run_twice(printed_round, media_root):
    job = PrintJob.objects.create(kind="blank", tournament=printed_round["tournament"], total=3, status="running")
    assert printing.run_print_job(job.pk).status == "running"
    assert printing.run_print_job(999999) is None


def test_only_the_organizer_or_staff_starts_a_round_print(printed_round):
    round_ = printed_round["round"]
    for user in (printed_round["outsider"], printed_round["referee"]):
        with pytest.raises(PermissionDenied):
            printing.start_print_job(kind="blank", user=user, round=round_)
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        printing.start_print_job(kind="blank", user=AnonymousUser(), round=round_)
    assert not PrintJob.objects.exists()
    from django.contrib.auth.models import Permission

    staff = printed_round["outsider"]  # made a site operator
    staff.user_permissions.add(Permission.objects.get(codename="operate_site"))
    staff = type(staff).objects.get(pk=staff.pk)
    assert printing.start_print_job(kind="blank", user=staff, round=round_).total == 3


def test_unknown_kind_and_empty_lists_are_refused(printed_round):
    with pytest.raises(ValueError):
        printing.start_print_job(kind="colorido", user=printed_round["organizer"], round=printed_round["round"])
    with pytest.raises(ValueError):
        printing.start_print_job(kind="blank", user=printed_round["organizer"], matches=[])


def test_a_list_of_matches_prints_too(printed_round, media_root, pdf_pages, django_capture_on_commit_callbacks):
    first, _, third = printed_round["matches"]
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.start_print_job(kind="filled", user=printed_round["organizer"], matches=[third, first])
    job.refresh_from_db()
    assert job.status == "done" and job.round is None and job.tournament == printed_round["tournament"]
    assert pdf_pages(job.file.read()) == sum(pdf_pages(printing.match_pdf(m, "filled")) for m in (first, third))


# -- pages ---------------------------------------------------------------------------------------

def test_round_page_starts_a_job_and_the_job_page_shows_the_download(
        client, printed_round, media_root, django_capture_on_commit_callbacks):
    client.force_login(printed_round["organizer"])
    url = reverse("printing:round", kwargs={"pk": printed_round["round"].pk})
    page = client.get(url)
    assert page.status_code == 200
    assert reverse("printing:match-filled", kwargs={"pk": printed_round["matches"][0].pk}) in page.text
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "blank"})
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("printing:job", kwargs={"pk": job.pk})
    page = client.get(response["Location"])
    assert page.status_code == 200
    pdf_url = reverse("printing:job-pdf", kwargs={"pk": job.pk})
    assert pdf_url in page.text and 'id="print-done">3</span>' in page.text  # done right away (eager)
    status = client.get(reverse("printing:job-status", kwargs={"pk": job.pk})).json()
    assert status == {"id": job.pk, "kind": "blank", "status": "done", "done": 3, "total": 3, "percent": 100,
                      "error": "", "finished": True, "download_url": pdf_url}
    download = client.get(pdf_url)
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    index = client.get(reverse("printing:tournament", kwargs={"slug": printed_round["tournament"].slug}))
    assert index.status_code == 200 and url in index.text


def test_a_queued_job_page_refreshes_without_javascript_and_polls_with_it(client, printed_round):
    job = PrintJob.objects.create(kind="filled", tournament=printed_round["tournament"], round=printed_round["round"],
                                  total=3, done=1, status="running", created_by=printed_round["organizer"])
    client.force_login(printed_round["organizer"])
    page = client.get(reverse("printing:job", kwargs={"pk": job.pk})).text
    assert '<meta http-equiv="refresh"' in page
    assert reverse("printing:job-status", kwargs={"pk": job.pk}) in page and "fetch(" in page
    assert 'value="1"' in page
    assert client.get(reverse("printing:job-pdf", kwargs={"pk": job.pk})).status_code == 404


def test_non_organizers_cannot_print_rounds_nor_see_jobs(client, printed_round):
    round_url = reverse("printing:round", kwargs={"pk": printed_round["round"].pk})
    job = PrintJob.objects.create(kind="blank", tournament=printed_round["tournament"], total=3,
                                  created_by=printed_round["organizer"])
    job_urls = [reverse(name, kwargs={"pk": job.pk}) for name in ("printing:job", "printing:job-pdf")]
    index = reverse("printing:tournament", kwargs={"slug": printed_round["tournament"].slug})
    # anonymous: sent to log in (the status endpoint just refuses)
    for url in [round_url, index, *job_urls]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(login_url()), url
    assert client.get(reverse("printing:job-status", kwargs={"pk": job.pk})).status_code == 403
    assert client.post(round_url, {"kind": "blank"}).status_code == 302
    # logged in without the right: 403, and nothing is queued
    client.force_login(printed_round["referee"])
    for url in [round_url, index, *job_urls, reverse("printing:job-status", kwargs={"pk": job.pk})]:
        assert client.get(url).status_code == 403, url
    assert client.post(round_url, {"kind": "blank"}).status_code == 403
    assert PrintJob.objects.count() == 1


def test_the_round_form_refuses_an_unknown_kind(client, printed_round):
    client.force_login(printed_round["organizer"])
    response = client.post(reverse("printing:round", kwargs={"pk": printed_round["round"].pk}), {"kind": "x"})
    assert response.status_code == 400 and not PrintJob.objects.exists()


def test_anyone_downloads_a_tournament_match_sumula(client, printed_round, pdf_text):
    match = printed_round["matches"][0]
    for name in ("printing:match-filled", "printing:match-blank"):
        response = client.get(reverse(name, kwargs={"pk": match.pk}))
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert 'filename="sumula' in response["Content-Disposition"]
    text = pdf_text(client.get(reverse("printing:match-filled", kwargs={"pk": match.pk})).content)
    assert match.pair_a.name in text and sumula_document(match)["digest"][:8] in text
    assert client.post(reverse("printing:match-filled", kwargs={"pk": match.pk})).status_code == 405


def test_a_friendly_sumula_is_only_for_its_referee_and_organizers(client, printed_round):
    from scoring.models import Match

    match = printed_round["matches"][1]
    Match.objects.filter(pk=match.pk).update(tournament=None, round=None)
    url = reverse("printing:match-filled", kwargs={"pk": match.pk})
    assert client.get(url).status_code == 302
    client.force_login(printed_round["outsider"])
    assert client.get(url).status_code == 403
    client.force_login(printed_round["referee"])
    assert client.get(url).status_code == 200
