"""The organizer's dashboard by state: matches grouped by what they need (to do,
playing, done folded), a quick result for a single game (the loser's tentos and the winner, art. 26),
the check-in panel only when the next round is paired from who checked in, and the format named by
all its stages."""
from __future__ import annotations

import pytest

from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import pages
from tournaments.models import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def test_matches_by_state_and_the_quick_result(client, org):
    t = pf.tournament(org, pairs=8, format="swiss")
    done, playing = pf.open_matches(t)[:2]
    pf.decide(done, org)
    html = client.get(url("dashboard", t)).content.decode()
    assert 'data-testid="matches-playing"' in html and 'data-testid="matches-done"' in html
    folded = html.index('data-testid="done-list"')  # a <details> left closed
    assert ">" in html[folded:folded + 30] and " open" not in html[folded:html.index(">", folded)]
    assert html.index(f'id="match-{playing.pk}"') < folded < html.index(f'id="match-{done.pk}"')
    response = client.post(url("result", t, pk=playing.pk), {
        "winner": playing.pair_b_id, "loser_points": "7", "rodada": "1",
        "reason": "Resultado da súmula de papel, lançado pelo organizador"})
    assert response.status_code == 302
    result = Result.objects.get(match=playing)
    assert (result.winner_id, result.points_a, result.points_b) == (playing.pair_b_id, 7, 12)  # art. 18: 12 to win


def test_the_check_in_panel_only_for_a_round_paired_from_who_checked_in(org):
    robin = pf.tournament(org, "liga", pairs=4, format="round_robin")
    robin.check_in_required = True
    robin.save()
    stage = pages.stage_of(robin)
    assert pages.check_in_state(robin, stage, pages.generated_rounds(robin)) is None  # rounds fixed at the draw
    swiss = pf.tournament(org, "suico", pairs=4, format="swiss")
    swiss.check_in_required = True
    swiss.save()
    state = pages.check_in_state(swiss, pages.stage_of(swiss), pages.generated_rounds(swiss))
    assert state is not None and state.round_number == 2


def test_the_format_is_named_by_all_its_stages(client, org):
    t = pf.tournament(org, "clube", pairs=8, format="groups_knockout", group_count=2, qualifiers_per_group=2,
                      third_place=True, draw=False)
    html = client.get(url("detail", t)).content.decode()
    assert "2 grupos, todos contra todos → Eliminação simples, com disputa de 3º lugar" in html
