"""On a phone (390 px and 320 px): a Swiss stage's crosstable is reached from the standings, the page
itself does not scroll sideways (the table scrolls in its frame, the pair's name stays in view) and
the tiebreaks' breakdown reads below it. Screenshots under $TRUCO_SHOTS/ (crosstable-390.png, -320.png)."""
from __future__ import annotations

import datetime

import pytest

from .conftest import phone_context, shot

pytestmark = [pytest.mark.browser, pytest.mark.presentation]


@pytest.fixture
def swiss_tournament(transactional_db):
    from django.contrib.auth import get_user_model

    from scoring.models import Match
    from tournaments import services
    from tournaments.models import Pair, Tournament

    organizer = get_user_model().objects.create_user("organizadora", password="org-secret")
    t = Tournament.objects.create(name="Suíço de Primavera", slug="suico-de-primavera", organizer=organizer,
                                  date=datetime.date(2026, 11, 29), status=Tournament.Status.REGISTRATION)
    names = ["Os Zapeiros", "Copas de Ouro", "Espadilha", "Sete Belo", "Truco Seco", "Mão de Onze",
             "Pica-Fumo", "Quatro Paus", "Casa Forte"]
    for i, name in enumerate(names):
        services.register_pair(t, organizer, name=name, first_player={"name": f"Ana {i}"},
                               second_player={"name": f"Bia {i}"}, status=Pair.Status.CONFIRMED)
    services.configure_stage(t, organizer, format="swiss", swiss_rounds=4,
                             tiebreaks=["matches_won", "buchholz", "median_buchholz", "point_difference"])
    rnd = services.generate_first_round(t, organizer)
    for number in (1, 2, 3):
        if number > 1:
            rnd = services.generate_next_round(t, organizer)
        for i, m in enumerate(Match.objects.filter(round=rnd).order_by("pk")):
            if number == 2 and i == 0:
                services.record_walkover(m, m.pair_b_id, organizer)
                continue
            winner = m.pair_a_id if (m.pair_a_id + number) % 3 else m.pair_b_id
            a_won = winner == m.pair_a_id
            services.set_result(m, organizer, winner=winner, games=[1, 0] if a_won else [0, 1],
                                points=[12, (3 * i) % 11] if a_won else [(3 * i) % 11, 12], reason="t")
    services.generate_next_round(t, organizer)
    return t


def test_the_crosstable_on_a_phone(live_server, browser, swiss_tournament):
    from playwright.sync_api import expect

    page = phone_context(browser).new_page()
    page.goto(f"{live_server.url}/torneios/{swiss_tournament.slug}/classificacao/")
    page.get_by_test_id("crosstable-links").get_by_role("link").first.tap()
    page.wait_for_url("**/fases/1/tabela-cruzada/")
    table = page.get_by_test_id("crosstable")
    expect(table.locator("tbody tr")).to_have_count(9)
    expect(table.locator('td[data-kind="bye"]')).to_have_count(4)  # one each round, the fourth paired too
    expect(table.locator('td[data-kind="pending"]')).to_have_count(8)
    expect(page.get_by_test_id("tiebreak-breakdown").locator("li")).to_have_count(9)
    for width, height in ((390, 844), (320, 640)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        name = table.locator("tbody tr").first.locator("td.pair")
        box = name.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        shot(page, f"crosstable-{width}.png", full_page=True)
