"""Avoided pairings and the organizer's controls through the services, the API and the pages: pairs of one
club or family kept apart in a Swiss round and a group draw (and said so when they could not be),
and the controls that were in the API only (details, deleting a pair before the draw, reinstating a
withdrawn pair, a later stage's settings, the per-round format, the referee settings)."""
from __future__ import annotations

import pytest

from referee.models import EscalationPolicy, RefereeSettings
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.factories import api_client as client
from tests.tournaments.pages_fixtures import url
from tournaments import services
from tournaments.models import AuditEntry, GroupMember, Pair, Round, Stage

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def board_pairs(t, number=1) -> set[frozenset]:
    rnd = Round.objects.get(tournament=t, number=number)
    return {frozenset((m.pair_a_id, m.pair_b_id)) for m in rnd.matches.all()}


# ---- point 10: avoided pairings


def test_a_swiss_round_one_keeps_club_mates_apart_and_the_round_says_when_it_cannot(org):
    """8 pairs seeded 1..8: the fold is 1-5 2-6 3-7 4-8. P1 and P5 are of one club: 1-6 2-5 3-7 4-8."""
    t = f.tournament(org, slug="copa")
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    c = client(org)
    for p in (pairs[0], pairs[4]):
        assert c.patch(f"{API}pairs/{p.pk}/", {"avoid_tags": "Clube Lagoa"}, format="json").status_code == 200
    assert c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 3}, format="json").status_code == 200
    assert c.post(f"{API}rounds/generate/", {}, format="json").status_code == 201
    ids = [p.pk for p in pairs]
    assert board_pairs(t) == {frozenset((ids[a], ids[b])) for a, b in ((0, 5), (1, 4), (2, 6), (3, 7))}
    assert c.get(f"{API}rounds/1/").json()["unavoided"] == []


def test_a_club_too_big_to_keep_apart_is_reported_on_the_round_page_and_the_api(org, client):
    t = f.tournament(org, slug="copa")
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    Pair.objects.filter(pk__in=[p.pk for p in pairs[:3]]).update(avoid_tags="Família Souza")
    services.configure_stage(t, org, format="swiss", swiss_rounds=2)
    services.generate_first_round(t, org)
    (together,) = Round.objects.get(tournament=t, number=1).unavoided  # three of four: one board of them
    assert len(together) == 2 and set(together) <= {p.pk for p in pairs[:3]}
    api = f.api_client(org).get(f"{API}rounds/1/").json()
    assert api["unavoided"] == [together]
    html = client.get(url("round", t, number=1)).content.decode()
    assert 'data-testid="unavoided"' in html and "clube ou família" in html


