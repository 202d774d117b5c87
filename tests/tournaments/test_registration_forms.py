"""tournaments.forms: the forms the pages use, saving through the services."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.forms import (
    CsvImportForm, ManualResultForm, PairRegistrationForm, StageForm, WalkoverForm, WithdrawalForm,
)
from tournaments.models import Pair, Result

pytestmark = pytest.mark.django_db


def test_pair_registration_form(t, org):
    data = {"name": "Zap", "first_name": "Ana", "first_club": "AABB", "second_name": "Bia",
            "substitute_name": "Caio", "rating": "1500", "seed": "1"}
    pair = PairRegistrationForm(data, tournament=t).save(by=org)
    assert pair.name == "Zap" and pair.substitute.name == "Caio" and pair.first_player.club.name == "AABB"
    assert pair.status == Pair.Status.CONFIRMED
    form = PairRegistrationForm({**data, "name": "zap"}, tournament=t)
    assert form.save(by=org) is None and "name" in form.errors
    form = PairRegistrationForm({**data, "name": "Outra", "seed": "1"}, tournament=t)
    assert form.save(by=org) is None and "seed" in form.errors
    form = PairRegistrationForm({"name": "X", "first_name": "Ana"}, tournament=t)
    assert form.save(by=org) is None and "second_name" in form.errors
    form = PairRegistrationForm({**data, "name": "Y"}, tournament=t)
    assert form.save(by=f.user("x")) is None and form.non_field_errors()


def test_csv_import_form(t, org):
    upload = SimpleUploadedFile("d.csv", b"pair,player 1,player 2\nZap,Ana,Bia\n,Caio,Duda\n")
    form = CsvImportForm({"mode": "valid_rows"}, {"file": upload}, tournament=t)
    report = form.save(by=org)
    assert [p.name for p in report.created] == ["Zap"] and report.errors[0].row == 3


def test_stage_withdrawal_walkover_and_result_forms(t, org):
    pairs = f.pairs(t, 4)
    form = StageForm({"format": "swiss", "seeding": "order", "group_count": 1, "qualifiers_per_group": 2,
                      "tiebreaks": ["matches_won", "buchholz"]}, tournament=t)
    stage = form.save(by=org)
    assert stage.tiebreaks == ["matches_won", "buchholz"] and not stage.third_place
    assert StageForm(tournament=t).initial["format"] == "swiss"
    services.generate_first_round(t, org)
    m1, m2 = Match.objects.order_by("table")
    result = WalkoverForm({"absent": m1.pair_b_id, "reason": "Ausente"}, match=m1).save(by=org)
    assert result.kind == "walkover" and result.absent_id == m1.pair_b_id
    form = ManualResultForm({"winner": m2.pair_a_id, "games_a": 0, "games_b": 1, "points_a": 12, "points_b": 0,
                             "reason": "Art. 26"}, match=m2)
    assert form.save(by=org) is None and "games_a" in form.errors
    form = ManualResultForm({"winner": m2.pair_a_id, "games_a": 1, "games_b": 0, "points_a": 12, "points_b": 0,
                             "reason": "Art. 26"}, match=m2)
    assert form.save(by=org).kind == "manual"
    walkovers = WithdrawalForm({"reason": "Viajou"}, pair=pairs[0]).save(by=org)
    assert walkovers == [] and Pair.objects.get(pk=pairs[0].pk).status == "withdrawn"
    assert Result.objects.count() == 2
