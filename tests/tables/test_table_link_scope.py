"""A table link does only its job: it enters hands, undoes the hands a table link entered,
signs with PINs, contests and calls the referee. Penalties, the first dealer, corrections and undoing
what the referee or the organizer recorded are refused (403, naming the rule); a penalty's ruling is
one of the same match; every row and audit event records its author; a received súmula's link stays
dead after a correction reopens it."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring import services
from tables import links as table_links
from scoring.models import HandEntry, MatchEvent, PenaltyEntry

from tests.scoring.sumula_setup import *  # noqa: F401,F403
from tests.tables.test_table_links import hand, play_to_end, table_client


def staff(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def penalty(api, pk, **extra):
    return api.post(f"/api/scoring/matches/{pk}/penalties/",
                    {"offender": 1, "points": 12, "article": "art. 24", **extra}, format="json")


def test_a_table_link_awards_no_penalty(match, link):
    response = penalty(table_client(link), match.pk)
    assert response.status_code == 403, response.json()
    assert "penal" in response.json()["error"]["message"].lower() and "art. 25" in response.json()["error"]["message"]
    assert not PenaltyEntry.objects.exists() and not MatchEvent.objects.filter(kind="penalty").exists()
    match.refresh_from_db()
    assert match.winner is None


def test_a_table_link_sets_no_first_dealer(match, link):
    with pytest.raises(services.Forbidden):
        services.set_first_dealer(match, 2, table_links.TableCredential(link))


def test_a_table_link_undoes_its_own_hands_but_not_the_referees_entries(match, link, referee):
    api = table_client(link)
    assert hand(api, match.pk).status_code == 201
    assert penalty(staff(referee), match.pk, points=1).status_code == 201  # the referee's penalty: position 2
    response = api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 2}, format="json")
    assert response.status_code == 403, response.json()
    assert "art. 25" in response.json()["error"]["message"]
    assert PenaltyEntry.objects.count() == 1
    assert staff(referee).post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 2},
                               format="json").status_code == 201
    # a hand the referee entered is the referee's too
    assert hand(staff(referee), match.pk).status_code == 201
    last = HandEntry.objects.get(position=2)
    assert last.created_by == referee and last.table_link_id is None
    response = api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 2}, format="json")
    assert response.status_code == 403
    # the table's own hand, once it is the last one again, it may undo
    assert staff(referee).post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 2},
                               format="json").status_code == 201
    response = api.post(f"/api/scoring/matches/{match.pk}/undo/", {"game": 1, "position": 1}, format="json")
    assert response.status_code == 201, response.json()
    undo = MatchEvent.objects.filter(kind="undo").order_by("-pk").first()
    assert undo.by is None and undo.data["via"] == f"table:{link.pk}"


def test_a_penalty_cites_a_ruling_of_its_own_match(match, other, referee, pairs):
    from referee import services as referee_services

    ruling = referee_services.propose(other, 1, 0, "guidance_word", {"value": 1}, referee)
    response = penalty(staff(referee), match.pk, points=1, ruling_id=ruling.pk)
    assert response.status_code == 400 and response.json()["error"]["field"] == "ruling_id", response.json()
    response = penalty(staff(referee), match.pk, points=1, ruling_id=999999)
    assert response.status_code == 400 and response.json()["error"]["field"] == "ruling_id"
    mine = referee_services.propose(match, 1, 0, "guidance_word", {"value": 1}, referee)
    response = penalty(staff(referee), match.pk, points=1, ruling_id=mine.pk)
    assert response.status_code == 201, response.json()
    row = PenaltyEntry.objects.get(ruling_id=mine.pk)
    assert row.created_by == referee
    event = MatchEvent.objects.filter(kind="penalty").latest("pk")
    assert event.by == referee and "via" not in event.data


def test_every_row_the_table_writes_names_it(match, link):
    api = table_client(link)
    body = play_to_end(api, match.pk)
    digest = body["match"]["current_version"]["digest"]
    assert api.post(f"/api/scoring/matches/{match.pk}/signatures/",
                    {"role": "team0", "player": match.pair_a.first_player_id, "pin": "1111", "digest": digest},
                    format="json").status_code == 201
    assert all(h.table_link_id == link.pk and h.created_by_id is None for h in HandEntry.objects.all())
    events = MatchEvent.objects.filter(kind__in=("hand", "signature", "signed"))
    assert events.exists()
    for event in MatchEvent.objects.filter(by__isnull=True).exclude(kind__in=("created", "version")):
        assert event.data.get("via") == f"table:{link.pk}", (event.kind, event.data)


def sign_and_receive(match, link, referee, organizer):
    api = table_client(link)
    digest = play_to_end(api, match.pk)["match"]["current_version"]["digest"]
    for role, player, pin in (("team0", match.pair_a.first_player_id, "1111"),
                              ("team1", match.pair_b.second_player_id, "4444")):
        assert api.post(f"/api/scoring/matches/{match.pk}/signatures/",
                        {"role": role, "player": player, "pin": pin, "digest": digest}, format="json").status_code == 201
    assert staff(referee).post(f"/api/scoring/matches/{match.pk}/countersign/", {"digest": digest},
                               format="json").status_code == 201
    assert staff(organizer).post(f"/api/scoring/matches/{match.pk}/received/").status_code == 200


def test_a_received_sumulas_link_stays_dead_after_a_correction_reopens_it(match, link, referee, organizer):
    sign_and_receive(match, link, referee, organizer)
    link.refresh_from_db()
    assert link.revoked_at is not None  # closed at the receipt
    response = staff(organizer).post(f"/api/scoring/matches/{match.pk}/corrections/",
                                     {"reason": "Mão 4 foi da dupla B",
                                      "changes": [{"op": "remove_entry", "game": 1, "position": 4}]}, format="json")
    assert response.status_code == 201, response.json()
    match.refresh_from_db()
    assert match.status == "open"
    assert table_links.resolve(link.token) is None
    assert hand(table_client(link), match.pk).status_code == 403
    # opening the match's page or the API does not hand the table a new link: only a reissue does
    assert staff(organizer).get(f"/api/scoring/matches/{match.pk}/").json()["table_url"] is None
    assert table_links.ensure_links([match]) == {}
    new = table_links.reissue(match, organizer)
    assert hand(table_client(new), match.pk).status_code == 201


def test_a_link_received_before_the_fix_dies_with_the_correction(match, link, referee, organizer):
    sign_and_receive(match, link, referee, organizer)
    link.__class__.objects.filter(pk=link.pk).update(revoked_at=None, revoked_by=None)  # an older receipt
    assert table_links.resolve(link.token) is None  # received: dead
    services.correct(match, [{"op": "remove_entry", "game": 1, "position": 4}], "Mão 4 errada", organizer)
    assert table_links.resolve(link.token) is None


def test_revoke_without_reissue_is_not_undone_by_opening_the_match(match, link, organizer, client):
    assert table_links.revoke(match, organizer) == 1
    assert staff(organizer).get(f"/api/scoring/matches/{match.pk}/").json()["table_url"] is None
    client.force_login(organizer)
    client.get(f"/sumulas/partida/{match.pk}/")
    assert not match.table_links.filter(revoked_at__isnull=True).exists()


def test_a_revoked_link_stays_revoked_on_the_round_page_until_a_new_link(match, organizer, client):
    from tournaments.models import Round

    Round.objects.filter(pk=match.round_id).update(generated_at=match.created_at)
    link = table_links.ensure_links([match])[match.pk]
    client.force_login(organizer)
    url = f"/torneios/{match.tournament.slug}/rodadas/{match.round.number}/"
    assert client.post(f"/sumulas/partida/{match.pk}/link-da-mesa/", {"action": "revoke", "next": url}).status_code == 302
    page = client.get(url).content.decode()
    assert "Link da mesa revogado" in page and link.token[-12:] not in page
    assert not match.table_links.filter(revoked_at__isnull=True).exists()  # opening the page issued none
    assert client.post(f"/sumulas/partida/{match.pk}/link-da-mesa/", {"action": "reissue", "next": url}).status_code == 302
    new = match.table_links.get(revoked_at__isnull=True)
    assert new.token[-12:] in client.get(url).content.decode()


def test_a_claim_and_an_appeal_through_the_link_record_it_as_author(match, link, referee, pairs):
    """Every row records its author: as a hand records ``table:<id>``."""
    from referee import services as referee_services
    from referee.models import Appeal, Ruling

    api = table_client(link)
    claim = {"claimant_team": 1, "offender_seat": 0, "code": "guidance_word", "facts": {"value": 1},
             "player": pairs[1].first_player_id, "pin": PINS["Caio Reis"]}
    response = api.post(f"/api/referee/matches/{match.pk}/rulings/", claim, format="json")
    assert response.status_code == 201, response.json()
    ruling = Ruling.objects.get(pk=response.json()["id"])
    assert ruling.table_link_id == link.pk and ruling.claimed_by_player_id == pairs[1].first_player_id
    assert ruling.referee_id is None
    ruling = referee_services.confirm(ruling, referee)
    appeal = {"team": 0, "player": pairs[0].first_player_id, "pin": PINS["Ana Souza"], "reason": "Não houve"}
    assert api.post(f"/api/referee/rulings/{ruling.pk}/appeals/", appeal, format="json").status_code == 201
    assert Appeal.objects.get().table_link_id == link.pk
    # the same claim by the referee's login records no link
    by_referee = staff(referee).post(f"/api/referee/matches/{match.pk}/rulings/",
                                     {k: v for k, v in claim.items() if k not in ("player", "pin")}, format="json")
    assert by_referee.status_code == 201 and Ruling.objects.get(pk=by_referee.json()["id"]).table_link_id is None
