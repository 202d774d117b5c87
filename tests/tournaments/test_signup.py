"""Players sign themselves up: each player confirms by their own link; no PIN is taken (the same-name rule
never merges strangers: the organizer links identities); a stranger cannot confirm someone else nor read
contacts; limit, waiting list filled by withdrawals, deadline, approval; a double send is one sign-up;
sign-ups from one address are limited per tournament."""
from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from config.errors import Conflict, ServiceError
from scoring.models import CredentialAttempts
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import AuditEntry, Pair, Player, SignUp, SignUpPlayer
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db
CLIENT = "ip:127.0.0.9"


@pytest.fixture
def t(org):
    t = f.tournament(org)
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=False)
    return t


def send(t, pair_name="Zap", a="Ana Souza", b="Bia Lima", client=CLIENT, key=None, **extra):
    players = [{"name": a, "contact": "ana@example.org", **extra.get("first", {})},
               {"name": b, "contact": "+55 41 99999-0000", **extra.get("second", {})}]
    return signups.submit(t, submission=key or secrets.token_urlsafe(24), client=client, pair_name=pair_name,
                          players=players)


def tokens(signup) -> list[str]:
    return [signups.link_token(signup.submission, i) for i in (0, 1)]


def test_both_confirm_by_link_and_the_pair_is_registered_once(client, t):
    signup = send(t)
    assert signup_review.state(signup) == signup_review.CONFIRMATION and not Pair.objects.exists()
    first, second = tokens(signup)
    assert SignUpPlayer.objects.filter(token_hash=signups.token_hash(first)).exists()
    assert not SignUpPlayer.objects.filter(token_hash=first).exists()  # only hashes are stored
    response = client.post(reverse("tournaments:signup-confirm", kwargs={"token": first}))
    assert response.status_code == 302
    assert not Pair.objects.exists()  # one player's link confirms that player only
    client.post(reverse("tournaments:signup-confirm", kwargs={"token": second}))
    client.post(reverse("tournaments:signup-confirm", kwargs={"token": second}))  # a double tap
    pair = Pair.objects.get(tournament=t)
    assert pair.name == "Zap" and pair.status == Pair.Status.CONFIRMED
    assert {pair.first_player.name, pair.second_player.name} == {"Ana Souza", "Bia Lima"}
    entry = AuditEntry.objects.get(tournament=t, action=AuditEntry.Action.PAIR_REGISTERED)
    assert entry.after["signup"] == signup.pk and entry.actor is None
    page = client.get(reverse("tournaments:signup-confirm", kwargs={"token": first})).content.decode()
    assert "ana@example.org" not in page and "99999" not in page  # contacts only on the organizers' page
    assert client.get(reverse("tournaments:signup-confirm", kwargs={"token": "x" * 40})).status_code == 404


def test_the_form_sent_twice_is_one_signup(client, t):
    page = reverse("tournaments:signup", kwargs={"slug": t.slug})
    form = client.get(page).context["form"]
    data = {"submission": form.initial["submission"], "pair_name": "Dupla Zap", "p0_name": "Ana Souza",
            "p0_contact": "ana@example.org", "p1_name": "Bia Lima", "p1_contact": "bia@example.org"}
    one, two = client.post(page, data), client.post(page, data)
    assert one.status_code == two.status_code == 200
    assert SignUp.objects.count() == 1
    assert one.context["signup"].pk == two.context["signup"].pk
    changed = client.post(page, {**data, "p1_name": "Bia Lima Neto"})  # back, edited, sent again: told
    assert SignUp.objects.count() == 1 and "Bia Lima Neto" not in SignUpPlayer.objects.values_list("name", flat=True)
    assert "já tinha sido enviado" in changed.content.decode() or "already been sent" in changed.content.decode()
    refused = client.post(page, {**data, "submission": secrets.token_urlsafe(24)})
    assert refused.status_code == 400 and "Dupla Zap" in refused.content.decode()  # what was typed is kept


def test_a_namesake_is_a_new_player_and_a_pin_is_refused_unchecked(org, t):
    earlier = f.tournament(org, slug="antes")
    known = f.pairs(earlier, 1)[0].first_player
    known.set_pin("2468")
    known.save()
    stranger = send(t, a=known.name)  # anyone can type a name: never the registered player without the PIN
    entry = stranger.players.get(position=0)
    assert entry.namesake and entry.player is None
    for token in tokens(stranger):
        signups.confirm(token, client=CLIENT)
    pair = Pair.objects.get(tournament=t)
    assert pair.first_player_id != known.pk and pair.first_player.name == known.name
    with pytest.raises(ServiceError) as refused:  # a PIN is refused unchecked: the organizer links identities
        send(t, pair_name="Outra", a=known.name.upper(), b="Carla", first={"pin": "2468"})
    assert refused.value.field == "players[0].pin"
    assert not CredentialAttempts.objects.exists()


def test_limit_waiting_list_and_a_withdrawal_fills_the_place(org, t):
    signup_review.configure_signup(t, org, open=True, pair_limit=2, waiting_list=True, deadline=None,
                             approval_required=False)
    made = []
    for n in range(3):
        signup = send(t, pair_name=f"Dupla {n}", a=f"A{n} Silva", b=f"B{n} Silva", client=f"ip:10.0.0.{n}")
        for token in tokens(signup):
            signups.confirm(token, client=CLIENT)
        made.append(SignUp.objects.get(pk=signup.pk))
    assert [signup_review.state(s) for s in made] == [signup_review.REGISTERED, signup_review.REGISTERED, signup_review.WAITING]
    info = signup_review.counts(t)
    assert (info["pairs"], info["waiting"]) == (2, 1)
    services.withdraw_pair(made[0].pair, org, reason="Doente")
    assert SignUp.objects.get(pk=made[2].pk).pair.status == Pair.Status.CONFIRMED
    assert Pair.objects.filter(tournament=t).exclude(status="withdrawn").count() == 2


