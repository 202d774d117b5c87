"""Check-in at the door in one tap: "All present" checks in every confirmed pair not checked in yet, keeps the
check-ins already made, leaves out the withdrawn and the pending pairs, and is refused once the round is paired
or to someone who does not manage the tournament."""
from __future__ import annotations

import pytest
from django.urls import reverse

from config.errors import Conflict, ServiceError
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.models import CheckIn, Pair
from tournaments.services.check_in import check_in_all

pytestmark = pytest.mark.django_db


def test_all_present_checks_in_the_confirmed_pairs_not_checked_in_yet(org):
    t = f.tournament(org, check_in_required=True)
    pairs = f.pairs(t, 6)
    pending = f.pairs(t, 1, status=Pair.Status.PENDING)[0]
    services.withdraw_pair(pairs[5], org, "ill")
    rnd = services.upcoming_round(t, org)
    early = services.check_in(rnd, pairs[0], org)
    made = check_in_all(rnd, org)
    assert {c.pair_id for c in made} == {p.pk for p in pairs[1:5]}
    assert CheckIn.objects.get(round=rnd, pair=pairs[0]).pk == early.pk  # kept, not made again
    assert not CheckIn.objects.filter(pair__in=[pending, pairs[5]]).exists()
    assert check_in_all(rnd, org) == []  # a second tap: nothing left to do


def test_all_present_is_refused_to_a_stranger_and_after_the_draw(org):
    t = f.tournament(org, check_in_required=True)
    f.pairs(t, 4)
    rnd = services.upcoming_round(t, org)
    with pytest.raises(ServiceError):
        check_in_all(rnd, f.user("stranger", is_staff=False))
    assert not CheckIn.objects.exists()
    check_in_all(rnd, org)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    with pytest.raises(Conflict):
        check_in_all(rnd, org)


def test_the_dashboard_offers_all_present_in_one_tap(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=5, draw=False, format="swiss")
    t.check_in_required = True
    t.save(update_fields=["check_in_required"])
    dashboard = reverse("tournaments:dashboard", kwargs={"slug": t.slug})
    assert "Todas presentes: as 5 duplas ainda sem presença" in client.get(dashboard).content.decode()
    page = client.post(reverse("tournaments:check-in", kwargs={"slug": t.slug}), {"pair": "all"},
                       follow=True).content.decode()
    assert CheckIn.objects.filter(round__tournament=t).count() == 5
    assert "5 duplas com presença confirmada." in page and 'data-testid="checkin-all"' not in page
