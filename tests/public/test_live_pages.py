"""Live public pages: the change marker with ETag/304 in one query, the live fragments,
the projector view, a pair's page and a round's wall sheet (PDF read back with pdftotext); the new
pages' query counts do not grow with the number of pairs."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from public import live, live_pages
from tournaments import services
from tournaments.models import Bye, Pair, Round

pytestmark = pytest.mark.django_db


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(captured)


# ------------------------------------------------------------------------------ change marker


def test_version_answers_304_until_a_result_becomes_official(client, django_assert_num_queries):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="swiss")
    path = url("version", t)
    with django_assert_num_queries(1):
        first = client.get(path)
    assert first.status_code == 200
    tag = first["ETag"]
    assert first.json()["version"] == tag.strip('"')
    assert first["Cache-Control"] == "no-cache"

    with django_assert_num_queries(1):
        again = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag

    match = pf.open_matches(t)[0]
    pf.decide(match, org)
    changed = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    from datetime import datetime

    from tournaments.models import Result

    changed_at = datetime.fromisoformat(changed.json()["changed_at"])
    assert changed_at >= Result.objects.get(match=match).recorded_at  # an aware moment, the latest change


@pytest.mark.parametrize("action", ["sumula", "walkover", "swap", "signed"])
def test_version_moves_with_every_change_a_public_page_shows(client, action):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="swiss")
    before = live.tournament_version(t.slug).tag
    first, second = pf.open_matches(t)[:2]
    if action == "sumula":
        f.play(first, first.pair_a, org, loser_points=3)
    elif action == "walkover":
        services.record_walkover(first, first.pair_b, org, reason="did not show up")
    elif action == "swap":
        services.swap_tables(first, second, org, reason="light over table 1")
    else:
        f.play(first, first.pair_a, org, receive_it=False)
    assert live.tournament_version(t.slug).tag != before


def test_version_of_an_unknown_tournament_is_404(client):
    assert client.get(reverse("tournaments:version", kwargs={"slug": "nope"})).status_code == 404


def test_version_is_in_the_api_too(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4)
    path = reverse("tournaments-api:version", kwargs={"slug": t.slug})
    first = client.get(path)
    assert first.status_code == 200 and "version" in first.json()
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# ------------------------------------------------------------------------------ live fragments


@pytest.mark.parametrize("page", ["standings", "rounds", "bracket", "projector", "grid"])
def test_live_pages_poll_and_answer_their_fragment_alone(client, page):
    org = pf.organizer()
    formats = {"bracket": ("single_elimination", {}), "grid": ("round_robin", {"group_count": 2})}
    format, stage = formats.get(page, ("swiss", {}))
    t = pf.tournament(org, pairs=8, format=format, **stage)
    pf.play_some(t, org, 2)
    html = client.get(url(page, t)).content.decode()
    assert 'data-live="' in html and "?parte=1" in html
    assert url("version", t) in html  # the polling script
    fragment = client.get(url(page, t) + "?parte=1")
    body = fragment.content.decode()
    assert fragment.status_code == 200
    assert "<html" not in body and "<script" not in body
    for match in Match.objects.filter(tournament=t, tournament_result__isnull=False):
        assert match.pair_a.name in body


# ------------------------------------------------------------------------------ projector


def test_projector_cycles_tables_bracket_and_standings(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=40, format="swiss")
    pf.play_some(t, org, 3)
    p = live_pages.projector_slides(t)
    kinds = [s.kind for s in p.slides]
    assert kinds == ["tables", "tables", "standings", "standings", "standings", "standings"]
    assert [len(s.items) for s in p.slides[:2]] == [12, 8]  # 12 tables a slide: names of 54 px
    assert [len(s.items) for s in p.slides[2:]] == [10, 10, 10, 10]
    html = client.get(url("projector", t)).content.decode()
    assert 'data-slide="tables-1"' in html and 'data-slide="standings-4"' in html
    assert "setInterval(next" in html

    k = pf.tournament(org, "ko", pairs=8)
    slides = [s.key for s in live_pages.projector_slides(k).slides]
    assert slides == ["tables-1", "bracket"]  # a bracket has no standings table


def test_projector_before_the_draw_says_so(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, draw=False)
    html = client.get(url("projector", t)).content.decode()
    assert "ainda não começou" in html


# ------------------------------------------------------------------------------ pair page


def test_pair_page_lists_players_matches_scores_and_sumulas(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="swiss")
    match = pf.open_matches(t)[0]
    f.play(match, match.pair_a, org, loser_points=5)
    pair = match.pair_a
    html = client.get(url("pair", t, pair=pair.pk)).content.decode()
    assert pair.first_player.name in html and pair.second_player.name in html
    assert match.pair_b.name in html
    assert "12–5" in html
    assert reverse("printing:match-filled", kwargs={"pk": match.pk}) in html
    assert url("pair", t, pair=match.pair_b_id) in html  # the opponent's page
    rank = next(line.rank for line in services.standings(t).rows if line.pair.pk == pair.pk)
    assert f"{rank}º na classificação" in html and "vitórias: 1, derrotas: 0" in html
    other = client.get(url("pair", t, pair=match.pair_b_id)).content.decode()
    assert "5–12" in other  # from the loser's side

    assert client.get(url("pair", t, pair=999999)).status_code == 404
    stranger = pf.tournament(org, "outro", pairs=2, draw=False).pairs.first()
    assert client.get(url("pair", t, pair=stranger.pk)).status_code == 404


def test_pair_pages_are_linked_from_standings_rounds_and_the_pairs(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss")
    pair = Pair.objects.filter(tournament=t).first()
    for page in ("standings", "rounds", "detail"):
        assert url("pair", t, pair=pair.pk) in client.get(url(page, t)).content.decode(), page


# ------------------------------------------------------------------------------ wall sheet


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_wall_sheet_lists_every_pair_alphabetically_with_its_table(client):
    org = pf.organizer()
    t = f.tournament(org, slug="mural")
    names = ["Zebras", "águias", "Bambas", "Ases", "Éden", "Coringas", "Manilhas"]
    f.pairs(t, len(names))
    for pair, name in zip(Pair.objects.filter(tournament=t).order_by("pk"), names):
        pair.name = name
        pair.save(update_fields=["name"])
    services.configure_stage(t, org, format="swiss")
    services.generate_first_round(t, org)
    rnd = Round.objects.get(tournament=t, number=1)
    response = client.get(url("wall-sheet", t, number=1))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    with open("/tmp/wall-sheet.pdf", "wb") as out:  # to look at: pdftoppm -png /tmp/wall-sheet.pdf
        out.write(response.content)
    order = [n for n in sorted(names, key=live_pages.sort_key)]
    assert order[:3] == ["águias", "Ases", "Bambas"]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    heads = [i for i, line in enumerate(lines) if line in names]
    assert [lines[i] for i in heads] == order, text  # alphabetical, accents and case ignored

    def detail(name: str) -> str:  # the line under the pair's name: players, table, opponent
        return lines[lines.index(name) + 1]

    for match in Match.objects.filter(round=rnd):
        assert detail(match.pair_a.name).split()[-2:] == [str(match.table), match.pair_b.name]
        assert detail(match.pair_b.name).split()[-2:] == [str(match.table), match.pair_a.name]
    bye = Bye.objects.get(round=rnd)
    assert "Folga" in detail(bye.pair.name)
    assert "Rodada 1" in text and t.name in text

    assert client.get(url("wall-sheet", t, number=9)).status_code == 404
    assert url("wall-sheet", t, number=1) in client.get(url("round", t, number=1)).content.decode()


# ------------------------------------------------------------------------------ query counts


@pytest.mark.parametrize("format,page", [
    ("swiss", "projector"), ("single_elimination", "projector"), ("groups_knockout", "projector"),
    ("swiss", "pair"), ("swiss", "wall-sheet"), ("single_elimination", "wall-sheet"),
])
def test_new_pages_run_the_same_queries_with_8_and_48_pairs(client, django_assert_num_queries, format, page):
    counts = {}
    for pairs in (8, 48):
        org = pf.organizer(f"o{pairs}")
        t = pf.tournament(org, f"{page}-{format[:5]}-{pairs}".replace("_", "-"), pairs=pairs, format=format,
                          **({"group_count": 4} if format == "groups_knockout" else {}))
        pf.play_some(t, org, 3)
        kwargs = {}
        if page == "pair":
            kwargs["pair"] = Match.objects.filter(tournament=t, tournament_result__isnull=False).first().pair_a_id
        if page == "wall-sheet":
            kwargs["number"] = 1
        path = url(page, t, **kwargs)
        if pairs == 8:
            counts[pairs] = queries(client, path)
        else:
            with django_assert_num_queries(counts[8]):  # the count measured with 8 pairs
                assert client.get(path).status_code == 200
        if page == "projector":
            assert queries(client, path + "?parte=1") <= counts[8]


def test_a_fragment_asked_for_a_new_version_is_never_a_copy_from_before_it(client):
    """public.conditional caches built pages by path; the version in the fragment's URL (as the
    page's script sends it) makes each change a new path, so the fragment shows the change."""
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="swiss")
    match = pf.open_matches(t)[0]
    before = live.tournament_version(t.slug).tag
    first = client.get(url("rounds", t) + f"?parte=1&v={before}")
    assert "12–7" not in first.content.decode()
    pf.decide(match, org)
    after = live.tournament_version(t.slug).tag
    assert after != before
    fresh = client.get(url("rounds", t) + f"?parte=1&v={after}").content.decode()
    assert "12–7" in fresh


