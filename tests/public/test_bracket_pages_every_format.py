"""Every bracket format and option draws: the bracket page, its SVG, the projector and the wall sheet
of the latest round answer 200 from the draw to the end of the event, for single and double
elimination, groups then knockout, with and without the third-place match (art. 11.4) and the matches
for places 5 to 8."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import services
from tournaments.models import BracketNode, Round, Stage, Tournament

pytestmark = pytest.mark.django_db

NS = "{http://www.w3.org/2000/svg}"

COMBINATIONS = [
    ("single_elimination", 8, {"third_place": False, "classification": False}),
    ("single_elimination", 8, {"third_place": True, "classification": False}),
    ("single_elimination", 8, {"third_place": False, "classification": True}),
    ("single_elimination", 8, {"third_place": True, "classification": True}),
    ("single_elimination", 6, {"third_place": True, "classification": True}),  # byes in the quarterfinals
    ("single_elimination", 12, {"third_place": True, "classification": True}),
    ("double_elimination", 6, {"grand_final_reset": False}),
    ("double_elimination", 6, {"grand_final_reset": True}),
    ("double_elimination", 8, {"grand_final_reset": True, "third_place": True, "classification": True}),
    ("groups_knockout", 16, {"group_count": 4, "qualifiers_per_group": 2, "third_place": False,
                             "classification": False}),
    ("groups_knockout", 16, {"group_count": 4, "qualifiers_per_group": 2, "third_place": True,
                             "classification": False}),
    ("groups_knockout", 16, {"group_count": 4, "qualifiers_per_group": 2, "third_place": False,
                             "classification": True}),
    ("groups_knockout", 16, {"group_count": 4, "qualifiers_per_group": 2, "third_place": True,
                             "classification": True}),
]


def check_pages(client, t: Tournament, sheet: bool = True) -> None:
    """The pages answer; ``sheet``: the wall sheet's PDF too (rendered at the draw and at the end only: a
    PDF a round would make this the suite's slowest file for no other failure)."""
    bracket = client.get(url("bracket", t))
    assert bracket.status_code == 200
    svg = client.get(url("bracket-svg", t))
    knockout = Stage.objects.filter(tournament=t, bracket_first_round__isnull=False).first()
    if knockout is None:
        assert svg.status_code == 404
    else:
        assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
        root = ET.fromstring(svg.content)
        drawn = {g.get("data-match") for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "").split()}
        assert drawn == set(BracketNode.objects.filter(stage=knockout).values_list("code", flat=True))
        assert 'data-testid="bracket"' in bracket.content.decode() or "<svg" in bracket.content.decode()
    assert client.get(url("projector", t)).status_code == 200
    latest = Round.objects.filter(tournament=t, generated_at__isnull=False).order_by("-number").first()
    if latest is not None and sheet:
        sheet = client.get(url("wall-sheet", t, number=latest.number))
        assert sheet.status_code == 200 and sheet.content.startswith(b"%PDF")


@pytest.mark.parametrize(("format", "pairs", "options"), COMBINATIONS,
                         ids=[f"{fmt}-{n}-" + "-".join(k for k, v in o.items() if v is True) for fmt, n, o in
                              COMBINATIONS])
def test_bracket_pages_answer_for_every_format_and_option(client, format, pairs, options):
    org = pf.organizer()
    t = pf.tournament(org, pairs=pairs, format=format, **options)
    check_pages(client, t)
    for _ in range(40):
        matches = pf.open_matches(t)
        for m in matches:
            pf.decide(m, org, winner=m.pair_b if m.pk % 3 == 0 else m.pair_a)
        t.refresh_from_db()
        check_pages(client, t, sheet=t.status == Tournament.Status.FINISHED)
        if t.status == Tournament.Status.FINISHED:
            break
        if not matches:
            services.generate_next_round(t, org)
    assert t.status == Tournament.Status.FINISHED
    if options.get("classification") and format != "double_elimination":  # a double elimination has none
        knockout = Stage.objects.filter(tournament=t, bracket_first_round__isnull=False).get()
        assert BracketNode.objects.filter(stage=knockout, section="classification").exists()
        html = client.get(url("bracket", t)).content.decode()
        assert "Disputa do 5º lugar" in html


@pytest.mark.parametrize("entrants", [6, 8, 12, 16])
@pytest.mark.parametrize("third_place", [False, True])
def test_places_5_to_8_have_their_own_boxes_none_overlapping(entrants, third_place):
    """The classification matches are drawn in a section of their own: one box each, titled, and no
    box of the drawing overlaps another."""
    from draw.pairing import single_elimination
    from tournaments.svg import bracket_svg

    bracket = single_elimination(range(1, entrants + 1), third_place=third_place, classification=True)
    root = ET.fromstring(bracket_svg(bracket, {i: f"Dupla {i}" for i in range(1, entrants + 1)}))
    boxes = {}
    for g in root.iter(f"{NS}g"):
        if "bk-match" in g.get("class", "").split():
            rect = g.find(f"{NS}rect")
            boxes[g.get("data-match")] = (float(rect.get("x")), float(rect.get("y")),
                                          float(rect.get("width")), float(rect.get("height")))
    assert {"5S-1", "5S-2", "5P", "7P"} <= set(boxes)
    items = list(boxes.items())
    for i, (a, (ax, ay, aw, ah)) in enumerate(items):
        for b, (bx, by, bw, bh) in items[i + 1:]:
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)
    words = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert {"Places 5 to 8", "Fifth-place match", "Seventh-place match"} <= set(words)
