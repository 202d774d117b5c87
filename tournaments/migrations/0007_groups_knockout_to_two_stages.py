"""Data migration: a tournament is now an ordered list of stages.

Every generated round gets its stage, every started stage its start time and entrants, and
"groups then knockout" (one stage whose bracket began after the groups) becomes two stages: a
round robin (the groups), then a single-elimination knockout of the top ``qualifiers_per_group``
of each group, which takes over the bracket (its nodes, seeds and rounds) when it was built.
Reversible: the two stages merge back.
"""
from django.db import migrations


def forward(apps, schema_editor):
    Stage = apps.get_model("tournaments", "Stage")
    Round = apps.get_model("tournaments", "Round")
    BracketNode = apps.get_model("tournaments", "BracketNode")
    GroupMember = apps.get_model("tournaments", "GroupMember")
    for stage in Stage.objects.filter(position=1).order_by("pk"):
        rounds = Round.objects.filter(tournament_id=stage.tournament_id, generated_at__isnull=False)
        first = rounds.order_by("number").first()
        if first is not None:
            stage.started_at = first.generated_at
            if stage.bracket_seeds and stage.format != "groups_knockout":
                stage.entrants = list(stage.bracket_seeds)
            else:
                stage.entrants = list(GroupMember.objects.filter(stage=stage).order_by("group", "number")
                                      .values_list("pair_id", flat=True))
        if stage.format == "groups_knockout":
            knockout = Stage.objects.create(
                tournament_id=stage.tournament_id, position=2, name="Knockout", format="single_elimination",
                seeding=stage.seeding, third_place=stage.third_place, qualification="per_group",
                qualifiers_per_group=stage.qualifiers_per_group, tiebreaks=list(stage.tiebreaks),
                standings_lot_seed=stage.standings_lot_seed, walkover_scores=stage.walkover_scores,
                best_of=stage.best_of, bracket_seeds=list(stage.bracket_seeds),
                bracket_first_round=stage.bracket_first_round,
            )
            if stage.bracket_first_round is not None:
                start = Round.objects.filter(tournament_id=stage.tournament_id,
                                             number=stage.bracket_first_round).first()
                knockout.entrants = list(stage.bracket_seeds)
                knockout.started_at = start.generated_at if start is not None else None
                knockout.save(update_fields=["entrants", "started_at"])
                BracketNode.objects.filter(stage=stage).update(stage=knockout)
                rounds.filter(number__gte=stage.bracket_first_round).update(stage=knockout)
            stage.format = "round_robin"
            stage.bracket_seeds, stage.bracket_first_round = [], None
        stage.save()
        rounds.filter(stage__isnull=True).update(stage=stage)


def backward(apps, schema_editor):
    Stage = apps.get_model("tournaments", "Stage")
    BracketNode = apps.get_model("tournaments", "BracketNode")
    for knockout in Stage.objects.filter(position=2, format="single_elimination", qualification="per_group"):
        first = Stage.objects.get(tournament_id=knockout.tournament_id, position=1)
        if first.format != "round_robin" or Stage.objects.filter(tournament_id=knockout.tournament_id,
                                                                  position__gt=2).exists():
            continue
        BracketNode.objects.filter(stage=knockout).update(stage=first)
        first.format = "groups_knockout"
        first.qualifiers_per_group = knockout.qualifiers_per_group
        first.third_place = knockout.third_place
        first.bracket_seeds, first.bracket_first_round = knockout.bracket_seeds, knockout.bracket_first_round
        first.save()
        knockout.delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_stages")]
    operations = [migrations.RunPython(forward, backward)]
