"""The format (stage) and the draw: each format's first round, seeding, tables and referees."""
import pytest

from scoring.models import Game, Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import AuditEntry, BracketNode, Bye, GroupMember, Round, Stage, TableAssignment
from draw.models.stages import stage_in_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def org():
    return f.user("org")


@pytest.fixture
def t(org):
    return f.tournament(org, best_of=3)


def boards(rnd):
    """Matches of a round as (table, pair A name, pair B name), by table."""
    return [(m.table, m.pair_a.name, m.pair_b.name) for m in services.round_matches(rnd)]


def test_stage_settings_are_checked(t, org):
    with pytest.raises(services.TournamentError) as error:
        services.configure_stage(t, org, seeding="lot")
    assert error.value.field == "format"
    cases = [
        ({"format": "knockout"}, "format"),
        ({"format": "swiss", "seeding": "height"}, "seeding"),
        ({"format": "swiss", "swiss_rounds": 0}, "swiss_rounds"),
        ({"format": "round_robin", "group_count": 0}, "group_count"),
        ({"format": "round_robin", "third_place": "yes"}, "third_place"),
        ({"format": "round_robin", "tiebreaks": ["buchholz"]}, "tiebreaks"),
        ({"format": "swiss", "tiebreaks": ["points_scored", "points_scored"]}, "tiebreaks"),
        ({"format": "swiss", "tiebreaks": ["elo"]}, "tiebreaks"),
        ({"format": "swiss", "tiebreaks": []}, "tiebreaks"),
        ({"format": "groups_knockout", "group_count": 1, "qualifiers_per_group": 1}, "qualifiers_per_group"),
        ({"format": "swiss", "colour": "red"}, "colour"),
    ]
    for settings, field in cases:
        with pytest.raises(services.TournamentError) as error:
            services.configure_stage(t, org, **settings)
        assert error.value.field == field, settings
    stage = services.configure_stage(t, org, format="swiss", tiebreaks=["matches_won", "buchholz",
                                                                        "median_buchholz"])
    assert stage.swiss_rounds is None and stage.standings_lot_seed >= 0
    with pytest.raises(services.Forbidden):
        services.configure_stage(t, f.user("x"), format="swiss")
    assert AuditEntry.objects.filter(action="stage_configured").count() == 1


