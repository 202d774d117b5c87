"""Pairs typed in one field, one a line: read as the CSV import reads a file (the same checks, all or nothing),
semicolons, tabs (a spreadsheet's paste) or commas; a wrong line is named by its number as typed and nothing is
registered; what was typed comes back to be fixed."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments import pages_fixtures as pf
from tournaments.models import Pair

pytestmark = pytest.mark.django_db


def post(client, t, text: str):
    return client.post(reverse("tournaments:import", kwargs={"slug": t.slug}), {"pairs_text": text}, follow=True)


@pytest.mark.parametrize("separator", ["; ", "\t", ","])
def test_pairs_typed_one_a_line_are_registered_in_one_send(client, separator):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=0, draw=False)
    lines = [("Zap", "Ana Souza", "Beto Lima"), ("Copas", "Caio Reis", "Duda Melo"), ("Espadilha", "Edu Prado",
                                                                                       "Fábio Luz")]
    page = post(client, t, "\n".join(separator.join(line) for line in lines) + "\n\n")
    assert page.status_code == 200 and "3 duplas cadastradas." in page.content.decode()
    pairs = {p.name: (p.first_player.name, p.second_player.name) for p in Pair.objects.filter(tournament=t)}
    assert pairs == {name: (a, b) for name, a, b in lines}


def test_a_wrong_line_is_named_as_typed_and_nothing_is_registered(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=0, draw=False)
    page = post(client, t, "Zap; Ana Souza; Beto Lima\nCopas; Caio Reis;\n")
    html = page.content.decode()
    assert page.status_code == 400 and not Pair.objects.filter(tournament=t).exists()
    row = html.split('data-testid="typed-errors"')[1].split("</tbody>")[0]
    assert '<td class="num">2</td>' in row and "jogador 2" in row  # the second line typed, its empty player
    assert "Copas; Caio Reis;" in html  # what was typed, back in the field


def test_an_empty_list_says_what_to_type(client):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=0, draw=False)
    assert "Digite as duplas, uma por linha" in post(client, t, "  \n").content.decode()