def test_projector_and_pair_pages_answer_conditional_requests(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss")
    pair = Pair.objects.filter(tournament=t).first()
    for path in (url("projector", t), url("pair", t, pair=pair.pk)):
        first = client.get(path)
        assert first.has_header("ETag"), path
        assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, path


def test_the_printing_index_links_each_round_wall_sheet(client):
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss")
    client.force_login(org)
    index = client.get(reverse("printing:tournament", kwargs={"slug": t.slug})).content.decode()
    assert url("wall-sheet", t, number=1) in index


def test_projector_shows_the_rounds_clock_ticked_by_the_page(client):
    """With a time limit, the round's elapsed time (from its call) and time left (to its
    last started match's limit), and each started match's time left, as absolute times the page ticks
    every second: no request more than the live poll."""
    from datetime import timedelta

    from django.utils import timezone

    from room.services import presence, ready

    org = pf.organizer()
    t = f.tournament(org)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    plain = client.get(url("projector", t)).content.decode()
    assert 'data-testid="round-clock"' not in plain  # no room options: no clock
    ready.configure_room(t, org, time_limit=90)
    services.generate_first_round(t, org)
    rnd = Round.objects.get(tournament=t, number=1)
    match = Match.objects.get(tournament=t, table=2)
    for team in (0, 1):
        presence.confirm_presence(match, team, now=rnd.generated_at + timedelta(minutes=5))
    p = live_pages.projector_slides(t)
    assert p.clock.since == rnd.generated_at and p.clock.until == rnd.generated_at + timedelta(minutes=95)
    html = client.get(url("projector", t)).content.decode()
    assert 'data-testid="round-clock"' in html and "data-server-now=" in html
    assert html.count('data-testid="match-clock"') == 1  # the started match's time left; the other not started
    assert f'data-until="{timezone.localtime(rnd.generated_at + timedelta(minutes=95)).isoformat()}"' in html
    assert "setInterval(tick, 1000)" in html
