"""The organizer dashboard costs by what it shows: each pair's and each match's forms come on demand
(tournaments/dashboard_panels.py), a long round by table ranges (dashboard_rows.py), and every answer
compressed when the browser takes gzip (GZipMiddleware)."""
import gzip
import re

import pytest

from scoring.models import Match
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import services

pytestmark = pytest.mark.django_db

PANEL = {"HTTP_X_DASHBOARD_PANEL": "1"}


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def test_the_page_carries_no_pair_forms_and_each_pair_s_actions_come_on_demand(client, org):
    t = pf.tournament(org, pairs=70, format="swiss")
    html = client.get(url("dashboard", t)).content.decode()
    pair = t.pairs.order_by("pk").first()
    assert url("withdraw", t, pk=pair.pk) not in html and url("edit-pair", t, pk=pair.pk) not in html
    assert url("roster", t) in html  # the roster folds after the draw and comes when it opens
    roster = client.get(url("roster", t), **PANEL).content.decode()
    assert "<html" not in roster and roster.count('data-part="pair"') == 70
    assert url("pair-actions", t, pk=pair.pk) in roster
    panel = client.get(url("pair-actions", t, pk=pair.pk), **PANEL)
    assert "X-Dashboard-Panel" in panel["Vary"]
    html = panel.content.decode()
    assert "<html" not in html
    for name in ("edit-pair", "avoid-tags", "withdraw", "disqualify"):
        assert url(name, t, pk=pair.pk) in html, name
    for player in pair.players:
        assert url("reset-pin", t, pk=player.pk) in html
    assert 'data-part="pair"' in html and html.count("csrfmiddlewaretoken") >= 5
    page = client.get(url("pair-actions", t, pk=pair.pk)).content.decode()  # no script: a page of its own
    assert "<html" in page and url("withdraw", t, pk=pair.pk) in page and url("dashboard", t) in page


def test_a_withdrawn_pair_s_panel_reinstates_it(client, org):
    t = pf.tournament(org, pairs=4, format="round_robin")
    pair = t.pairs.order_by("pk").first()
    services.withdraw_pair(pair, org, "foi embora")
    html = client.get(url("pair-actions", t, pk=pair.pk), **PANEL).content.decode()
    assert url("reinstate", t, pk=pair.pk) in html and url("withdraw", t, pk=pair.pk) not in html
    assert "Reintegrar" in client.get(url("roster", t)).content.decode()


def test_a_short_roster_before_the_draw_stays_open_in_the_page(client, org):
    t = pf.tournament(org, pairs=8, draw=False)
    html = client.get(url("dashboard", t)).content.decode()
    assert html.count('data-part="pair"') == 8 and url("roster", t) not in html
    assert "Ações: editar, PINs, desistência…" in html


def test_a_match_s_rarer_actions_come_on_demand(client, org):
    t = pf.tournament(org, pairs=8, format="round_robin")
    match = pf.open_matches(t)[0]
    html = client.get(url("dashboard", t)).content.decode()
    assert 'data-testid="quick-result"' in html  # the quick result stays in the card: two taps
    assert url("walkover", t, pk=match.pk) not in html and url("match-actions", t, pk=0) in html
    for part in ("walkover", "result", "swap"):
        assert f'data-part="{part}"' in html
    panel = client.get(url("match-actions", t, pk=match.pk), **PANEL).content.decode()
    for name in ("walkover", "double-walkover", "result", "swap-tables"):
        assert url(name, t, pk=match.pk) in panel, name
    for part in ("walkover", "result", "swap"):
        assert f'data-part="{part}"' in panel


def test_panels_are_the_organizer_s_only(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    stranger = pf.organizer("stranger")
    client.force_login(stranger)
    for path in (url("roster", t), url("pair-actions", t, pk=match.pair_a_id), url("match-actions", t, pk=match.pk)):
        assert client.get(path).status_code == 403
    client.logout()
    assert client.get(url("roster", t)).status_code == 302
    client.force_login(org)
    other = pf.tournament(org, slug="outra", pairs=4)
    assert client.get(url("pair-actions", t, pk=other.pairs.first().pk)).status_code == 404
    assert client.post(url("roster", t)).status_code == 405


def test_a_long_round_is_shown_by_table_ranges(client, org):
    t = pf.tournament(org, pairs=80, format="swiss")  # 40 tables: ranges of 32
    html = client.get(url("dashboard", t)).content.decode()
    assert html.count('data-testid="quick-result"') == 32 and 'data-testid="table-ranges"' in html
    assert "Mesas 1–32" in html and "Mesas 33–40" in html and "mesas=2" in html
    second = client.get(url("dashboard", t) + "?mesas=2").content.decode()
    assert second.count('data-testid="quick-result"') == 8 and 'data-tables="2"' in second
    # a background post's answer keeps the range shown (the header crosses the redirect)
    match = Match.objects.get(tournament=t, table=35)
    answer = client.post(url("result", t, pk=match.pk), {"winner": match.pair_a_id, "loser_points": "7", "rodada": "1",
                                                          "reason": "súmula de papel"},
                         HTTP_X_DASHBOARD_PARTS="matches", HTTP_X_DASHBOARD_TABLES="2", follow=True)
    fragment = answer.content.decode()
    assert f'id="match-{match.pk}"' in fragment and fragment.count('data-testid="quick-result"') == 7
    assert "X-Dashboard-Tables" in answer["Vary"]
    # a refused result by hand comes back in its card, on its range
    far = Match.objects.get(tournament=t, table=38)
    refused = client.post(url("result", t, pk=far.pk), {"winner": far.pair_a_id, "reason": ""}).content.decode()
    assert f'id="match-{far.pk}"' in refused and 'data-testid="result-form"' in refused
    # with nothing left to do or to play on the first range, the dashboard opens on the next one
    for match in Match.objects.filter(tournament=t, table__lte=32, tournament_result__isnull=True):
        pf.decide(match, org)
    html = client.get(url("dashboard", t)).content.decode()
    assert 'data-tables="2"' in html and html.count('data-testid="quick-result"') == 7


def test_pages_and_json_are_compressed_and_conditional_gets_still_answer_304(client, org):
    t = pf.tournament(org, pairs=16)
    plain = client.get(url("dashboard", t))
    zipped = client.get(url("dashboard", t), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    assert zipped["Content-Encoding"] == "gzip" and int(zipped["Content-Length"]) == len(zipped.content)
    body = gzip.decompress(zipped.content).decode()
    strip = re.compile(r'value="[^"]{64}"|nonce="[^"]*"')  # CSRF tokens are masked per answer; nonces differ
    assert strip.sub("", body) == strip.sub("", plain.content.decode())
    assert len(zipped.content) < len(plain.content) / 4
    # a public page: its ETag turns weak when compressed, and a copy named by it is still not sent again
    public = client.get(url("standings", t), HTTP_ACCEPT_ENCODING="gzip")
    assert public["Content-Encoding"] == "gzip" and public["ETag"].startswith('W/"')
    again = client.get(url("standings", t), HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=public["ETag"])
    assert again.status_code == 304 and not again.content
    api = client.get(f"/api/tournaments/{t.slug}/standings/", HTTP_ACCEPT_ENCODING="gzip")
    assert api.status_code == 200 and api["Content-Type"].startswith("application/json")
    assert api["Content-Encoding"] == "gzip" or len(api.content) < 200