def test_without_waiting_list_a_full_or_late_tournament_takes_no_signup(org, t):
    f.pairs(t, 2)
    signup_review.configure_signup(t, org, open=True, pair_limit=2, waiting_list=False, deadline=None,
                             approval_required=False)
    with pytest.raises(Conflict):
        send(t)
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True,
                             deadline=timezone.now() - timedelta(minutes=1), approval_required=False)
    with pytest.raises(Conflict):
        send(t)
    signup_review.configure_signup(t, org, open=False, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=False)
    with pytest.raises(Conflict):
        send(t)


def test_the_organizer_approves_and_a_stranger_cannot(client, org, t):
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=True)
    signup = send(t)
    for token in tokens(signup):
        signups.confirm(token, client=CLIENT)
    assert signup_review.state(SignUp.objects.get(pk=signup.pk)) == signup_review.APPROVAL and not Pair.objects.exists()
    approve = reverse("tournaments:signup-approve", kwargs={"slug": t.slug, "pk": signup.pk})
    client.force_login(f.user("estranho"))
    assert client.post(approve).status_code == 403
    assert client.get(reverse("tournaments:signups", kwargs={"slug": t.slug})).status_code == 403
    client.force_login(org)
    listing = client.get(reverse("tournaments:signups", kwargs={"slug": t.slug})).content.decode()
    assert "ana@example.org" in listing  # the organizers read the contacts
    client.post(approve)
    assert Pair.objects.get(tournament=t).name == "Zap"
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SIGNUP_APPROVED, actor=org).count() == 1


def test_sign_ups_from_one_address_are_limited(t):
    for n in range(signups.per_address_hour()):
        send(t, pair_name=f"D{n}", a=f"A{n} Silva", b=f"B{n} Silva")
    with pytest.raises(Conflict):
        send(t, pair_name="Mais uma", a="X Silva", b="Y Silva")
    send(t, pair_name="Outro aparelho", a="X Silva", b="Y Silva", client="ip:127.0.0.10")


def test_refused_signup_cannot_be_confirmed(org, t):
    signup = send(t)
    signup_review.refuse(signup, org, "Dupla repetida")
    with pytest.raises(Conflict):
        signups.confirm(tokens(signup)[0], client=CLIENT)
    assert not Player.objects.filter(name="Ana Souza").exists()


def test_an_unconfirmed_signup_takes_no_place_and_a_later_confirmed_one_goes_first(org, t):
    signup_review.configure_signup(t, org, open=True, pair_limit=2, waiting_list=True, deadline=None,
                             approval_required=False)
    early = send(t, pair_name="Cedo", a="Ana Souza", b="Bia Lima")  # a stranger's, never confirmed
    late = send(t, pair_name="Tarde", a="Caio Reis", b="Duda Melo")
    for token in tokens(late):
        signups.confirm(token, client=CLIENT)
    third = send(t, pair_name="Terceira", a="Edu Sá", b="Fê Lopes")
    for token in tokens(third):
        signups.confirm(token, client=CLIENT)
    assert sorted(Pair.objects.filter(tournament=t).values_list("name", flat=True)) == ["Tarde", "Terceira"]
    assert signup_review.state(early) == signup_review.CONFIRMATION and signup_review.counts(t)["waiting"] == 0


def test_an_unconfirmed_signup_expires_and_holds_nothing(client, org, t):
    signup = send(t, pair_name="Zap")
    signups.confirm(tokens(signup)[0], client=CLIENT)  # one of the two only
    sent_at = timezone.now() - signup_review.confirm_within() - timedelta(minutes=1)
    SignUp.objects.filter(pk=signup.pk).update(created_at=sent_at)
    signup.refresh_from_db()
    assert signup_review.state(signup) == signup_review.EXPIRED
    with pytest.raises(Conflict) as refused:
        signups.confirm(tokens(signup)[1], client=CLIENT)
    assert refused.value.field == "token" and "48" in refused.value.message
    assert not Pair.objects.exists()
    again = send(t, pair_name="Zap", client="ip:127.0.0.11")  # the name is free again
    assert again.pk != signup.pk and signup_review.state(again) == signup_review.CONFIRMATION
    page = client.get(reverse("tournaments:signup-confirm", kwargs={"token": tokens(signup)[1]}))
    assert 'data-state="expired"' in page.content.decode() and 'data-testid="confirm-form"' not in page.content.decode()


def test_the_deadline_ends_the_time_to_confirm(org, t):
    signup = send(t, pair_name="Zap")
    deadline = timezone.now() + timedelta(hours=1)
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True, deadline=deadline,
                             approval_required=False)
    assert signup_review.expires_at(signup) == deadline
    SignUp.objects.filter(pk=signup.pk).update(created_at=timezone.now() - timedelta(hours=2))
    signup_review.configure_signup(t, org, open=True, pair_limit=None, waiting_list=True,
                             deadline=timezone.now() - timedelta(minutes=1), approval_required=False)
    signup.refresh_from_db()
    assert signup_review.state(signup) == signup_review.EXPIRED
