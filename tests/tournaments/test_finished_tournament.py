"""The end of the day: a finished tournament's dashboard shows the champion, the placings, the exports, the
results sheet to print and "Criar outro igual", offers nothing that would generate a round (again), and a
post to the draw, the next round or a round's regeneration is refused naming the rule."""
from __future__ import annotations

import subprocess

import pytest
from django.urls import reverse

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import results_sheet, services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

RULE = "O torneio terminou: suas rodadas não podem mais ser geradas"


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


@pytest.fixture
def finished(org):
    t = pf.tournament(org, pairs=6, format="round_robin")
    pf.play_all(t, org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_the_finished_dashboard_shows_the_champion_placings_exports_and_sheet(client, finished):
    html = client.get(url("dashboard", finished)).content.decode()
    champion = services.standings(finished).rows[0].pair
    assert f"Campeã: {champion.name}" in html
    assert url("standings", finished) in html
    assert reverse("tournaments-api:export-standings", kwargs={"slug": finished.slug}) in html
    assert reverse("tournaments-api:export-results", kwargs={"slug": finished.slug}) in html
    assert url("results-sheet", finished) in html and "Folha de resultados" in html
    assert f'{reverse("tournaments:new")}?como={finished.slug}' in html and "Criar outro igual" in html


def test_the_finished_dashboard_offers_nothing_that_generates_a_round(client, finished):
    html = client.get(url("dashboard", finished)).content.decode()
    for name in ("draw", "next-round"):
        assert f'action="{url(name, finished)}"' not in html
    assert "/refazer/" not in html and "Gerar de novo" not in html
    assert 'data-testid="rounds-done"' in html


@pytest.mark.parametrize("name", ["draw", "next-round", "regenerate"])
def test_a_post_that_would_generate_a_round_is_refused_naming_the_rule(client, finished, name):
    before = list(Round.objects.filter(tournament=finished).order_by("number").values_list("pk", "generated_at"))
    target = url(name, finished, number=1) if name == "regenerate" else url(name, finished)
    response = client.post(target, {"reason": "de novo"}, follow=True)
    assert any(RULE in str(m) for m in response.context["messages"])
    assert list(Round.objects.filter(tournament=finished).order_by("number").values_list(
        "pk", "generated_at")) == before


def test_the_results_sheet_holds_the_champion_the_placings_the_date_and_the_organizer(client, finished, tmp_path):
    response = client.get(url("results-sheet", finished))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    rows = services.standings(finished).rows
    assert "CAMPEÃ" in text and rows[0].pair.name in text  # the label in capitals (CSS)
    for line in rows:
        assert line.pair.name in text and line.pair.first_player.name in text
    assert finished.date.strftime("%d/%m/%Y") in text
    assert results_sheet.organizer_of(finished) in text
    assert "Provisório" not in text


def test_the_results_sheet_is_the_organizers_only(client, finished):
    client.force_login(f.organizer("outro"))
    assert client.get(url("results-sheet", finished)).status_code in (403, 404)
    client.logout()
    assert client.get(url("results-sheet", finished)).status_code in (302, 403, 404)
