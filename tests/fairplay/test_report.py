"""An event's fair-play report page: only its organizers and referees see it (anyone else gets a 404, the
public pages never link it), every request is recorded, and each flag links the súmulas that show it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from config.history import HistoryError
from fairplay.models import ReportAccess
from scoring import services as scoring
from scoring.models import HandEntry, Match
from tests.tournaments import factories as f
from tournaments import services


def _event(org):
    t = f.tournament(org, slug="limpo")
    f.pairs(t, 8)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    return t, list(Match.objects.filter(tournament=t, table__isnull=False).order_by("table"))


def _enter(match, org, count: int, first, seconds_each: float) -> None:
    for i in range(count):
        hand = scoring.record_hand(match, {"winner": i % 2, "ended_by": "tricks", "value": 1}, org)
        HandEntry.objects.filter(pk=hand.pk).update(created_at=first + timedelta(seconds=seconds_each * i))


@pytest.mark.django_db
def test_the_report_flags_a_fast_game_and_a_burst_for_the_organizer_and_audits_every_look(client):
    org = f.organizer("org")
    t, matches = _event(org)
    generated = t.rounds.get(number=1).generated_at
    _enter(matches[0], org, 8, generated + timedelta(seconds=30), 6)  # a game "played" at 6 s a hand
    _enter(matches[1], org, 9, generated + timedelta(minutes=40), 7)  # typed 40 minutes after the call
    _enter(matches[2], org, 9, generated + timedelta(minutes=2), 75)  # entered as it went
    url = reverse("fairplay:report", kwargs={"slug": t.slug})

    assert client.get(url).status_code == 404  # not public
    stranger = f.organizer("outro")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(org)
    response = client.get(url)
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    html = response.content.decode()
    assert html.count('data-testid="flag-pace"') == 1 and html.count('data-testid="flag-burst"') == 1
    assert reverse("printing:match-filled", kwargs={"pk": matches[0].pk}) in html
    assert reverse("printing:match-filled", kwargs={"pk": matches[1].pk}) in html
    assert reverse("printing:match-filled", kwargs={"pk": matches[2].pk}) not in html
    assert "Sinais, nunca sanções" in html
    rows = list(ReportAccess.objects.filter(tournament=t).values_list("user__username", "granted"))
    assert rows == [("outro", False), ("org", True)]  # the anonymous refusal writes nothing: anyone could fill it
    with pytest.raises(HistoryError):
        ReportAccess.objects.first().delete()  # the audit is append-only


@pytest.mark.django_db
def test_a_referee_of_the_event_reads_the_report_and_an_event_without_flags_says_so(client):
    org = f.organizer("org")
    t, matches = _event(org)
    referee = f.referee_of(t, f.user("juiz"))
    now = timezone.now()
    _enter(matches[0], org, 6, now - timedelta(minutes=10), 90)
    client.force_login(referee)
    html = client.get(reverse("fairplay:report", kwargs={"slug": t.slug})).content.decode()
    assert 'data-testid="no-flags"' in html
    assert ReportAccess.objects.get(tournament=t).granted
