"""The payment deadline: past it, an unpaid pair gives its place to the first sign-up waiting (through
the withdrawal and the waiting list of tournaments), is told by mail, and the new pair is charged;
with nobody waiting the unpaid pair keeps its place; the beat task does it for every event; only the
event's organizers do it by hand."""
from __future__ import annotations

import datetime
import secrets

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from config.errors import Forbidden
from events.models import Pair, SignUp
from finance import deadline, services
from finance.models import Entry, FeeSettings
from tests.tournaments import factories as f
from tournaments.services import signup as signups
from tournaments.services import signup_review as review


def waiting(t) -> int:
    """Sign-ups ready and waiting for a place."""
    return SignUp.objects.filter(tournament=t, ready_at__isnull=False, pair__isnull=True,
                                 refused_at__isnull=True).count()

pytestmark = pytest.mark.django_db


def signed_up(t, n: int) -> list[SignUp]:
    made = []
    for i in range(n):
        signup = signups.submit(t, submission=secrets.token_urlsafe(24), client=f"ip:10.0.0.{i}",
                                pair_name=f"Dupla {i}", players=[
                                    {"name": f"Ana{i} Souza", "contact": f"ana{i}@example.org"},
                                    {"name": f"Bia{i} Lima", "contact": "+55 41 99999-0000"}])
        for position in (0, 1):
            signups.confirm(signups.link_token(signup.submission, position), client="ip:127.0.0.9")
        made.append(SignUp.objects.get(pk=signup.pk))
    return made


@pytest.fixture
def event(settings):
    settings.EMAIL_CONFIGURED = True
    boss = f.organizer("ana")
    t = f.tournament(boss)
    review.configure_signup(t, boss, open=True, pair_limit=3, waiting_list=True, deadline=None,
                             approval_required=False)
    made = signed_up(t, 5)  # 3 in, 2 waiting
    services.set_fees(t, boss, price="120", pix_key="529.982.247-25", pix_name="Clube", pix_city="Sao Carlos",
                      pay_by=timezone.now() + datetime.timedelta(minutes=10))
    entries = services.charge_pairs(t, boss)
    return boss, t, made, entries


LATER = datetime.timedelta(hours=1)


def test_an_unpaid_pair_past_the_deadline_gives_its_place_to_the_first_waiting(event, mailoutbox,
                                                                               django_capture_on_commit_callbacks):
    boss, t, made, entries = event
    assert len(entries) == 3 and waiting(t) == 2
    services.mark_paid(entries[0], boss)
    services.mark_paid(entries[2], boss)
    unpaid = entries[1].pair
    with pytest.raises(Forbidden):
        deadline.release_unpaid(t, f.user("bia"))
    assert deadline.release_unpaid(t, boss) == []  # before the deadline
    with django_capture_on_commit_callbacks(execute=True):
        moved = deadline.release_unpaid(t, boss, timezone.now() + LATER)
    assert moved == [unpaid]
    unpaid.refresh_from_db()
    assert unpaid.status == Pair.Status.WITHDRAWN and unpaid.withdrawal_reason == deadline.reason()
    first_waiting = SignUp.objects.get(pk=made[3].pk)
    assert first_waiting.pair is not None and first_waiting.pair.status == Pair.Status.CONFIRMED
    assert Entry.objects.filter(pair=first_waiting.pair).exists()  # the new pair is charged
    assert waiting(t) == 1
    assert [m.to for m in mailoutbox] == [["ana1@example.org"]]
    assert "Dupla 1" in mailoutbox[0].body
    services.mark_paid(Entry.objects.get(pair=first_waiting.pair), boss)
    assert deadline.release_unpaid(t, boss, timezone.now() + LATER) == []  # the others paid


def test_with_nobody_waiting_an_unpaid_pair_keeps_its_place(settings):
    boss = f.organizer("ana")
    t = f.tournament(boss)
    pairs = f.pairs(t, 2)
    services.set_fees(t, boss, price="120", pix_key="529.982.247-25", pix_name="Clube", pix_city="Sao Carlos",
                      pay_by=timezone.now() - datetime.timedelta(hours=1))
    services.charge_pairs(t, boss)
    assert [p.pk for p in services.overdue(t)] == [p.pk for p in pairs]
    assert deadline.release_unpaid(t, boss) == []
    assert not Pair.objects.filter(tournament=t, status=Pair.Status.WITHDRAWN).exists()


def test_the_beat_task_and_the_organizers_button(event, client):
    boss, t, made, entries = event
    for entry in entries[1:]:
        services.mark_paid(entry, boss)
    assert deadline.release_unpaid_task() == 0  # the deadline is ahead
    Pair.objects.filter(tournament=t).update(registered_at=F("registered_at") - LATER)
    FeeSettings.objects.filter(tournament=t).update(pay_by=timezone.now() - datetime.timedelta(minutes=1))
    assert deadline.release_unpaid_task() == 1
    assert Pair.objects.get(pk=entries[0].pair_id).status == Pair.Status.WITHDRAWN
    client.force_login(boss)
    page = reverse("finance:money", kwargs={"slug": t.slug})
    assert 'data-testid="release"' not in client.get(page).content.decode()  # the pair that came in: not late
    assert client.post(page, {"action": "release"}).status_code == 302
    pay = client.get(reverse("finance:pay", kwargs={"slug": t.slug, "pair": entries[0].pair_id}))
    assert 'data-testid="lost-place"' in pay.content.decode()
