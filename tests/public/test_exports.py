"""Results out: standings, results (every match with its games and score) and a
round's pairings as CSV and JSON, through the API (in the OpenAPI schema) and linked from the pages."""
from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.factories import english  # noqa: F401  (messages in English)
from tournaments import services
from tournaments.models import Bye, Result, Round

pytestmark = pytest.mark.django_db


def api(name: str, t, **kwargs) -> str:
    return reverse(f"tournaments-api:export-{name}", kwargs={"slug": t.slug, **kwargs})


def read_csv(response) -> list[dict]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))


@pytest.fixture
def swiss():
    org = pf.organizer()
    t = pf.tournament(org, pairs=7, format="swiss")  # 3 matches and a bye in round 1
    first, second, third = pf.open_matches(t)
    f.play(first, first.pair_a, org, loser_points=7)  # through the súmula: one game 12-7
    services.record_walkover(second, second.pair_b, org, reason="did not show up")
    return org, t, (first, second, third)


def test_results_csv_and_json_have_every_match_with_its_games_and_score(client, swiss):
    _org, t, (played, walkover, open_match) = swiss
    rows = read_csv(client.get(api("results", t) + "?format=csv"))
    assert [int(r["match_id"]) for r in rows] == [m.pk for m in Match.objects.filter(tournament=t)
                                                   .order_by("round__number", "table", "pk")]
    by_id = {int(r["match_id"]): r for r in rows}
    row = by_id[played.pk]
    assert (row["pair_a"], row["pair_b"], row["winner"]) == (played.pair_a.name, played.pair_b.name, played.pair_a.name)
    assert (row["kind"], row["official"], row["games_a"], row["games_b"]) == ("sumula", "1", "1", "0")
    assert (row["points_a"], row["points_b"], row["games"]) == ("12", "7", "12-7")
    assert row["round"] == "1" and row["table"] == str(played.table)
    wo = by_id[walkover.pk]
    assert (wo["kind"], wo["winner"], wo["absent"], wo["games"]) == ("walkover", walkover.pair_a.name,
                                                                      walkover.pair_b.name, "")
    assert (by_id[open_match.pk]["official"], by_id[open_match.pk]["winner"]) == ("0", "")

    data = client.get(api("results", t)).json()
    assert data["tournament"] == t.slug and data["columns"][:2] == ["match_id", "round"]
    one = next(r for r in data["rows"] if r["match_id"] == played.pk)
    assert one["games"] == [{"number": 1, "a": 12, "b": 7}]
    assert (one["points_a"], one["official"], one["winner_id"]) == (12, True, played.pair_a_id)


def test_standings_csv_and_json_follow_the_standings(client, swiss):
    _org, t, _matches = swiss
    table = services.standings(t)
    rows = read_csv(client.get(api("standings", t) + "?format=csv"))
    assert [r["pair"] for r in rows] == [line.pair.name for line in table.rows]
    assert [r["rank"] for r in rows] == [str(line.rank) for line in table.rows]
    for r, line in zip(rows, table.rows):
        assert (r["played"], r["won"], r["lost"], r["byes"]) == tuple(str(v) for v in (
            line.played, line.won, line.lost, line.byes))
        assert r["point_difference"] == str(line.point_difference)
        assert r["players"] == f"{line.pair.first_player.name} / {line.pair.second_player.name}"
        for key in table.tiebreaks:
            if key != "matches_won":
                assert key in r
    data = client.get(api("standings", t)).json()
    assert data["tiebreaks"] == table.tiebreaks
    assert [r["pair_id"] for r in data["rows"]] == [line.pair.pk for line in table.rows]
    assert data["rows"][0]["withdrawn"] is False


def test_standings_of_groups_come_overall_then_per_group(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="round_robin", group_count=2)
    pf.play_some(t, org, 4)
    data = client.get(api("standings", t)).json()
    groups = [r["group"] for r in data["rows"]]
    assert groups == [""] * 8 + ["A"] * 4 + ["B"] * 4


