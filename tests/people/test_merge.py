"""A player registered by two organizers is one person after a merge, with both histories; the merge
is audited and an unmerge restores exactly what it moved (docs/people.md)."""
import pytest

from people.models import Player, PlayerMerge
from people.services import merges
from tests.people.helpers import event
from tests.tournaments import factories as f
from tournaments.models import Pair

pytestmark = pytest.mark.django_db

API = "/api/people/"


def two_anas():
    north, south = f.user("north"), f.user("south")
    t1, pair1, _, _ = event(north, "norte", {"name": "Ana Souza", "club": "Clube do Truco", "contact": "ana@n"})
    t2, pair2, _, _ = event(south, "sul", {"name": "Ana Souza", "nickname": "Aninha", "contact": "ana@s"})
    return north, south, pair1.first_player, pair2.first_player, pair1, pair2


def test_two_organizers_records_become_one_person_with_both_histories_and_unmerge_restores():
    north, south, ana_n, ana_s, pair1, pair2 = two_anas()
    assert ana_n.pk != ana_s.pk  # each organizer made their own (the consent rule: no cross-organizer match)
    ana_s.set_pin("4321")
    ana_s.save(update_fields=["pin_hash"])
    client = f.api_client(north)
    # north knows only their Ana: the other record needs its PIN (the player consents)
    refused = client.post(API + "merges/", {"kept": ana_n.pk, "duplicate": ana_s.pk, "reason": "same person"},
                          format="json")
    assert refused.status_code == 403 and refused.json()["field"] == "duplicate"
    wrong = client.post(API + "merges/", {"kept": ana_n.pk, "duplicate": ana_s.pk, "reason": "same", "pin": "1111"},
                        format="json")
    assert wrong.status_code == 403 and wrong.json()["field"] == "pin"
    done = client.post(API + "merges/", {"kept": ana_n.pk, "duplicate": ana_s.pk, "reason": "same person, same phone",
                                         "pin": "4321"}, format="json")
    assert done.status_code == 201, done.json()
    merge = PlayerMerge.objects.get()
    assert (merge.merged_by, merge.reason) == (north, "same person, same phone")
    assert merge.moved["events.pair.first_player"] == [pair2.pk]
    pair2.refresh_from_db()
    assert pair2.first_player_id == ana_n.pk
    ana_n.refresh_from_db()
    assert ana_n.nickname == "Aninha" and ana_n.club.name == "Clube do Truco"  # filled from the duplicate
    assert ana_n.contact == "ana@n"  # the kept contact stays (and only its author reads it)
    assert merges.person_ids(ana_n) == {ana_n.pk, ana_s.pk}
    page = f.api_client().get(f"/jogadores/{ana_n.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Norte" in html and "Sul" in html  # both histories on one page
    assert f.api_client().get(f"/jogadores/{ana_s.pk}/").url == f"/jogadores/{ana_n.pk}/"
    assert f.api_client().get(f"{API}players/{ana_s.pk}/").json()["id"] == ana_n.pk

    other = f.api_client(south).post(f"{API}merges/{merge.pk}/undo/")
    assert other.status_code == 403  # only its author (or a site operator)
    undone = client.post(f"{API}merges/{merge.pk}/undo/")
    assert undone.status_code == 200 and undone.json()["undone_at"]
    pair2.refresh_from_db()
    ana_n.refresh_from_db()
    ana_s.refresh_from_db()
    assert pair2.first_player_id == ana_s.pk and ana_s.merged_into_id is None
    assert ana_n.nickname == "" and merges.person_ids(ana_n) == {ana_n.pk}
    assert client.post(f"{API}merges/{merge.pk}/undo/").status_code == 409  # once


def test_partners_are_two_people_and_nobody_merges_strangers():
    north, south, ana_n, ana_s, pair1, pair2 = two_anas()
    partner = pair1.second_player
    with pytest.raises(Exception) as refused:
        merges.merge_players(ana_n, partner, by=north, reason="typo")
    assert "two people" in str(refused.value)
    assert Pair.objects.get(pk=pair1.pk).second_player_id == partner.pk  # nothing half written
    stranger = f.api_client(f.user("stranger"))
    answer = stranger.post(API + "merges/", {"kept": ana_n.pk, "duplicate": ana_s.pk, "reason": "x"}, format="json")
    assert answer.status_code == 403
    assert f.api_client().post(API + "merges/", {}, format="json").status_code in (401, 403)
    assert not PlayerMerge.objects.exists() and Player.objects.get(pk=ana_s.pk).merged_into_id is None
