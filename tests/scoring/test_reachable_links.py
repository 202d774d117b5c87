"""Every printed or shown link uses the address the organizer is using: the request's
scheme, host and port, or ``SITE_URL`` when it is set in the environment. Read back from the PDFs
with zbarimg (zbar-tools) like a phone reads the card; ``scripts/setup-and-run`` names its LAN
addresses."""
from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from scoring import site
from tables import links as table_links
from printing.models import PrintJob

from .sumula_setup import *  # noqa: F401,F403
from tests.qr import qr_codes as read_qr_codes

LAN_HOST = "127.0.0.2:8140"


def qr_codes(data: bytes, tmp_path) -> set[str]:
    return read_qr_codes(data, tmp_path, dpi=300)


@pytest.fixture
def eager_tasks():
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def table_card(match):
    """The card of the match's table for the whole event, which the round's PDF prints."""
    from tables.models import TableCard

    return TableCard.objects.get(tournament_id=match.tournament_id, table=match.table, revoked_at__isnull=True)


def cards_from(client: Client, match, **extra):
    response = client.get(f"/sumulas/impressao/rodada/{match.round_id}/cartoes-de-mesa.pdf", **extra)
    assert response.status_code == 200
    return response.content


def test_a_card_printed_from_a_lan_address_encodes_that_address(match, organizer, lan, tmp_path):
    client = Client()
    client.force_login(organizer)
    data = cards_from(client, match, HTTP_HOST=LAN_HOST)
    card = table_card(match)
    assert qr_codes(data, tmp_path) == {f"http://127.0.0.2:8140/mesa/{card.token}/"}
    assert Client(HTTP_HOST=LAN_HOST).get(f"/mesa/{card.token}/").status_code == 200  # a phone opens it


def test_a_site_url_set_in_the_environment_wins_over_the_request(match, organizer, lan, settings, tmp_path):
    settings.SITE_URL, settings.SITE_URL_SET = "https://clube.example", True
    client = Client()
    client.force_login(organizer)
    data = cards_from(client, match, HTTP_HOST=LAN_HOST)
    assert qr_codes(data, tmp_path) == {f"https://clube.example/mesa/{table_card(match).token}/"}


def test_a_blank_sumula_print_job_keeps_the_address_of_the_request_that_started_it(
        match, organizer, lan, media_root, eager_tasks, tmp_path, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/sumulas/impressao/rodada/{match.round_id}/", {"kind": "blank"}, HTTP_HOST=LAN_HOST)
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.site_url == "http://127.0.0.2:8140" and job.status == "done"
    link = table_links.ensure_links([match])[match.pk]
    assert f"http://127.0.0.2:8140/mesa/{link.token}/" in qr_codes(job.file.read(), tmp_path)


def test_a_single_blank_sumula_downloaded_points_its_table_qr_to_the_request(match, organizer, lan, tmp_path):
    client = Client()
    client.force_login(organizer)
    response = client.get(f"/sumulas/impressao/partida/{match.pk}/em-branco.pdf", HTTP_HOST=LAN_HOST)
    assert response.status_code == 200
    link = table_links.ensure_links([match])[match.pk]
    assert f"http://127.0.0.2:8140/mesa/{link.token}/" in qr_codes(response.content, tmp_path)


def test_the_links_shown_on_pages_and_in_the_api_use_the_request_address(match, organizer, lan):
    client = Client()
    client.force_login(organizer)
    link = table_links.ensure_links([match])[match.pk]
    body = client.get(f"/api/scoring/matches/{match.pk}/", HTTP_HOST=LAN_HOST).json()
    assert body["table_url"] == f"http://127.0.0.2:8140/mesa/{link.token}/"
    page = client.get(f"/sumulas/partida/{match.pk}/", HTTP_HOST=LAN_HOST).content.decode()
    assert f'href="http://127.0.0.2:8140/mesa/{link.token}/"' in page


def test_site_address_without_a_request_or_with_a_bad_host_is_the_setting(rf, lan, settings):
    assert site.address() == "http://127.0.0.1:8000"
    assert site.address(rf.get("/", HTTP_HOST="evil.example")) == "http://127.0.0.1:8000"
    assert site.address(rf.get("/", HTTP_HOST=LAN_HOST)) == "http://127.0.0.2:8140"
    assert site.absolute("/mesa/x/", rf.get("/", HTTP_HOST="clube.example", secure=True)) == "https://clube.example/mesa/x/"


def test_setup_and_run_lists_this_machines_lan_addresses_never_loopback():
    script = (Path(__file__).resolve().parents[2] / "scripts" / "setup-and-run").read_text()
    function = re.search(r"^lan_addresses\(\) \{.*?^\}", script, re.S | re.M).group(0)
    out = subprocess.run(["bash", "-c", function + "\nlan_addresses"], capture_output=True, text=True, check=True).stdout
    for line in out.split():
        assert not ipaddress.IPv4Address(line).is_loopback
    assert 'echo "                        http://$ip:$port/"' in script and "all_interfaces=1" in script
