"""The QR code of a printed súmula points to the address the print was asked from:
stored on the print job, read back from the PDF with zbarimg; SITE_URL when there is no request."""
from __future__ import annotations

import pytest
from django.urls import reverse

from printing import jobs as printing
from printing.models import PrintJob
from tests.qr import qr_codes as read_qr_codes

pytestmark = pytest.mark.django_db


def qr_codes(data: bytes, tmp_path) -> set[str]:
    return read_qr_codes(data, tmp_path, dpi=150)


@pytest.fixture(autouse=True)
def eager_tasks():
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def test_a_round_printed_from_the_club_network_points_its_qr_codes_to_that_address(
        client, printed_round, media_root, settings, tmp_path, django_capture_on_commit_callbacks):
    settings.ALLOWED_HOSTS = ["192.168.0.10", "testserver"]
    settings.SITE_URL = "http://127.0.0.1:8000"
    client.force_login(printed_round["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("printing:round", kwargs={"pk": printed_round["round"].pk}),
                                {"kind": "filled"}, HTTP_HOST="192.168.0.10:8000")
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.site_url == "http://192.168.0.10:8000" and job.status == "done"
    found = qr_codes(job.file.read(), tmp_path)
    assert len(found) == 2  # the match still being played has no issued digest yet
    assert all(url.startswith("http://192.168.0.10:8000/sumulas/verificar/") for url in found), found


def test_one_sumula_downloaded_points_to_the_address_it_was_asked_from(client, printed_round, settings, tmp_path):
    settings.ALLOWED_HOSTS = ["truco.clube.example", "testserver"]
    match = printed_round["matches"][0]
    client.force_login(printed_round["organizer"])
    response = client.get(reverse("printing:match-filled", kwargs={"pk": match.pk}),
                          HTTP_HOST="truco.clube.example", secure=True)
    assert response.status_code == 200
    found = qr_codes(response.content, tmp_path)
    assert found and all(url.startswith("https://truco.clube.example/sumulas/verificar/") for url in found)


def test_without_a_request_the_qr_codes_use_the_site_url_setting(printed_round, media_root, settings, tmp_path,
                                                                 django_capture_on_commit_callbacks):
    settings.SITE_URL = "http://clube.example:8080"
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.start_print_job(kind="filled", user=printed_round["organizer"],
                                       matches=printed_round["matches"][:1])
    job.refresh_from_db()
    assert job.site_url == ""
    found = qr_codes(job.file.read(), tmp_path)
    assert found and all(url.startswith("http://clube.example:8080/sumulas/verificar/") for url in found)
