"""Public tournament pages: bracket (SVG), round-robin grids, standings, rounds; Portuguese by default."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import services
from tournaments.models import Pair, Round

pytestmark = pytest.mark.django_db
NS = "{http://www.w3.org/2000/svg}"


def inline_svg(html: str) -> ET.Element:
    """The bracket drawing inlined in a page (it holds nested <svg> name boxes)."""
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" class="bracket')
    depth, i = 0, start
    while True:
        opening = html.find("<svg", i)
        closing = html.find("</svg>", i)
        if opening != -1 and opening < closing:
            depth += 1
            i = opening + 4
        else:
            depth -= 1
            i = closing + len("</svg>")
            if depth == 0:
                return ET.fromstring(html[start:i])


def test_single_elimination_bracket_page_draws_every_match_and_the_champion(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8)
    pf.play_some(t, org, 2)
    html = client.get(url("bracket", t)).content.decode()

    assert '<html lang="pt-br">' in html
    root = inline_svg(html)
    boxes = [g for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "")]
    assert len(boxes) == 7
    for pair in Pair.objects.filter(tournament=t):
        assert pair.name in html
    assert "Chave" in html and "Campeã" in html  # Portuguese labels in the drawing
    assert "W.O." in html  # the walkover shows in its box
    assert 'data-testid="champion"' not in html

    pf.play_all(t, org)
    html = client.get(url("bracket", t)).content.decode()
    champion = services.bracket_view(t).champion
    assert champion is not None
    assert 'data-testid="champion"' in html
    root = inline_svg(html)
    names = ["".join(x.itertext()) for x in root.iter(f"{NS}text") if x.get("class") == "bk-champion-name"]
    assert names and champion.name in names[0]


def test_double_elimination_bracket_page_has_the_losers_bracket_and_grand_final(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=6, format="double_elimination")
    html = client.get(url("bracket", t)).content.decode()
    root = inline_svg(html)
    ids = {g.get("data-match") for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "")}
    assert {"GF1", "GF2"} <= ids and any(i.startswith("L") for i in ids)
    assert "Chave dos perdedores" in html and "Grande final" in html
    pf.play_all(t, org)
    html = client.get(url("bracket", t)).content.decode()
    assert 'data-testid="champion"' in html


def test_bracket_svg_file(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=5)
    response = client.get(url("bracket-svg", t))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{NS}svg"


def test_bracket_page_before_the_draw_and_for_other_formats(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, draw=False)
    html = client.get(url("bracket", t)).content.decode()
    assert "<svg" not in html.split("<main", 1)[1].split("</main>")[0] or "bk-match" not in html
    assert client.get(url("bracket-svg", t)).status_code == 404
    swiss = pf.tournament(org, "suico", pairs=6, format="swiss")
    assert client.get(url("bracket", swiss)).status_code == 200
    assert client.get(url("bracket-svg", swiss)).status_code == 404


def test_pair_names_are_escaped_everywhere(client):
    org = pf.organizer()
    t = f.tournament(org)
    evil = '<script>alert("truco")</script>'
    for name in (evil, "Zap & Copas", "Ouros", "Espadas"):
        a = f.Player.objects.create(name=f"{name} a")
        b = f.Player.objects.create(name=f"{name} b")
        Pair.objects.create(tournament=t, name=name, first_player=a, second_player=b)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    for page in ("detail", "bracket", "standings", "rounds"):
        html = client.get(url(page, t)).content.decode()
        assert "<script>alert" not in html, page
    svg = client.get(url("bracket-svg", t)).content.decode()
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg.encode())


def test_round_robin_grid_per_group(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=7, format="round_robin", group_count=2)
    pf.play_some(t, org, 3)
    response = client.get(url("grid", t))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Grupo A" in html and "Grupo B" in html
    assert 'data-testid="grid-A"' in html and 'data-testid="grid-B"' in html
    assert html.count('class="won"') == 3 and html.count('class="lost"') == 3
    assert "W.O." in html
    # the diagonal: one "self" cell per pair
    assert html.count('class="self"') == 7


def test_grid_page_without_groups(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    assert "não é disputado em grupos" in client.get(url("grid", t)).content.decode()


def test_swiss_standings_show_the_chosen_tiebreak_columns(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="swiss",
                      tiebreaks=["match_points", "buchholz", "median_buchholz", "point_difference"])
    pf.play_some(t, org, 4)
    html = client.get(url("standings", t)).content.decode()
    for key in ("match_points", "buchholz", "median_buchholz", "point_difference"):
        assert f'data-tiebreak="{key}"' in html
    assert 'data-tiebreak="head_to_head"' not in html
    assert "Buchholz" in html and "Saldo" in html
    table = services.standings(t)
    first = table.rows[0].pair.name
    # searched from the table on: a random token earlier in the page (the CSP nonce) may contain "P1"
    start = html.index('data-tiebreak="match_points"')
    assert html.index(first, start) < html.index(table.rows[-1].pair.name, start)


def test_groups_standings_per_group(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="groups_knockout", group_count=2)
    pf.play_some(t, org, 4)
    html = client.get(url("standings", t)).content.decode()
    assert 'data-testid="standings-A"' in html and 'data-testid="standings-B"' in html
    assert 'data-testid="standings"' in html


def test_rounds_page_lists_pairings_tables_and_byes(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=7, format="swiss")
    response = client.get(url("rounds", t))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Mesa" in html and "Folga" in html
    for match in pf.open_matches(t):
        assert f'id="match-{match.pk}"' in html
    pf.play_all(t, org, next_rounds=False)
    services.generate_next_round(t, org)
    html = client.get(url("round", t, number=1)).content.decode()
    assert "oficial" in html
    assert client.get(url("round", t, number=9)).status_code == 404


def test_rounds_page_before_the_draw(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, draw=False)
    assert "Nenhuma rodada" in client.get(url("rounds", t)).content.decode()


def test_detail_page_links_and_champion(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    html = client.get(url("detail", t)).content.decode()
    assert url("bracket", t) in html and url("rounds", t) in html
    assert url("dashboard", t) not in html  # visitors do not see the organizer's link
    client.force_login(org)
    assert url("dashboard", t) in client.get(url("detail", t)).content.decode()
    pf.play_all(t, org)
    assert 'data-testid="champion"' in client.get(url("detail", t)).content.decode()


def test_withdrawn_pair_is_listed_apart_and_marked_in_standings(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=6, format="swiss")
    pair = Pair.objects.filter(tournament=t).first()
    services.withdraw_pair(pair, org, "injury")
    html = client.get(url("detail", t)).content.decode()
    assert "Desistentes" in html
    standings = client.get(url("standings", t)).content.decode()
    assert 'class="withdrawn"' in standings


def test_public_pages_in_english(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(url("bracket", t)).content.decode()
    assert "Champion" in html and "Semifinals" in html
    assert Round.objects.filter(tournament=t).exists()
