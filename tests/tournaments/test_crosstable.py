"""The Swiss crosstable page (tournaments/crosstable.py): each pair's opponent, result, tentos and
table per round, its points and tiebreaks with how they are made, linked from the standings."""
from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.crosstable import crosstable_rows
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def org():
    return f.user("org")


def swiss(org, count, slug="suico", rounds=3, played=3):
    t = f.tournament(org, slug=slug)
    f.pairs(t, count)
    services.configure_stage(t, org, format="swiss", swiss_rounds=rounds,
                             tiebreaks=["matches_won", "buchholz", "median_buchholz", "sonneborn_berger",
                                        "point_difference"])
    rnd = services.generate_first_round(t, org)
    for number in range(1, played + 1):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        for i, m in enumerate(Match.objects.filter(round=rnd).order_by("pk")):
            if (i + number) % 4 == 0:
                services.record_walkover(m, m.pair_b_id, org)
            else:
                winner = m.pair_a_id if (m.pair_a_id + number) % 3 else m.pair_b_id
                a_won = winner == m.pair_a_id
                services.set_result(m, org, winner=winner, games=[1, 0] if a_won else [0, 1],
                                    points=[12, i % 11] if a_won else [i % 11, 12], reason="t")
    return t


def test_every_round_every_pair_mirrored_and_the_tiebreaks_made_up(org):
    t = swiss(org, 7)  # an odd number: a bye each round
    stage = Stage.objects.get(tournament=t)
    rows, rounds, columns = crosstable_rows(stage)
    table = services.standings(t, stage)
    assert [r.pair.pk for r in rows] == [line.pair.pk for line in table.rows]
    assert [r.rank for r in rows] == [line.rank for line in table.rows]
    assert [r.number for r in rounds] == [1, 2, 3]
    by_place = {r.rank: r for r in rows}
    byes = 0
    for row in rows:
        assert len(row.cells) == 3
        for cell in row.cells:
            if cell.kind == "bye":
                byes += 1
                continue
            other = by_place[cell.opponent].cells[cell.round - 1]
            assert other.opponent == row.rank  # the opponent's cell names this pair
            assert {cell.kind, other.kind} == {"win", "loss"}
            assert cell.walkover == other.walkover
            assert cell.table == other.table is not None
            if cell.score:
                mine, theirs = cell.score.split("–")
                assert other.score == f"{theirs}–{mine}"
        line = next(x for x in table.rows if x.pair.pk == row.pair.pk)
        assert row.values == [str(line.values[c.key]) for c in columns]
        parts = {b.key: b for b in row.breakdown}
        buchholz = sum(Fraction(term.replace(",", ".")) for term, _c in parts["buchholz"].parts)
        assert buchholz == line.values["buchholz"]
        median = sum(Fraction(term.replace(",", ".")) for term, counted in parts["median_buchholz"].parts if counted)
        assert median == line.values["median_buchholz"]
        opponents = len(parts["median_buchholz"].parts)
        assert opponents - sum(c for _t, c in parts["median_buchholz"].parts) == (2 if opponents >= 3 else 0)
        assert parts["point_difference"].parts == [(f"{line.points_for} − {line.points_against}", True)]
    assert byes == 3


def test_the_page_linked_from_the_standings_on_a_phone(org, client):
    t = swiss(org, 8, played=2)
    services.generate_next_round(t, org)
    standings = client.get(f"/torneios/{t.slug}/classificacao/").content.decode()
    url = f"/torneios/{t.slug}/fases/1/tabela-cruzada/"
    assert url in standings and 'data-testid="crosstable-links"' in standings
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="crosstable"' in html and 'data-testid="tiebreak-breakdown"' in html
    assert html.count('data-kind="pending"') == 8  # round 3 paired, not played
    assert 'data-kind="win"' in html and "W.O." in html
    assert client.get(f"/torneios/{t.slug}/fases/2/tabela-cruzada/").status_code == 404


def test_not_for_another_format_and_no_link(org, client):
    t = f.tournament(org, slug="liga")
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    assert client.get(f"/torneios/{t.slug}/fases/1/tabela-cruzada/").status_code == 404
    assert "tabela-cruzada" not in client.get(f"/torneios/{t.slug}/classificacao/").content.decode()


def test_a_fixed_number_of_queries(org, client, django_assert_max_num_queries):
    small, large = swiss(org, 6, slug="pequeno"), swiss(org, 30, slug="grande")
    counts = []
    for t in (small, large):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/torneios/{t.slug}/fases/1/tabela-cruzada/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[1] <= 16
