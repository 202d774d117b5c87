"""One phone cannot fill a public sign-up: sign-ups are limited per address and tournament (fresh device
cookies change nothing), each player's confirmation link goes to their own contact and never to the sender,
and the organizer sees (and is mailed) a refused flood."""
from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from tests.tournaments import factories as f
from tournaments.models import SignUp
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def t(org):
    org.email = "org@example.org"
    org.save()
    t = f.tournament(org)
    signup_review.configure_signup(t, org, open=True, pair_limit=2, waiting_list=False, deadline=None,
                             approval_required=False)
    return t


def post(client, t, n, *, address="203.0.113.5"):
    url = reverse("tournaments:signup", kwargs={"slug": t.slug})
    client.cookies.clear()  # a fresh device cookie for every sign-up, as the attacker does
    form = client.get(url, REMOTE_ADDR=address).context["form"]
    return client.post(url, {"submission": form.initial["submission"], "pair_name": f"Flood {n}",
                             "p0_name": f"Ana {n}", "p0_contact": f"a{n}@example.org",
                             "p1_name": f"Bia {n}", "p1_contact": f"b{n}@example.org"}, REMOTE_ADDR=address)


def test_one_address_with_fresh_cookies_cannot_fill_the_tournament(client, org, t, settings):
    settings.EMAIL_CONFIGURED = True
    answers = [post(client, t, n) for n in range(13)]
    limit = signups.per_address_hour()
    assert limit == 3
    assert [a.status_code for a in answers[:limit]] == [200] * limit
    assert all(a.status_code == 400 for a in answers[limit:])
    assert SignUp.objects.filter(tournament=t).count() == limit
    assert 'data-testid="signup-error"' in answers[-1].content.decode()  # the refusal named on the form
    assert post(client, t, 99, address="198.51.100.7").status_code == 200  # another address still signs up
    other = f.tournament(org, slug="outra")
    signup_review.configure_signup(other, org, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=False)
    assert post(client, other, 100).status_code == 200  # the limit is per tournament
    options = signup_review.options_of(t)
    assert options.floods_refused == 10 and options.flood_refused_at is not None
    to_organizer = [m for m in mail.outbox if m.to == ["org@example.org"]]
    assert len(to_organizer) == 1  # told once an hour, not ten times
    client.force_login(org)
    page = client.get(reverse("tournaments:signups", kwargs={"slug": t.slug})).content.decode()
    assert 'data-testid="signup-floods"' in page


def test_the_sender_never_holds_the_players_links(client, t, settings, django_capture_on_commit_callbacks):
    settings.EMAIL_CONFIGURED = True
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(client, t, 1).content.decode()
    signup = SignUp.objects.get(pair_name="Flood 1")
    tokens = [signups.link_token(signup.submission, i) for i in (0, 1)]
    assert not any(token in answer for token in tokens)  # the page answering the form shows no link
    by_to = {m.to[0]: m.body for m in mail.outbox}
    assert tokens[0] in by_to["a1@example.org"] and tokens[1] not in by_to["a1@example.org"]
    assert tokens[1] in by_to["b1@example.org"] and tokens[0] not in by_to["b1@example.org"]
    again = client.post(reverse("tournaments:signup", kwargs={"slug": t.slug}), {
        "submission": signup.submission, "pair_name": "Flood 1", "p0_name": "Ana 1", "p0_contact": "a1@example.org",
        "p1_name": "Bia 1", "p1_contact": "b1@example.org"}, REMOTE_ADDR="203.0.113.5").content.decode()
    assert not any(token in again for token in tokens)  # nor the same form sent again


def test_one_contact_cannot_confirm_both_players(t):
    with pytest.raises(Exception) as refused:
        signups.submit(t, submission="k" * 24, client="ip:203.0.113.5", pair_name="Zap",
                       players=[{"name": "Ana", "contact": "me@example.org"},
                                {"name": "Bia", "contact": "ME@example.org"}])
    assert getattr(refused.value, "field", "") == "players[1].contact"


def test_a_player_no_mail_reaches_is_confirmed_by_the_organizer_only(org, t):
    signup = signups.submit(t, submission="p" * 24, client="ip:203.0.113.5", pair_name="Zap",
                            players=[{"name": "Ana", "contact": "+55 41 99999-0000"},
                                     {"name": "Bia", "contact": "+55 41 98888-0000"}])
    assert signup_review.state(signup) == signup_review.CONFIRMATION
    signup_review.approve(signup, org)
    assert {e.confirmed_via for e in signup.players.all()} == {"org"}
    signup.refresh_from_db()
    assert signup.pair_id is not None
