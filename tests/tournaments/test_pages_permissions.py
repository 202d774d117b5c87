"""Who may open which tournament page: organizer pages refuse visitors and other users
(GET and POST, nothing changes), public pages are readable by anyone."""
from __future__ import annotations

import pytest
from django.shortcuts import resolve_url
from django.conf import settings
from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments.models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss")
    match = pf.open_matches(t)[0]
    pair = Pair.objects.filter(tournament=t).first()
    return org, t, match, pair


def organizer_requests(t, match, pair) -> list[tuple[str, str, dict]]:
    slug = {"slug": t.slug}
    return [
        ("get", reverse("tournaments:dashboard", kwargs=slug), {}),
        ("post", reverse("tournaments:configure", kwargs=slug), {"format": "round_robin", "seeding": "order",
                                                                  "group_count": 1, "qualifiers_per_group": 2,
                                                                  "tiebreaks": ["matches_won"]}),
        ("post", reverse("tournaments:register", kwargs=slug), {"name": "Intrusa", "first_name": "X",
                                                                 "second_name": "Y"}),
        ("post", reverse("tournaments:import", kwargs=slug), {"mode": "valid_rows"}),
        ("post", reverse("tournaments:confirm", kwargs={**slug, "pk": pair.pk}), {}),
        ("post", reverse("tournaments:withdraw", kwargs={**slug, "pk": pair.pk}), {"reason": "x"}),
        ("post", reverse("tournaments:check-in", kwargs=slug), {"pair": pair.pk}),
        ("post", reverse("tournaments:draw", kwargs=slug), {}),
        ("post", reverse("tournaments:next-round", kwargs=slug), {}),
        ("post", reverse("tournaments:referee", kwargs=slug), {"table": 1, "referee": ""}),
        ("post", reverse("tournaments:walkover", kwargs={**slug, "pk": match.pk}), {"absent": match.pair_a_id}),
        ("post", reverse("tournaments:result", kwargs={**slug, "pk": match.pk}),
         {"winner": match.pair_a_id, "reason": "x"}),
        ("post", reverse("tournaments:swap-tables", kwargs={**slug, "pk": match.pk}), {"table": 2, "reason": "x"}),
        ("post", reverse("tournaments:receive", kwargs={**slug, "pk": match.pk}), {}),
        ("post", reverse("tournaments:regenerate", kwargs={**slug, "number": 1}), {"reason": "x"}),
    ]


def state(t) -> tuple:
    return (
        Pair.objects.filter(tournament=t).count(),
        Pair.objects.filter(tournament=t, status="withdrawn").count(),
        CheckIn.objects.count(), Result.objects.count(), Round.objects.filter(tournament=t).count(),
        TableAssignment.objects.count(), AuditEntry.objects.count(),
        list(Match.objects.filter(tournament=t).order_by("pk").values_list("pk", "table", "pair_a", "pair_b")),
        Stage.objects.get(tournament=t).format,
    )


def test_every_organizer_page_sends_visitors_to_log_in(client, setup):
    _org, t, match, pair = setup
    before = state(t)
    for method, path, data in organizer_requests(t, match, pair):
        response = getattr(client, method)(path, data)
        assert response.status_code == 302, path
        assert response["Location"].startswith(resolve_url(settings.LOGIN_URL)), path
    assert state(t) == before


def test_every_organizer_page_refuses_other_users(client, setup):
    _org, t, match, pair = setup
    other = f.user("outro")
    other_t = pf.tournament(other, "outro-torneio", pairs=2, draw=False)  # organizer of another tournament
    client.force_login(other)
    before = state(t)
    for method, path, data in organizer_requests(t, match, pair):
        response = getattr(client, method)(path, data)
        assert response.status_code == 403, path
    assert state(t) == before
    assert client.get(reverse("tournaments:dashboard", kwargs={"slug": other_t.slug})).status_code == 200


def test_the_organizer_may(client, setup):
    org, t, match, pair = setup
    client.force_login(org)
    for method, path, data in organizer_requests(t, match, pair):
        response = getattr(client, method)(path, data)
        assert response.status_code in (200, 302, 400), path


def test_new_tournament_page_is_for_organizers(client, db):
    path = reverse("tournaments:new")
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith(resolve_url(settings.LOGIN_URL))
    client.force_login(f.user("jogador"))
    assert client.get(path).status_code == 403
    assert client.post(path, {"name": "X", "date": "2026-01-01", "format": "swiss", "best_of": 1}).status_code == 403
    assert not Tournament.objects.exists()


def test_public_pages_are_readable_by_anyone(client, setup):
    _org, t, _match, _pair = setup
    slug = {"slug": t.slug}
    for name in ("detail", "bracket", "grid", "standings", "rounds"):
        assert client.get(reverse(f"tournaments:{name}", kwargs=slug)).status_code == 200, name
    assert client.get(reverse("tournaments:round", kwargs={**slug, "number": 1})).status_code == 200
    bracket = pf.tournament(pf.organizer("org2"), "chave", pairs=4)
    assert client.get(reverse("tournaments:bracket-svg", kwargs={"slug": bracket.slug})).status_code == 200
    client.force_login(f.user("curioso"))
    assert client.get(reverse("tournaments:standings", kwargs=slug)).status_code == 200


def test_public_pages_do_not_show_organizer_actions(client, setup):
    _org, t, match, _pair = setup
    html = client.get(reverse("tournaments:rounds", kwargs={"slug": t.slug})).content.decode()
    assert "csrfmiddlewaretoken" in html  # the language switcher only
    assert reverse("tournaments:walkover", kwargs={"slug": t.slug, "pk": match.pk}) not in html
    assert reverse("tournaments:dashboard", kwargs={"slug": t.slug}) not in html
