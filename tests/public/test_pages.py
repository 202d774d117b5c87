"""The home and tournament pages: Portuguese by default, English after switching."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def switch_language(client, code: str, next_url: str = "/"):
    response = client.post(reverse("set_language"), {"language": code, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == next_url
    return response


def test_home_lists_demo_tournament_in_portuguese_by_default(client, demo):
    html = client.get("/").content.decode()

    assert '<html lang="pt-br">' in html
    assert "Torneio de Demonstração" in html
    assert demo.get_absolute_url() in html
    assert "<h1>Torneios</h1>" in html
    assert "Em andamento" in html
    assert "8 duplas" in html
    assert "Tournaments" not in html


def test_browser_language_does_not_override_the_portuguese_default(client, demo):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()

    assert '<html lang="pt-br">' in html
    assert "Em andamento" in html


def test_home_switches_to_english_and_back(client, demo):
    switch_language(client, "en")
    html = client.get("/").content.decode()

    assert '<html lang="en">' in html
    assert "Torneio de Demonstração" in html  # a name, never translated
    assert "<h1>Tournaments</h1>" in html
    assert "In progress" in html
    assert "8 pairs" in html
    assert "Em andamento" not in html

    switch_language(client, "pt-br")
    assert "Em andamento" in client.get("/").content.decode()


def test_language_switcher_posts_to_setlang(client, demo):
    html = client.get("/").content.decode()

    assert 'action="/i18n/setlang/" method="post"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert '<option value="en" lang="en">English</option>' in html


def test_home_without_tournaments(client, db):
    html = client.get("/").content.decode()

    assert "Nenhum torneio ainda." in html


def test_tournament_page_lists_the_pairs(client, demo):
    response = client.get(demo.get_absolute_url())
    html = response.content.decode()

    assert response.status_code == 200
    assert "<h1>Torneio de Demonstração</h1>" in html
    assert "Duplas (8)" in html
    for pair in demo.pairs.all():
        assert pair.name in html
        assert pair.first_player.name in html
        assert pair.second_player.name in html
    assert "Reserva: Sebastião Moreira" in html
    assert "Partida única" in html


def test_tournament_page_in_english(client, demo):
    switch_language(client, "en", demo.get_absolute_url())
    html = client.get(demo.get_absolute_url()).content.decode()

    assert "Pairs (8)" in html
    assert "Single game" in html
    assert "Substitute: Sebastião Moreira" in html


def test_unknown_tournament_is_404(client, db):
    assert client.get("/torneios/nao-existe/").status_code == 404
