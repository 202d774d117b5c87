"""The public sign-up cannot probe or lock out a player's PIN: it takes no PIN at all; an existing player is
claimed by the organizer linking the sign-up to them (no guess counted anywhere)."""
from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from config.errors import Conflict, Forbidden, ServiceError
from scoring import pins
from scoring.models import CredentialAttempts
from tests.tournaments import factories as f
from tournaments.models import AuditEntry, Pair, SignUp
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db


def registered(org):
    """A player of the organizer's earlier tournament (their name is public), with a PIN."""
    known = f.pairs(f.tournament(org, slug="antes"), 1)[0].first_player
    known.set_pin("2468")
    known.save()
    return known


@pytest.fixture
def t(org):
    t = f.tournament(org)
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=False)
    return t


def test_wrong_pins_through_the_signup_page_lock_nobody_out(client, org, t, settings):
    settings.TRUCO_SIGNUPS_PER_ADDRESS_HOUR = 100  # the flood limit aside: the PIN alone is under test
    known = registered(org)
    url = reverse("tournaments:signup", kwargs={"slug": t.slug})
    for n in range(20):  # the attack: a fresh cookie each time, the player's public name, wrong PINs
        client.cookies.clear()
        form = client.get(url).context["form"]
        client.post(url, {"submission": form.initial["submission"], "pair_name": f"Z{n}",
                          "p0_name": known.name, "p0_pin": f"{n:04d}", "p0_contact": f"a{n}@example.org",
                          "p1_name": f"Bia {n}", "p1_contact": f"b{n}@example.org"})
    assert SignUp.objects.filter(tournament=t).count() == 20  # each a new player flagged "namesake"
    assert not CredentialAttempts.objects.exists()  # no PIN was ever checked from this page
    assert pins.verify(known, client="ip:10.0.0.1", pin="2468").ok  # the player's own phone signs at once


def test_a_pin_sent_to_the_service_is_refused_unchecked(t):
    with pytest.raises(ServiceError) as refused:
        signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name="Zap",
                       players=[{"name": "Ana", "contact": "a@example.org", "pin": "0000"},
                                {"name": "Bia", "contact": "b@example.org"}])
    assert refused.value.field == "players[0].pin"
    assert not CredentialAttempts.objects.exists()


def test_the_organizer_links_a_namesake_to_the_registered_player(client, org, t):
    known = registered(org)
    signup = signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name="Zap",
                            players=[{"name": known.name.upper(), "contact": "a@example.org"},
                                     {"name": "Bia Lima", "contact": "+55 41 99999-0000"}])
    entry = signup.players.get(position=0)
    assert entry.namesake and entry.player_id is None
    other = f.user("outro")
    with pytest.raises(Forbidden):
        signup_review.link_player(entry, known.pk, other)

    with pytest.raises(ServiceError):  # only a player with this name
        signup_review.link_player(entry, known.pk + 1000, org)
    client.force_login(org)
    page = client.get(reverse("tournaments:signups", kwargs={"slug": t.slug})).content.decode()
    assert 'data-testid="link-player"' in page
    client.post(reverse("tournaments:signup-link", kwargs={"slug": t.slug, "pk": signup.pk}),
                {"position": 0, "player": known.pk})
    entry.refresh_from_db()
    assert entry.player_id == known.pk and not entry.namesake
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SIGNUP_APPROVED, actor=org,
                                     after__linked={"0": known.pk}).exists()
    signups.confirm(signups.link_token(signup.submission, 0))
    signup_review.approve(signup, org)  # the second player gave a phone: the organizer confirms them
    pair = Pair.objects.get(tournament=t)
    assert pair.first_player_id == known.pk and pair.second_player.name == "Bia Lima"
    with pytest.raises(Conflict):  # a registered sign-up links nobody any more
        signup_review.link_player(signup.players.get(position=0), known.pk, org)
    assert not CredentialAttempts.objects.exists()