def test_the_group_draw_keeps_a_family_apart_and_avoid_rounds_limits_the_swiss(org):
    """8 pairs in 2 groups by snake (one pair of each pot of seeds {1,2} {3,4} {5,6} {7,8} a group); 1 and 4 of
    one family land apart. Among the draws that do so equally well, the lot chooses (recorded in the seed)."""
    t = f.tournament(org, slug="copa")
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    Pair.objects.filter(pk__in=[pairs[0].pk, pairs[3].pk]).update(avoid_tags="Souza, Clube Sol")
    services.configure_stage(t, org, format="round_robin", group_count=2)
    services.generate_first_round(t, org)
    groups = {}
    for g, pk in GroupMember.objects.filter(stage__tournament=t).values_list("group", "pair_id"):
        groups.setdefault(g, set()).add(pk)
    ids = [p.pk for p in pairs]
    seed_of = {pk: n for n, pk in enumerate(ids)}
    for members in groups.values():  # one of each pot
        assert sorted(seed_of[pk] // 2 for pk in members) == [0, 1, 2, 3]
    assert not any({ids[0], ids[3]} <= members for members in groups.values())  # the family apart
    assert Round.objects.get(tournament=t, number=1).unavoided == []
    # a Swiss stage avoiding them in round 1 only
    stage = Stage.objects.get(tournament=t, position=1)
    from tournaments.services.draw import avoided
    stage.avoid_rounds = 1
    assert avoided(stage, 1) == {frozenset((ids[0], ids[3]))} and avoided(stage, 2) == frozenset()


# ---- point 11: the controls in the pages


def test_details_delete_and_reinstate_from_the_dashboard(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=5, format="round_robin", draw=False)
    response = client.post(url("details", t), {"name": "Copa da Lagoa", "date": "2026-12-05", "venue": "Bar do Zé"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.date.isoformat(), t.venue) == ("Copa da Lagoa", "2026-12-05", "Bar do Zé")
    html = client.get(url("dashboard", t)).content.decode()
    mistaken = t.pairs.order_by("pk").last()
    assert 'data-testid="details-form"' in html and url("pair-actions", t, pk=mistaken.pk) in html
    panel = client.get(url("pair-actions", t, pk=mistaken.pk), HTTP_X_DASHBOARD_PANEL="1").content.decode()
    assert 'data-testid="delete-pair"' in panel and "data-confirm" in panel
    assert client.post(url("delete-pair", t, pk=mistaken.pk)).status_code == 302
    assert not Pair.objects.filter(pk=mistaken.pk).exists()
    assert AuditEntry.objects.filter(tournament=t, action="pair_deleted", before__name=mistaken.name).exists()
    services.generate_first_round(t, org)
    pair = t.pairs.order_by("pk").first()
    assert 'data-testid="delete-pair"' not in client.get(url("pair-actions", t, pk=pair.pk)).content.decode()
    with pytest.raises(services.Conflict):
        services.delete_pair(pair, org)  # after the draw: withdraw it instead (409)
    services.withdraw_pair(pair, org, "ill")
    html = client.get(url("pair-actions", t, pk=pair.pk)).content.decode()
    assert 'data-testid="reinstate-pair"' in html
    assert client.post(url("reinstate", t, pk=pair.pk), {"reason": "better now"}).status_code == 302
    pair.refresh_from_db()
    assert pair.status == Pair.Status.CONFIRMED
    assert client.post(url("avoid-tags", t, pk=pair.pk), {"avoid_tags": " Clube Sol ,, família X "}).status_code == 302
    pair.refresh_from_db()
    assert pair.avoid_tags == "Clube Sol, família X"


def test_a_later_stage_settings_and_the_per_round_format_from_the_pages(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=8, format="groups_knockout", group_count=2, qualifiers_per_group=2, draw=False)
    response = client.post(url("configure", t), {
        "format": "round_robin", "seeding": "order", "group_count": 2, "qualifiers_per_group": 2,
        "tiebreaks": ["matches_won", "point_difference"], "legs": 1, "swiss_order": "fold",
        "round_best_of": "1=1, -1=3", "avoid_rounds": "2"})
    assert response.status_code == 302, response.content.decode()[:500]
    first = Stage.objects.get(tournament=t, position=1)
    assert first.round_best_of == {"1": 1, "-1": 3} and first.avoid_rounds == 2
    html = client.get(url("dashboard", t)).content.decode()
    assert 'data-testid="stage-settings-2"' in html
    response = client.post(url("stage-edit", t, position=2), {
        "name": "Mata-mata", "format": "double_elimination", "qualification": "per_group", "qualifiers_per_group": 2,
        "qualify_from": 1, "seeding": "lot", "grand_final_reset": "", "group_count": 1, "legs": 2,
        "swiss_order": "fold", "tiebreaks": ["matches_won", "head_to_head"], "round_best_of": "2=3",
        "semifinal_best_of": "3", "final_best_of": "5", "bye_value": "win", "bye_played": "on",
        "withdrawn_last": "on", "unequal_groups": "drop_last"})
    assert response.status_code == 302
    second = Stage.objects.get(tournament=t, position=2)
    assert (second.name, second.format, second.seeding, second.grand_final_reset, second.legs) == (
        "Mata-mata", "double_elimination", "lot", False, 2)
    assert second.tiebreaks == ["matches_won", "head_to_head"]
    assert second.round_best_of == {"2": 3, "-2": 3, "-1": 5}
    bad = client.post(url("stage-edit", t, position=2), {"format": "swiss", "round_best_of": "x=3"}, follow=True)
    assert "rodada=jogos" in bad.content.decode()


def test_the_referee_settings_page_sets_the_appeal_window_and_the_escalation_steps(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4, draw=False)
    page = client.get("/arbitragem/torneio/copa/regras/")
    assert page.status_code == 200 and 'data-testid="referee-settings"' in page.content.decode()
    assert 'data-testid="referee-settings-link"' in client.get(url("dashboard", t)).content.decode()
    response = client.post("/arbitragem/torneio/copa/regras/", {
        "appeal_window_minutes": "45", "steps_burned_card": ["warning", "tento", ""]})
    assert response.status_code == 302
    assert RefereeSettings.objects.get(tournament=t).appeal_window_minutes == 45
    assert EscalationPolicy.objects.get(tournament=t, code="burned_card").steps == ["warning", "tento"]
    response = client.post("/arbitragem/torneio/copa/regras/", {"appeal_window_minutes": "0"}, follow=True)
    assert RefereeSettings.objects.get(tournament=t).appeal_window_minutes == 45  # refused, nothing changed
    other = f.user("intruder", is_staff=False)
    client.force_login(other)
    assert client.get("/arbitragem/torneio/copa/regras/").status_code == 403


def test_disqualify_double_walkover_and_final_place_from_the_dashboard(client):
    """The overrides that were API only: a double W.O. in a league, a
    disqualification, a final place set by hand; each with its reason, confirmed in the page."""
    from tournaments.models import Result

    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4, format="round_robin")
    match = pf.open_matches(t)[0]
    html = client.get(url("dashboard", t)).content.decode()  # the forms of a pair and of a match come on demand
    html += client.get(url("match-actions", t, pk=match.pk)).content.decode()
    html += client.get(url("pair-actions", t, pk=match.pair_a_id)).content.decode()
    for testid in ("double-walkover-form", "disqualify-pair", "placing-form"):
        assert f'data-testid="{testid}"' in html
    assert client.post(url("double-walkover", t, pk=match.pk), {"reason": ""}).status_code == 302
    assert not Result.objects.filter(match=match).exists()  # a reason is required: nothing written
    client.post(url("double-walkover", t, pk=match.pk), {"reason": "nenhuma veio"})
    assert Result.objects.get(match=match).kind == "double_walkover"
    other = pf.open_matches(t)[0]
    client.post(url("disqualify", t, pk=other.pair_a_id), {"reason": "conduta"})
    assert Pair.objects.get(pk=other.pair_a_id).disqualified
    client.post(url("override-placing", t), {"pair": str(other.pair_b_id), "place": "1", "reason": "decisão"})
    assert AuditEntry.objects.filter(tournament=t, action="placing_overridden", reason="decisão").exists()


def test_a_pair_with_a_match_of_its_own_is_not_deleted(org):
    """Found by the API fuzzer: a match created by hand (no round) points to the pair; deleting it
    answers 409 (withdraw it instead), not a server error."""
    from scoring.services import create_match

    t = pf.tournament(org, pairs=2, draw=False)
    a, b = t.pairs.order_by("pk")
    create_match(pair_a=a, pair_b=b, by=org, tournament=t)
    response = f.api_client(org).delete(f"{API}pairs/{a.pk}/")
    assert response.status_code == 409 and response.json()["field"] == "pair"
    assert Pair.objects.filter(pk=a.pk).exists()
