"""The projector's bracket: its live part in the tables' grid (names of 54 px, not a shrunken
drawing), paged by round, a withdrawn pair marked, and the final placings once the champion is known."""
from __future__ import annotations

import pytest

from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from public import live_pages
from tournaments import services
from tournaments.models import Pair

pytestmark = pytest.mark.django_db


def bracket_slides(t):
    return [s for s in live_pages.projector_slides(t).slides if s.kind == "bracket"]


def test_eight_pairs_show_every_match_on_one_slide_from_the_first_round():
    org = pf.organizer()
    t = pf.tournament(org, pairs=8)
    (slide,) = bracket_slides(t)
    assert slide.key == "bracket"  # "?tela=bracket" keeps working
    titles = [card.title for card in slide.items]
    assert titles[:4] == ["Quartas de final"] * 4 and "Final" in titles
    semi = next(card for card in slide.items if card.title == "Semifinais")
    assert semi.top.outcome == "pending" and semi.top.text.startswith("Vencedor")


def test_sixteen_pairs_page_by_round_then_drop_the_rounds_played():
    org = pf.organizer()
    t = pf.tournament(org, pairs=16)
    slides = bracket_slides(t)
    assert [s.key for s in slides] == ["bracket", "bracket-2"]
    assert [len(s.items) for s in slides][0] == 12  # the 8 first-round matches and the 4 quarterfinals
    assert {card.title for card in slides[1].items} >= {"Semifinais", "Final"}
    pf.play_some(t, org, 8)  # the first round is over: the live part starts at the quarterfinals
    (slide,) = bracket_slides(t)
    assert slide.items[0].title == "Quartas de final" and all(c.title != "Oitavas de final" for c in slide.items)
    assert all(card.round >= slide.items[0].round for card in slide.items)


def test_a_withdrawn_pair_is_marked_on_the_projector(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8)
    pair = pf.open_matches(t)[0].pair_a
    services.withdraw_pair(pair, org, "ill")  # art. 26: its match becomes a walkover
    cards = [c for s in bracket_slides(t) for c in s.items]
    side = next(s for c in cards for s in c.sides if s.text == pair.name)
    assert side.out == "desistente" and side.outcome == "lost"
    html = client.get(url("projector", t)).content.decode()
    assert f"{pair.name}</span> <small class=\"out\" data-testid=\"withdrawn\">(desistente)</small>" in html


def test_the_final_placings_follow_the_bracket_once_the_champion_is_known(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, third_place=True)
    assert not [s for s in live_pages.projector_slides(t).slides if s.kind == "placings"]
    pf.play_all(t, org)
    p = live_pages.projector_slides(t)
    (bracket,) = [s for s in p.slides if s.kind == "bracket"]
    assert {card.title for card in bracket.items} == {"Final", "Terceiro lugar"}  # the last round alone
    placings = [s for s in p.slides if s.kind == "placings"]
    lines = [line for s in placings for line in s.items]
    assert len(lines) == Pair.objects.filter(tournament=t).count() == 8
    assert lines[0].pair == p.champion and [line.rank for line in lines[:4]] == [1, 2, 3, 4]
    html = client.get(url("projector", t) + "?tela=placings-1").content.decode()
    assert "Classificação final" in html and f"Campeã: <strong>{p.champion.name}</strong>" in html


def test_a_withdrawn_pair_is_marked_in_the_projectors_standings(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=6, format="swiss")
    pf.play_some(t, org, 3)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    services.withdraw_pair(pair, org, "ill")
    html = client.get(url("projector", t) + "?tela=standings-1").content.decode()
    assert f'{pair.name} <small class="out" data-testid="withdrawn">(desistente)</small>' in html
