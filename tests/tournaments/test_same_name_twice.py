"""The same name twice: "José Antônio da Silva" typed in a second pair of a tournament, or a
name this organizer registered before, is asked about ("the same person?") instead of silently becoming a
second person. The organizer chooses the registered player (by id) or says they are different people."""
import pytest
from rest_framework.test import APIClient

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.forms import PairRegistrationForm
from tournaments.models import Pair, Player
from tournaments.players import SameName, plain_name

pytestmark = pytest.mark.django_db


def person(name, **extra):
    return {"name": name, **extra}


def test_names_compare_without_accents_case_or_spaces():
    assert plain_name("  José  Antônio da SILVA ") == plain_name("jose antonio da silva")
    assert plain_name("José") != plain_name("Josefa")


def test_a_second_pair_with_the_same_player_name_is_asked_about(t, org):
    first = services.register_pair(t, org, name="A", first_player=person("José Antônio da Silva"),
                                   second_player=person("Bia"))
    with pytest.raises(SameName) as error:
        services.register_pair(t, org, name="B", first_player=person("Caio"),
                               second_player=person("jose antonio da silva"))
    assert error.value.field == "second_player.name"
    assert "pair A" in error.value.message and str(first.first_player.pk) in error.value.message
    assert [(p.pk, pair.pk) for p, pair in error.value.candidates] == [(first.first_player.pk, first.pk)]
    assert Pair.objects.filter(tournament=t).count() == 1  # nothing written
    # the organizer says they are two people: registered
    pair = services.register_pair(t, org, name="B", first_player=person("Caio"),
                                  second_player=person("jose antonio da silva"), different_people=True)
    assert pair.second_player.pk != first.first_player.pk
    # the same person can't play in two pairs: choosing the registered player says so
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="C", first_player=person("Dani"), second_player=first.first_player.pk)
    assert "already plays in the pair A" in error.value.message


def test_a_name_registered_in_an_earlier_tournament_is_offered_for_reuse(t, org):
    earlier = f.tournament(org, slug="etapa-1")
    old = services.register_pair(earlier, org, name="A", first_player=person("Édson Arantes", club="AABB"),
                                 second_player=person("Bia")).first_player
    with pytest.raises(SameName) as error:
        services.register_pair(t, org, name="A", first_player=person("Edson Arantes"), second_player=person("Caio"))
    assert [p.pk for p, pair in error.value.candidates] == [old.pk] and error.value.candidates[0][1] is None
    assert "earlier tournament" in error.value.message and "AABB" in error.value.message
    pair = services.register_pair(t, org, name="A", first_player=old.pk, second_player=person("Caio"))
    assert pair.first_player == old and Player.objects.filter(name__icontains="arantes").count() == 1


def test_another_organizers_players_are_not_revealed(t, org):
    stranger_event = f.tournament(f.user("outro"), slug="alheio")
    services.register_pair(stranger_event, stranger_event.organizer, name="A", first_player=person("Zeca Pagodinho"),
                           second_player=person("Bia"))
    pair = services.register_pair(t, org, name="A", first_player=person("Zeca Pagodinho"), second_player=person("Caio"))
    assert pair.first_player.name == "Zeca Pagodinho"  # no question: that player is not this organizer's


def test_the_form_offers_the_registered_player_or_different_people(t, org, client):
    first = services.register_pair(t, org, name="A", first_player=person("José Antônio"), second_player=person("Bia"))
    data = {"name": "B", "first_name": "Caio", "second_name": "Jose Antonio"}
    form = PairRegistrationForm(data, tournament=t)
    assert form.save(by=org) is None and "second_name" in form.errors
    assert form.namesakes["field"] == "second_existing"
    assert [c["player"].pk for c in form.namesakes["candidates"]] == [first.first_player.pk]
    client.force_login(org)
    page = client.post(f"/torneios/{t.slug}/painel/duplas/", data)
    html = page.content.decode()
    assert page.status_code == 400 and 'data-testid="namesakes"' in html
    assert f'name="second_existing" value="{first.first_player.pk}"' in html
    form = PairRegistrationForm({**data, "different_people": "on"}, tournament=t)
    assert form.save(by=org) is not None


def test_the_api_names_the_field_and_takes_different_people(t, org):
    services.register_pair(t, org, name="A", first_player=person("Ana Maria"), second_player=person("Bia"))
    api = APIClient()
    api.force_authenticate(org)
    body = {"name": "B", "first_player": {"name": "ana maria"}, "second_player": {"name": "Caio"}}
    response = api.post(f"/api/tournaments/{t.slug}/pairs/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == "first_player.name"
    response = api.post(f"/api/tournaments/{t.slug}/pairs/", {**body, "different_people": True}, format="json")
    assert response.status_code == 201, response.json()


def test_a_csv_import_reads_the_registered_players_once_for_all_its_rows(t, org, monkeypatch):
    from tournaments import players
    from tournaments.csv_import import import_pairs

    services.register_pair(t, org, name="A", first_player=person("Ana Maria"), second_player=person("Bia"))
    built = []
    original = players.NameIndex.__init__

    def counting(self, tournament):
        built.append(tournament.pk)
        original(self, tournament)

    monkeypatch.setattr(players.NameIndex, "__init__", counting)
    rows = "".join(f"Dupla {i},Jogador {i}a,,,,Jogador {i}b,,,,\n" for i in range(12))
    report = import_pairs(t, "pair,player 1,nickname 1,club 1,contact 1,player 2,nickname 2,club 2,contact 2,substitute\n"
                          + rows + "Dupla X,ana maria,,,,Caio,,,,\n", org, mode="valid_rows")
    assert len(report.created) == 12 and report.errors[0].row == 14  # the namesake still asked about
    assert built == [t.pk]
