"""Portuguese as a native speaker writes it: dates with lower-case months, plural
agreement, no "Dupla Dupla …", one word for a received súmula, infractions ordered by use with a
filter, a verification page without codes."""
from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.tournaments import pages_fixtures as pf
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_dates_are_written_with_lower_case_months(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=2, draw=False)
    Tournament.objects.filter(pk=t.pk).update(date=datetime.date(2026, 11, 23))
    assert "23 de novembro de 2026" in client.get("/").content.decode()
    client.cookies["django_language"] = "en"
    english = client.get("/").content.decode()
    assert "Nov. 23, 2026" in english or "November 23, 2026" in english


def test_counts_agree_with_their_number(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=1, draw=False)
    html = client.get(reverse("tournaments:dashboard", kwargs={"slug": t.slug})).content.decode()
    assert "<strong>1</strong> dupla confirmada" in html


def test_a_pair_named_dupla_is_not_called_dupla_dupla(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=2, draw=False)
    page = client.post(reverse("tournaments:register", kwargs={"slug": t.slug}), {
        "name": "Dupla Teste", "first_name": "Ana", "second_name": "Bia"}, follow=True).content.decode()
    assert "Dupla Teste cadastrada" in page and "Dupla Dupla" not in page
