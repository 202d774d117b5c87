"""The organizer's pages for people and ratings (no admin, no API): merging duplicate records and undoing it
(/jogadores/<id>/duplicados/), a tournament's categories (painel/categorias/), the site's rating method
(/ratings/metodo/, site operators). Plain Django client: the forms, the refusals naming the field and
the permissions."""
import pytest
from django.test import Client

from people.models import PlayerMerge
from tests.people.helpers import event
from tests.tournaments import factories as f
from tournaments import services
from seasons.models import FlightMember, RatingMethodChoice
from seasons.services import ratings

pytestmark = pytest.mark.django_db


def logged(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_merge_and_undo_on_the_players_page():
    north = f.user("north")
    _t1, pair1, _, _ = event(north, "norte", {"name": "Ana Souza"})
    t2 = f.tournament(north, "norte-2")  # typed again as a new person (the organizer said "different people")
    pair2 = services.register_pair(t2, north, name="Ana/2", first_player={"name": "Ána  souza", "nickname": "Aninha"},
                                   second_player={"name": "Outro Parceiro"}, different_people=True)
    kept, dup = pair1.first_player, pair2.first_player
    client = logged(north)
    assert f'href="/jogadores/{kept.pk}/duplicados/"' in client.get(f"/jogadores/{kept.pk}/").content.decode()
    page = client.get(f"/jogadores/{kept.pk}/duplicados/")
    assert page.status_code == 200 and f'data-player="{dup.pk}"' in page.content.decode()  # same name offered
    missing = client.post(f"/jogadores/{kept.pk}/duplicados/", {"duplicate": str(dup.pk), "reason": " "})
    assert missing.status_code == 400 and 'data-testid="merge-error"' in missing.content.decode()
    assert 'id="merge-reason" name="reason" maxlength="300" value="" required aria-invalid="true"' in missing.content.decode()
    assert f'value="{dup.pk}"' in missing.content.decode()  # what was typed comes back
    done = client.post(f"/jogadores/{kept.pk}/duplicados/", {"duplicate": str(dup.pk), "reason": "same phone"})
    assert done.status_code == 302
    again = client.post(f"/jogadores/{kept.pk}/duplicados/", {"duplicate": str(dup.pk), "reason": "same phone"})
    assert again.status_code == 302  # a double tap: done once, no error
    merge = PlayerMerge.objects.get()
    pair2.refresh_from_db()
    assert pair2.first_player_id == kept.pk and merge.merged_by == north
    html = client.get(f"/jogadores/{kept.pk}/").content.decode()
    assert "Norte-2" in html and "Norte" in html  # both tournaments on one page
    assert client.get(f"/jogadores/{dup.pk}/duplicados/").url == f"/jogadores/{kept.pk}/duplicados/"
    assert logged(f.user("other")).post(f"/jogadores/mesclas/{merge.pk}/desfazer/").status_code == 403
    assert client.post(f"/jogadores/mesclas/{merge.pk}/desfazer/").status_code == 302
    pair2.refresh_from_db()
    assert pair2.first_player_id == dup.pk
    merge.refresh_from_db()
    assert merge.undone_by == north


def test_a_stranger_cannot_open_the_merge_page_and_a_foreign_record_needs_its_pin():
    north, south = f.user("north"), f.user("south")
    _t1, pair1, _, _ = event(north, "norte", {"name": "Ana Souza"})
    _t2, pair2, _, _ = event(south, "sul", {"name": "Ana Souza"})
    assert logged(f.user("stranger")).get(f"/jogadores/{pair1.first_player.pk}/duplicados/").status_code == 403
    answer = logged(north).post(f"/jogadores/{pair1.first_player.pk}/duplicados/",
                                {"duplicate": str(pair2.first_player.pk), "reason": "same"})
    assert answer.status_code == 403 and "PIN" in answer.content.decode()
    unknown = logged(north).post(f"/jogadores/{pair1.first_player.pk}/duplicados/", {"duplicate": "999999", "reason": "x"})
    assert unknown.status_code == 400 and "999999" in unknown.content.decode()
    assert not PlayerMerge.objects.exists()


def test_categories_page():
    organizer = f.user("org")
    t = f.tournament(organizer)
    a, b = f.pairs(t, 2)
    client = logged(organizer)
    url = f"/torneios/{t.slug}/painel/categorias/"
    assert logged(f.user("x")).get(url).status_code == 403
    bad = client.post(url, {"action": "flights", "flights": "A: mil\nB"})
    assert bad.status_code == 400 and "min_rating" in bad.content.decode() and "A: mil" in bad.content.decode()
    assert client.post(url, {"action": "flights", "flights": "A: 1100\nB"}).status_code == 302
    assert list(t.flights.values_list("name", "min_rating")) == [("A", 1100), ("B", None)]
    assert client.post(url, {"action": "pair", "pair": a.pk, "flight": "B"}).status_code == 302
    assert FlightMember.objects.get(pair=a).flight.name == "B"
    assert client.post(url, {"action": "flights", "flights": "A: 5000\nB", "by_rating": "on"}).status_code == 302
    assert set(FlightMember.objects.values_list("flight__name", flat=True)) == {"B"}  # nobody is rated 5000
    assert FlightMember.objects.count() == 2 and "A: 5000" in client.get(url).content.decode()


def test_rating_method_page_is_a_site_operators():
    assert logged(f.user("org")).get("/ratings/metodo/").status_code == 403
    staff = f.operator("op")
    client = logged(staff)
    page = client.get("/ratings/metodo/")
    assert page.status_code == 200 and 'data-testid="nav-rating-method" aria-current="page"' in page.content.decode()
    assert client.post("/ratings/metodo/", {"method": "hands", "current": "match"}).status_code == 302
    assert ratings.rating_method() == "hands"
    stale = client.post("/ratings/metodo/", {"method": "margin", "current": "match"})  # a page from before
    assert stale.status_code == 409 and ratings.rating_method() == "hands"
    client.post("/ratings/metodo/", {"method": "hands", "current": "match"})  # sent twice: nothing new
    assert RatingMethodChoice.objects.count() == 1
    assert client.post("/ratings/metodo/", {"method": "elo", "current": "hands"}).status_code == 400
