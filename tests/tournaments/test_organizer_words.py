"""Words the organizer's day met in the wrong place: a withdrawal said twice (the message and its toast), a pair
page's "Or by e-mail" with nothing before it, a confirmed sign-up still asked to confirm, a time limit saved with
no procedure for when time is up and no word about it."""
from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments.models import Pair
from room.services import ready
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db


def test_a_withdrawal_is_said_once_the_toast_naming_the_pair(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    html = client.post(reverse("tournaments:withdraw", kwargs={"slug": t.slug, "pk": pair.pk}),
                       {"reason": "foi embora"}, follow=True).content.decode()
    assert html.count(f"{pair.name} desistiu") == 1  # in the toast, with its "Desfazer"
    assert "1 jogo virou W.O." in html  # what followed, in the message (art. 26)


def test_the_pair_page_offers_e_mail_without_an_or_when_it_is_the_only_way(client, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""  # no push
    settings.EMAIL_CONFIGURED = True
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    pair = Pair.objects.filter(tournament=t).first()
    page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": pair.pk})).content.decode()
    assert 'data-testid="email-form"' in page
    assert "Por e-mail, para o contato" in page and "Ou por e-mail" not in page


def test_a_confirmed_sign_up_says_so_in_its_title(client, org):
    t = f.tournament(org)
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=False)
    signup = signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name="Zap",
                            players=[{"name": "Saulo Brito", "contact": "saulo@example.org"},
                                     {"name": "Telma Cruz", "contact": "telma@example.org"}])
    url = reverse("tournaments:signup-confirm", kwargs={"token": signups.link_token(signup.submission, 0)})
    assert "Saulo Brito, confirme sua inscrição" in client.get(url).content.decode()
    page = client.post(url, follow=True).content.decode()
    assert "Saulo Brito, sua inscrição está confirmada" in page and "confirme sua inscrição" not in page


def test_a_time_limit_without_an_end_of_time_procedure_is_pointed_out(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4)
    dashboard = reverse("tournaments:dashboard", kwargs={"slug": t.slug})
    assert 'data-testid="no-end-of-time"' not in client.get(dashboard).content.decode()
    ready.configure_room(t, org, time_limit=90, end_of_time="")
    page = client.get(dashboard).content.decode()
    assert 'data-testid="no-end-of-time"' in page and "limite de 90 minutos sem procedimento" in page
    ready.configure_room(t, org, time_limit=90, end_of_time="higher_score")
    assert 'data-testid="no-end-of-time"' not in client.get(dashboard).content.decode()
