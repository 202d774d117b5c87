"""The organizer told of PIN lockouts (art. 25; scoring/pin_notices.py): a player locked
out of signing is on the organizer's start page and the tournament's dashboard with the table and a
one-tap unlock, and the organizer gets a mail (through the Celery task) when a lockout starts."""
from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from scoring import pin_mail, pin_notices, services
from scoring.models import CredentialAttempts, Match, MatchEvent, NoticeSent
from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)
from tests.scoring.sumula_setup import play

STRANGER = "ip:10.0.0.66"


@pytest.fixture
def over(match, referee):
    play(match, referee, 0, 1, 0, 0, 0)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def mail_on(settings, organizer, monkeypatch):
    """Mail configured, and the mail task run here when queued (``apply``): with a real broker (CI's
    services pass) its worker reads another database than this test's, and ``mail.outbox`` is here.
    Yields the arguments each queued task got."""
    from scoring import tasks

    settings.EMAIL_CONFIGURED = True
    organizer.email = "olga@example.org"
    organizer.save(update_fields=["email"])
    queued = []
    monkeypatch.setattr(tasks.mail_pin_lockout, "delay",
                        lambda *args: queued.append(args) or tasks.mail_pin_lockout.apply(args=args))
    return queued


def guess(match, times: int, client: str = STRANGER, pin: str = "9999"):
    player = match.pair_a.first_player
    for _ in range(times):
        with pytest.raises(services.Forbidden):
            services.sign(match, "team0", player, pin=pin, client=client)
    return player


def test_a_locked_player_is_on_the_organizers_start_page_with_the_table_and_an_unlock(client, over, organizer):
    player = guess(over, 5)  # five wrong PINs from one device: that device is locked out (art. 25)
    client.force_login(organizer)
    page = reverse("organizer-home")
    html = client.get(page).content.decode()
    assert "1 jogador com o PIN bloqueado" in html
    assert 'data-testid="pin-lockouts"' in html and "Mesa 7" in html and player.name in html
    assert reverse("scoring:pin-unlock", kwargs={"pk": over.pk}) in html and f'value="{player.pk}"' in html

    response = client.post(reverse("scoring:pin-unlock", kwargs={"pk": over.pk}), {"player": player.pk, "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert not CredentialAttempts.objects.filter(subject=f"player:{player.pk}", locked_until__isnull=False).exists()
    assert MatchEvent.objects.filter(match=over, kind="pin_unlocked", by=organizer).exists()
    assert 'data-testid="pin-lockouts"' not in client.get(page).content.decode()


def test_the_dashboard_lists_it_under_needs_you_now(client, over, organizer, tournament):
    player = guess(over, 5)
    client.force_login(organizer)
    html = client.get(reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})).content.decode()
    section = html.split('<section class="panel" id="pin-lockouts"')[1].split("</section>")[0]
    assert "Precisa de você agora" in section and "Mesa 7" in section and player.name in section
    assert "bloqueado" in section


def test_a_suspended_pin_says_so(client, over, organizer):
    for n in range(4):  # 20 failures from four devices: the PIN is slowed for every device
        guess(over, 5, client=f"ip:10.1.0.{n}")
    [lock] = pin_notices.lockouts(pin_notices.open_matches(Match.objects.all()))
    assert lock.suspended and lock.player == over.pair_a.first_player and lock.match == over
    client.force_login(organizer)
    html = client.get(reverse("organizer-home")).content.decode()
    assert "PIN limitado" in html and "20 tentativas erradas hoje" in html and "10.1.0.3 sem cookie de aparelho (5)" in html


def test_failures_without_a_lockout_and_received_matches_are_not_listed(over, referee, organizer):
    guess(over, 4)
    assert pin_notices.lockouts(pin_notices.open_matches(Match.objects.all())) == []
    guess(over, 1)
    assert len(pin_notices.lockouts(pin_notices.open_matches(Match.objects.all()))) == 1
    Match.objects.filter(pk=over.pk).update(status=Match.Status.RECEIVED, received_at=timezone.now())
    assert pin_notices.lockouts(pin_notices.open_matches(Match.objects.all())) == []


def test_another_organizer_does_not_see_it(client, over, outsider):
    guess(over, 5)
    client.force_login(outsider)
    html = client.get(reverse("organizer-home")).content.decode()
    assert 'data-testid="pin-lockouts"' not in html


def test_the_organizer_gets_one_mail_through_the_task(over, mail_on, django_capture_on_commit_callbacks):
    queued = mail_on
    with django_capture_on_commit_callbacks(execute=True):
        player = guess(over, 5)
    assert queued == [(over.pk, player.pk, False)]  # queued once the refusal committed: the request does not wait
    [message] = mail.outbox
    assert message.to == ["olga@example.org"]
    assert player.name in message.subject and "mesa 7" in message.subject and "Torneio de Teste" in message.subject
    assert "art. 25" in message.body and f"/sumulas/partida/{over.pk}/assinar/" in message.body

    with django_capture_on_commit_callbacks(execute=True):
        guess(over, 5, client="ip:10.0.0.67")  # another device locked out within the hour: no second mail
    assert len(mail.outbox) == 1


def test_a_suspension_is_mailed_too(over, mail_on, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(4):
            guess(over, 5, client=f"ip:10.2.0.{n}")
    assert len(mail.outbox) == 2 and "limitado" in mail.outbox[1].body


@pytest.mark.parametrize("missing", ["address", "mail"])
def test_no_mail_without_an_address_or_a_mail_server(over, mail_on, settings, organizer, missing,
                                                     django_capture_on_commit_callbacks):
    if missing == "address":
        organizer.email = ""
        organizer.save(update_fields=["email"])
    else:
        settings.EMAIL_CONFIGURED = False
    with django_capture_on_commit_callbacks(execute=True):
        guess(over, 5)
    assert mail.outbox == []
    assert MatchEvent.objects.filter(match=over, kind="signature_refused", data__locked=True).exists()


def test_a_mail_server_that_fails_does_not_fail_the_refusal(over, mail_on, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    def down(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(pin_mail, "send_mail", down)
    with django_capture_on_commit_callbacks(execute=True):
        guess(over, 5)  # still the plain refusal (Forbidden), no server error
    assert mail.outbox == []


def test_the_once_an_hour_mark_is_in_the_database_for_every_process(db):
    """Another web process has its own memory and cache: the mark is a row, taken once (unique key)."""
    from datetime import timedelta

    hour = timedelta(hours=1)
    assert pin_mail.first_notice_in("k", hour) is True
    assert pin_mail.first_notice_in("k", hour) is False
    assert pin_mail.first_notice_in("other", hour) is True
    NoticeSent.objects.filter(key="k").update(sent_at=timezone.now() - hour - timedelta(seconds=1))
    assert pin_mail.first_notice_in("k", hour) is True  # an hour later: again
    assert NoticeSent.objects.count() == 2