def test_format_is_locked_after_the_draw(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    with pytest.raises(services.Conflict):
        services.configure_stage(t, org, third_place=True)
    with pytest.raises(services.Conflict):
        services.generate_first_round(t, org)


def test_no_draw_without_a_format(t, org):
    f.pairs(t, 4)
    with pytest.raises(services.Conflict) as error:
        services.generate_first_round(t, org)
    assert error.value.field == "stage"


def test_single_elimination_standard_seeding_tables_and_match_format(t, org):
    f.pairs(t, 8)
    services.configure_stage(t, org, format="single_elimination")
    rnd = services.generate_first_round(t, org)
    assert rnd.number == 1 and rnd.phase == "bracket" and rnd.name == "Quarterfinals"
    assert boards(rnd) == [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P3", "P6"), (4, "P2", "P7")]
    match = Match.objects.filter(round=rnd).first()
    assert match.best_of == 3 and match.rule_set["preset"] == "regulamento-tecnico"
    assert Game.objects.filter(match__round=rnd, number=1).count() == 4
    assert BracketNode.objects.filter(stage=stage_in_play(t)).count() == 7
    t.refresh_from_db()
    assert t.status == "in_progress"
    audit = AuditEntry.objects.get(action="round_generated")
    assert audit.after["order"] == stage_in_play(t).bracket_seeds and len(audit.after["matches"]) == 4


def test_byes_go_to_the_top_seeds_and_the_third_place_match_exists(t, org):
    f.pairs(t, 6)
    services.configure_stage(t, org, format="single_elimination", third_place=True)
    rnd = services.generate_first_round(t, org)
    assert boards(rnd) == [(1, "P4", "P5"), (2, "P3", "P6")]
    byes = BracketNode.objects.filter(stage=stage_in_play(t), bracket_round=1, unplayed=True)
    assert {n.winner.name for n in byes} == {"P1", "P2"}
    assert BracketNode.objects.filter(stage=stage_in_play(t), section="third_place").exists()
    semis = BracketNode.objects.filter(stage=stage_in_play(t), bracket_round=2).order_by("position")
    assert [n.top_pair.name if n.top_pair else None for n in semis] == ["P1", None]
    assert [n.bottom_pair.name if n.bottom_pair else None for n in semis] == [None, "P2"]
    assert all(n.match_id is None for n in semis)


def test_organizer_order_uses_the_seed_field(t, org):
    pairs = f.pairs(t, 4)
    for pair, seed in zip(pairs, [4, 3, 2, 1]):
        pair.seed = seed
        pair.save()
    services.configure_stage(t, org, format="single_elimination")
    rnd = services.generate_first_round(t, org)
    assert boards(rnd) == [(1, "P4", "P1"), (2, "P3", "P2")]


def test_seeding_by_rating(t, org):
    pairs = f.pairs(t, 4)
    for pair, rating in zip(pairs, [1200, None, 1800, 1500]):
        pair.rating = rating
        pair.save()
    services.configure_stage(t, org, format="single_elimination", seeding="rating")
    rnd = services.generate_first_round(t, org)
    assert boards(rnd) == [(1, "P3", "P2"), (2, "P4", "P1")]


def test_draw_by_lot_is_recorded_and_reproducible(org):
    orders = []
    for slug in ("a", "b"):
        t = f.tournament(org, slug=slug)
        f.pairs(t, 16)
        services.configure_stage(t, org, format="single_elimination", seeding="lot")
        rnd = services.generate_first_round(t, org, seed=12345)
        stage_in_play(t).refresh_from_db()
        assert stage_in_play(t).lot_seed == 12345 and rnd.lot_seed == 12345
        names = dict(t.pairs.values_list("pk", "name"))
        orders.append([names[pk] for pk in stage_in_play(t).bracket_seeds])
    assert orders[0] == orders[1] and orders[0] != [f"P{i}" for i in range(1, 17)]
    t = f.tournament(org, slug="c")
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", seeding="lot")
    rnd = services.generate_first_round(t, org)
    stage_in_play(t).refresh_from_db()
    assert rnd.lot_seed is not None and rnd.lot_seed == stage_in_play(t).lot_seed


def test_a_seed_is_only_for_a_draw_by_lot(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    with pytest.raises(services.TournamentError) as error:
        services.generate_first_round(t, org, seed=5)
    assert error.value.field == "seed"


def test_double_elimination_first_round(t, org):
    f.pairs(t, 8)
    services.configure_stage(t, org, format="double_elimination", grand_final_reset=True)
    rnd = services.generate_first_round(t, org)
    assert boards(rnd) == [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P3", "P6"), (4, "P2", "P7")]
    codes = set(BracketNode.objects.filter(stage=stage_in_play(t)).values_list("code", flat=True))
    assert {"W1-1", "L1-1", "L4-1", "GF1", "GF2"} <= codes and len(codes) == 7 + 6 + 2


def test_round_robin_berger_order(t, org):
    f.pairs(t, 8)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    assert rnd.phase == "groups"
    assert boards(rnd) == [(1, "P1", "P8"), (2, "P2", "P7"), (3, "P3", "P6"), (4, "P4", "P5")]
    assert GroupMember.objects.filter(stage=stage_in_play(t)).count() == 8


def test_round_robin_with_an_odd_group_records_the_bye(t, org):
    f.pairs(t, 5)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    assert len(boards(rnd)) == 2
    assert [b.pair.name for b in Bye.objects.filter(round=rnd)] == ["P1"]


def test_round_robin_groups_by_snake_seeding(t, org):
    f.pairs(t, 8)
    services.configure_stage(t, org, format="round_robin", group_count=2)
    rnd = services.generate_first_round(t, org)
    groups = {}
    for m in GroupMember.objects.filter(stage=stage_in_play(t)).select_related("pair"):
        groups.setdefault(m.group_name, []).append(m.pair.name)
    assert groups == {"A": ["P1", "P4", "P5", "P8"], "B": ["P2", "P3", "P6", "P7"]}
    assert boards(rnd) == [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P2", "P7"), (4, "P3", "P6")]


def test_too_many_groups_for_the_pairs_is_refused(t, org):
    f.pairs(t, 5)
    services.configure_stage(t, org, format="groups_knockout", group_count=2, qualifiers_per_group=3)
    with pytest.raises(services.Conflict) as error:
        services.generate_first_round(t, org)
    assert error.value.field == "group_count"
    assert not Round.objects.filter(generated_at__isnull=False).exists() and not Match.objects.exists()


def test_swiss_first_round_pairs_top_half_against_bottom_half_and_gives_the_bye_to_the_last(t, org):
    """Round one paired neighbours (P1-P2, P3-P4, P5-P6); FIDE, Challonge and start.gg pair
    the top half against the bottom half (the bye to the last, then P1-P4, P2-P5, P3-P6)."""
    f.pairs(t, 7)
    services.configure_stage(t, org, format="swiss")
    rnd = services.generate_first_round(t, org)
    assert rnd.phase == "swiss"
    assert boards(rnd) == [(1, "P1", "P4"), (2, "P2", "P5"), (3, "P3", "P6")]
    assert [b.pair.name for b in Bye.objects.filter(round=rnd)] == ["P7"]
    assert Stage.objects.get(tournament=t).swiss_rounds == 3


def test_referees_come_from_the_table_assignments(t, org):
    f.pairs(t, 8)
    ref1, ref2, ref3 = (f.referee_of(t, f.user(name)) for name in ("r1", "r2", "r3"))
    services.assign_referee(t, org, table=1, referee=ref1)
    services.assign_referee(t, org, table=2, referee=ref2)
    services.configure_stage(t, org, format="round_robin")
    first = services.upcoming_round(t, org)
    services.assign_referee(t, org, table=2, referee=ref3, round=first)
    rnd = services.generate_first_round(t, org)
    referees = {m.table: m.referee for m in services.round_matches(rnd)}
    assert referees == {1: ref1, 2: ref3, 3: None, 4: None}
    services.assign_referee(t, org, table=3, referee=ref2)
    assert Match.objects.get(round=rnd, table=3).referee == ref2
    services.assign_referee(t, org, table=2, referee=None, round=first)
    assert Match.objects.get(round=rnd, table=2).referee == ref2
    assert not TableAssignment.objects.filter(round=first).exists()
    with pytest.raises(services.TournamentError) as error:
        services.assign_referee(t, org, table=0, referee=ref1)
    assert error.value.field == "table"
