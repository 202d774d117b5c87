"""The downloads' two CSV dialects: Excel-BR (';', UTF-8 with BOM, Portuguese columns and
values), linked first on the pt-BR pages, and the plain one for programs (comma, UTF-8, English); a W.O.
exported as the standings count it (art. 25-26)."""
from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.models import Stage

pytestmark = pytest.mark.django_db

BOM = b"\xef\xbb\xbf"


def api(name: str, t, **kwargs) -> str:
    return reverse(f"tournaments-api:export-{name}", kwargs={"slug": t.slug, **kwargs})


@pytest.fixture
def swiss():
    org = pf.organizer()
    t = pf.tournament(org, pairs=7, format="swiss", draw=False)
    pair = t.pairs.order_by("pk").first()
    pair.name = "Édson e Cia"
    pair.save(update_fields=["name"])
    services.generate_first_round(t, org)
    first, second, third = pf.open_matches(t)
    f.play(first, first.pair_a, org, loser_points=7)  # a received súmula, one game 12-7
    services.record_walkover(second, second.pair_b, org, reason="não compareceu")
    return org, t, (first, second, third)


def rows_of(content: bytes, delimiter: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))


def test_excel_br_is_semicolons_bom_and_portuguese(client, swiss):
    _org, t, (played, walkover, open_match) = swiss
    response = client.get(api("results", t) + "?format=csv&dialect=excel-br")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    content = response.content
    assert content.startswith(BOM) and b"\xc3\x89dson e Cia" in content  # "Édson" in UTF-8 after the mark
    header = content[3:].split(b"\r\n", 1)[0].decode()
    assert header.startswith("id do jogo;rodada;nome da rodada;mesa;") and "," not in header
    rows = {int(r["id do jogo"]): r for r in rows_of(content, ";")}
    row = rows[played.pk]
    assert (row["situação da súmula"], row["tipo de resultado"], row["oficial"]) == ("recebida", "súmula recebida", "sim")
    assert (row["tentos A (como na classificação)"], row["placar das partidas"]) == ("12", "12×7")
    wo = rows[walkover.pk]
    assert (wo["tipo de resultado"], wo["placar conta na classificação"]) == ("W.O.", "não")
    assert rows[open_match.pk]["oficial"] == "não" and rows[open_match.pk]["situação da súmula"] == "aberta"


def test_plain_is_for_programs_and_the_api_default(client, swiss):
    _org, t, (played, walkover, _open) = swiss
    default = client.get(api("results", t) + "?format=csv").content
    assert default == client.get(api("results", t) + "?format=csv&dialect=plain").content
    assert not default.startswith(BOM) and default.split(b"\r\n", 1)[0].startswith(b"match_id,round,")
    rows = {int(r["match_id"]): r for r in rows_of(default, ",")}
    assert (rows[played.pk]["status"], rows[played.pk]["games"]) == ("received", "12-7")
    assert (rows[walkover.pk]["kind"], rows[walkover.pk]["counted_in_standings"]) == ("walkover", "0")
    refused = client.get(api("results", t) + "?format=csv&dialect=excel")
    assert refused.status_code == 400 and b"dialect" in refused.content


def test_a_walkover_is_exported_as_the_standings_count_it(client, swiss):
    """Art. 25-26: by default a W.O. counts as a win and nothing else; the export said 0-12."""
    _org, t, (_played, walkover, _open) = swiss
    data = client.get(api("results", t)).json()
    wo = next(r for r in data["rows"] if r["match_id"] == walkover.pk)
    assert (wo["points_a"], wo["points_b"], wo["games_a"], wo["games_b"]) == (0, 0, 0, 0)
    assert wo["counted_in_standings"] is False and wo["winner_id"] == walkover.pair_a_id
    standing = next(r for r in client.get(api("standings", t)).json()["rows"] if r["pair_id"] == walkover.pair_a_id)
    assert (standing["won"], standing["points_for"], standing["games_for"]) == (1, 0, 0)

    Stage.objects.filter(tournament=t).update(walkover_scores=True)  # the club's option: the W.O.'s score counts
    counted = next(r for r in client.get(api("results", t)).json()["rows"] if r["match_id"] == walkover.pk)
    standing = next(r for r in client.get(api("standings", t)).json()["rows"] if r["pair_id"] == walkover.pair_a_id)
    assert counted["counted_in_standings"] is True
    assert (counted["points_a"], counted["games_a"]) == (standing["points_for"], standing["games_for"])


def test_standings_in_excel_br_have_portuguese_columns_and_decimal_commas(client, swiss):
    _org, t, _ = swiss
    content = client.get(api("standings", t) + "?format=csv&dialect=excel-br").content
    rows = rows_of(content, ";")
    assert {"posição", "dupla", "jogadores", "desistente", "tentos a favor", "saldo de tentos"} <= set(rows[0])
    assert {r["desistente"] for r in rows} == {"não"}


def test_a_name_a_spreadsheet_would_run_stays_text(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=2, format="swiss", draw=False)
    pair = t.pairs.first()
    pair.name = "=HYPERLINK(\"http://x\")"
    pair.save(update_fields=["name"])
    services.generate_first_round(t, org)
    content = client.get(api("pairings", t, number=1) + "?format=csv&dialect=excel-br").content
    assert "'=HYPERLINK" in content.decode("utf-8-sig")


def test_pt_br_pages_link_the_spreadsheet_first_and_the_plain_csv_for_programs(client, swiss):
    _org, t, _ = swiss
    page = client.get(reverse("tournaments:standings", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="pt-br")
    html = page.content.decode()
    spreadsheet = api("standings", t) + "?format=csv&amp;dialect=excel-br"
    assert spreadsheet in html and "Planilha (Excel)" in html
    assert html.index(spreadsheet) < html.index(api("standings", t) + "?format=csv\"")
    assert "CSV para programas" in html
    round_page = client.get(reverse("tournaments:round", kwargs={"slug": t.slug, "number": 1}),
                            HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert api("pairings", t, number=1) + "?format=csv&amp;dialect=excel-br" in round_page


def test_the_two_dialects_write_the_same_row_for_their_readers():
    from fractions import Fraction

    from public import export_dialects

    columns = ["pair", "buchholz", "point_difference", "withdrawn", "games", "kind", "note"]
    rows = [{"pair": "Édson; Cia", "buchholz": Fraction(3, 2), "point_difference": -5, "withdrawn": True,
             "games": [{"a": 12, "b": 9}, {"a": 7, "b": 12}], "kind": "double_walkover", "note": "+1 mesa"}]
    excel = export_dialects.write(columns, rows, export_dialects.EXCEL_BR)
    assert excel == ("\ufeffdupla;Buchholz;saldo de tentos;desistente;placar das partidas;tipo de resultado;note\r\n"
                     "\"Édson; Cia\";1,5;-5;sim;12×9 7×12;W.O. duplo;'+1 mesa\r\n").encode("utf-8")
    plain = export_dialects.write(columns, rows)
    assert plain == ("pair,buchholz,point_difference,withdrawn,games,kind,note\r\n"
                     "Édson; Cia,1.5,-5,1,12-9 7-12,double_walkover,+1 mesa\r\n").encode("utf-8")
