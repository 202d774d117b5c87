"""The captain's link no longer stored in clear: each team's token becomes its keyed digest (what a request
is looked up by, unique) and its sealed text (what the organizer's page shows again), ``tables.token_keys``,
under this site's ``SECRET_KEY``, as the table links (tables 0002). Every existing row is converted, so every
captain's link already given keeps opening its team's page. Reversible: going back unseals the tokens into
the old column."""
from django.db import migrations, models

from tables import token_keys

BATCH = 500


def seal_tokens(apps, schema_editor):
    team_model = apps.get_model("teams", "Team")
    teams = team_model.objects.using(schema_editor.connection.alias).filter(captain_token__isnull=False)
    rows = []
    for row in teams.exclude(captain_token="").only("pk", "captain_token").iterator(chunk_size=BATCH):
        row.captain_digest = token_keys.digest(row.captain_token)
        row.captain_sealed = token_keys.seal(row.captain_token)
        rows.append(row)
    team_model.objects.using(schema_editor.connection.alias).bulk_update(
        rows, ["captain_digest", "captain_sealed"], batch_size=BATCH)


def unseal_tokens(apps, schema_editor):
    team_model = apps.get_model("teams", "Team")
    teams = team_model.objects.using(schema_editor.connection.alias).exclude(captain_sealed="")
    rows = []
    for row in teams.only("pk", "captain_sealed").iterator(chunk_size=BATCH):
        row.captain_token = token_keys.unseal(row.captain_sealed)
        rows.append(row)
    team_model.objects.using(schema_editor.connection.alias).bulk_update(rows, ["captain_token"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ("teams", "0002_knockout_and_captain_links"),
    ]

    operations = [
        migrations.AddField(
            model_name="team", name="captain_digest",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True,
                                   verbose_name="captain's link digest"),
        ),
        migrations.AddField(
            model_name="team", name="captain_sealed",
            field=models.CharField(blank=True, default="", editable=False,
                                   help_text="Who holds the link submits this team's line-ups.", max_length=255,
                                   verbose_name="captain's link, sealed"),
        ),
        migrations.RunPython(seal_tokens, unseal_tokens),
        migrations.RemoveField(model_name="team", name="captain_token"),
        migrations.AddConstraint(
            model_name="team",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("captain_digest__isnull", True), ("captain_sealed", "")),
                                   models.Q(("captain_digest__regex", "^[0-9a-f]{64}$"),
                                            models.Q(("captain_sealed", ""), _negated=True)),
                                   _connector="OR"),
                name="team_captain_digest_shape"),
        ),
    ]