def test_pairings_of_a_round_by_table_then_the_bye(client, swiss):
    _org, t, matches = swiss
    rows = read_csv(client.get(api("pairings", t, number=1) + "?format=csv"))
    assert [r["table"] for r in rows] == ["1", "2", "3", ""]
    for r in rows[:3]:
        match = Match.objects.get(pk=int(r["match_id"]))
        assert (r["pair_a"], r["pair_b"], r["bye"]) == (match.pair_a.name, match.pair_b.name, "0")
    bye = Bye.objects.get(round__tournament=t)
    assert (rows[3]["pair_a"], rows[3]["bye"], rows[3]["pair_b"]) == (bye.pair.name, "1", "")
    data = client.get(api("pairings", t, number=1)).json()
    assert data["round"] == 1 and len(data["rows"]) == 4

    missing = client.get(api("pairings", t, number=7))
    assert missing.status_code == 404 and missing.json()["field"] == "round"
    assert client.get(api("pairings", t, number=7) + "?format=csv").status_code == 404
    nowhere = client.get(reverse("tournaments-api:export-results", kwargs={"slug": "nowhere"}) + "?format=csv")
    assert nowhere.status_code == 404 and nowhere["Content-Type"].startswith("text/csv")


def test_downloads_are_attachments_named_after_the_tournament(client, swiss):
    _org, t, _ = swiss
    response = client.get(api("results", t) + "?format=csv")
    assert response["Content-Disposition"] == f'attachment; filename="{t.slug}-results.csv"'
    response = client.get(api("pairings", t, number=1) + "?format=json")
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="{t.slug}-round-1-pairings.json"'
    assert "Content-Disposition" not in client.get(api("standings", t))
    accept = client.get(api("standings", t), HTTP_ACCEPT="text/csv")
    assert accept["Content-Type"].startswith("text/csv")


def test_csv_keeps_accents_and_commas(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=2, format="swiss", draw=False)
    pair = t.pairs.first()
    pair.name = "Ás de Copas, Zap"
    pair.save(update_fields=["name"])
    services.generate_first_round(t, org)
    rows = read_csv(client.get(api("pairings", t, number=1) + "?format=csv"))
    assert "Ás de Copas, Zap" in (rows[0]["pair_a"], rows[0]["pair_b"])


def test_pages_link_the_downloads(client, swiss):
    _org, t, _ = swiss
    standings = client.get(reverse("tournaments:standings", kwargs={"slug": t.slug})).content.decode()
    assert api("standings", t) + "?format=csv" in standings and api("results", t) + "?format=json" in standings
    round_page = client.get(reverse("tournaments:round", kwargs={"slug": t.slug, "number": 1})).content.decode()
    assert api("pairings", t, number=1) + "?format=csv" in round_page
    assert api("results", t) + "?format=csv" in round_page
    org = pf.organizer("o2")
    k = pf.tournament(org, "ko", pairs=4)
    bracket = client.get(reverse("tournaments:bracket", kwargs={"slug": k.slug})).content.decode()
    assert api("results", k) + "?format=csv" in bracket


def test_exports_are_in_the_openapi_schema(client):
    schema = client.get(reverse("schema")).content.decode()
    for path in ("/api/tournaments/{slug}/exports/standings/", "/api/tournaments/{slug}/exports/results/",
                 "/api/tournaments/{slug}/exports/rounds/{number}/pairings/", "/api/tournaments/{slug}/version/"):
        assert path in schema, path
    assert "text/csv" in schema


@pytest.mark.parametrize("name", ["standings", "results", "pairings"])
def test_export_queries_do_not_grow_with_pairs(client, name):
    counts = {}
    for pairs in (8, 48):
        org = pf.organizer(f"o{pairs}")
        t = pf.tournament(org, f"x{pairs}", pairs=pairs, format="swiss")
        pf.play_some(t, org, 3)
        path = api(name, t, **({"number": 1} if name == "pairings" else {})) + "?format=csv"
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
        counts[pairs] = len(captured)
    assert counts[8] == counts[48], counts
    assert Result.objects.exists() and Round.objects.exists()
