"""Undo for a few seconds: after a withdrawal the dashboard offers "Desfazer", which names
the audit entry it undoes and reinstates the pair through the same service as its row; a stale or late
undo is refused. A check-in's undo names the check-in it removes."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from config.errors import Conflict
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.models import AuditEntry, CheckIn, Pair, Result

pytestmark = pytest.mark.django_db


def toast_of(html: str) -> tuple[str, str] | None:
    found = re.search(r'<form method="post" action="([^"]+)" class="undo-toast".*?name="entry" value="(\d+)"', html, re.S)
    return found.groups() if found else None


def test_a_withdrawal_is_undone_from_the_toast_once(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    slug = {"slug": t.slug}
    page = client.post(reverse("tournaments:withdraw", kwargs={**slug, "pk": pair.pk}), {"reason": "foi embora"},
                       follow=True)
    html = page.content.decode()
    assert Result.objects.filter(absent=pair, kind=Result.Kind.WALKOVER).count() == 1
    url, entry = toast_of(html)
    assert 'data-testid="undo"' in html and "Desfazer" in html
    assert int(entry) == AuditEntry.objects.get(action="pair_withdrawn").pk
    assert toast_of(client.get(reverse("tournaments:dashboard", kwargs=slug)).content.decode()) is None  # once

    done = client.post(url, {"entry": entry}, follow=True).content.decode()
    pair.refresh_from_db()
    assert pair.status == Pair.Status.CONFIRMED and not Result.objects.filter(absent=pair).exists()
    assert "Desistência de" in done and "desfeita" in done
    reinstated = AuditEntry.objects.get(action="pair_reinstated")
    assert reinstated.reason.startswith("Desfeita logo depois: foi embora")
    again = client.post(url, {"entry": entry}, follow=True).content.decode()  # a second tap: refused, said
    assert "desatualizado" in again and AuditEntry.objects.filter(action="pair_reinstated").count() == 1


def test_a_stale_or_late_undo_is_refused(client, monkeypatch):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    services.withdraw_pair(pair, org, "primeira")
    first = services.undo_offer(pair)
    services.reinstate_pair(pair, org, "voltou")
    services.withdraw_pair(pair, org, "segunda")
    with pytest.raises(Conflict):  # the first withdrawal's undo does not undo the second
        services.undo_withdrawal(pair, org, first.pk)
    second = services.undo_offer(pair)
    later = timezone.now() + timedelta(minutes=5)  # the audit log is written once (no update): the clock moves
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.undo_offer(pair) is None
    with pytest.raises(Conflict, match="reintegre|reinstate"):
        services.undo_withdrawal(pair, org, second.pk)
    pair.refresh_from_db()
    assert pair.status == Pair.Status.WITHDRAWN


def test_a_check_in_undo_names_the_check_in_it_removes():
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss", draw=False)
    rnd = services.upcoming_round(t, org)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    old = services.check_in(rnd, pair, org)
    services.undo_check_in(rnd, pair, org, check_in=old.pk)
    new = services.check_in(rnd, pair, org)  # checked in again from another phone
    with pytest.raises(Conflict):
        services.undo_check_in(rnd, pair, org, check_in=old.pk)  # the stale phone's undo
    assert CheckIn.objects.filter(pk=new.pk).exists()
    services.undo_check_in(rnd, pair, org, check_in=new.pk)
    assert not CheckIn.objects.filter(round=rnd, pair=pair).exists()


def test_the_check_in_panel_undo_names_its_check_in(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4, format="swiss", draw=False)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    url = reverse("tournaments:check-in", kwargs={"slug": t.slug})
    html = client.post(url, {"pair": pair.pk}, follow=True).content.decode()
    done = CheckIn.objects.get(pair=pair)
    assert f'name="check_in" value="{done.pk}"' in html
    stale = client.post(url, {"pair": pair.pk, "undo": "1", "check_in": done.pk + 1000}, follow=True).content.decode()
    assert "outro aparelho" in stale and CheckIn.objects.filter(pk=done.pk).exists()
    client.post(url, {"pair": pair.pk, "undo": "1", "check_in": done.pk})
    assert not CheckIn.objects.filter(pair=pair).exists()


# ------------------------------------------------------------ a result typed by hand (art. 26)

def test_a_quick_result_is_undone_from_the_toast_and_the_bracket_goes_back(client):
    """No dialog before the quick result: the toast names the result_set entry; "Desfazer" opens the match
    again, its table's link too, and the bracket's final the result had created is gone (art. 26)."""
    from tables import links as table_links
    from tournaments.result_seals import check_all

    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4)
    first, second = pf.open_matches(t)
    pf.decide(first, org)
    page = client.post(reverse("tournaments:result", kwargs={"slug": t.slug, "pk": second.pk}),
                       {"winner": second.pair_b_id, "loser_points": "7", "reason": "súmula de papel"}, follow=True)
    html = page.content.decode()
    final = pf.open_matches(t)
    assert len(final) == 1 and {final[0].pair_a_id, final[0].pair_b_id} >= {second.pair_b_id}  # the bracket went on
    url, entry = toast_of(html)
    set_entry = AuditEntry.objects.filter(action="result_set", match=second).get()
    assert int(entry) == set_entry.pk and "Desfazer" in html and "12–7" in html
    assert table_links.active_link(second) is None  # decided here: closed to entries

    done = client.post(url, {"entry": entry}, follow=True).content.decode()
    assert "Resultado desfeito" in done
    assert not Result.objects.filter(match=second).exists()
    assert not type(second).objects.filter(pk=final[0].pk).exists()  # the final it created: gone
    assert table_links.active_link(second) is not None  # the table may enter the súmula again
    undone = AuditEntry.objects.get(action="result_undone")
    assert undone.after == {"undoes": set_entry.pk} and undone.match_id == second.pk
    assert check_all(t.pk) == {}  # the seals' check knows an undone result leaves none
    again = client.post(url, {"entry": entry}, follow=True).content.decode()  # a second tap: refused, said
    assert "desatualizado" in again and AuditEntry.objects.filter(action="result_undone").count() == 1


def test_a_stale_or_late_result_undo_is_refused(monkeypatch):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    pf.decide(match, org)
    first = services.result_undo_offer(match)
    pf.decide(match, org, winner=match.pair_b)  # changed again from another phone: not the same result
    with pytest.raises(Conflict):
        services.undo_result(match, org, first.pk)
    assert services.result_undo_offer(match) is None  # a result that replaced another: no undo offered
    other = pf.open_matches(t)[0]
    pf.decide(other, org)
    entry = services.result_undo_offer(other)
    later = timezone.now() + timedelta(minutes=5)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.result_undo_offer(other) is None
    with pytest.raises(Conflict, match="art. 26"):
        services.undo_result(other, org, entry.pk)
    assert Result.objects.filter(match=other).exists()


def test_undoing_the_final_s_result_reopens_the_finished_tournament():
    from tournaments.models import Tournament

    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    for match in pf.open_matches(t):
        pf.decide(match, org)
    final = pf.open_matches(t)[0]
    pf.decide(final, org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    services.undo_result(final, org, services.result_undo_offer(final).pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.IN_PROGRESS and [m.pk for m in pf.open_matches(t)] == [final.pk]
