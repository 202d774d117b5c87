"""The player moves from ``tournaments`` to ``people``: state only, the table
``tournaments_player`` and its rows stay where they are. ``tournaments`` 0017, ``scoring`` 0015 and
``referee`` 0007 repoint their foreign keys and drop the old model from their state.

The content type ``tournaments.player`` (admin log entries, permissions) becomes ``people.player``."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def rename_content_type(apps, schema_editor, old="tournaments", new="people"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label=new, model="player").exists():
        ContentType.objects.using(db).filter(app_label=old, model="player").update(app_label=new)


def rename_content_type_back(apps, schema_editor):
    rename_content_type(apps, schema_editor, old="people", new="tournaments")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0021_audit_actions_merged"),  # the table exists, with every field of tournaments' Player
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("nickname", models.CharField(blank=True, max_length=60, verbose_name="nickname")),
                        ("club", models.CharField(blank=True, max_length=120, verbose_name="club")),
                        ("contact", models.CharField(blank=True, help_text="Phone or e-mail.", max_length=200, verbose_name="contact")),
                        ("call_email", models.BooleanField(default=False, help_text="The player asked (with their PIN, on the pair's page) for an e-mail to their contact when a match of theirs is called to a table.", verbose_name="e-mail when the match is called")),
                        ("pin_hash", models.CharField(blank=True, editable=False, help_text="The personal PIN the player signs súmulas with (art. 25); only its hash is kept.", max_length=128, verbose_name="signing PIN (hash)")),
                        ("entered_by", models.ForeignKey(blank=True, editable=False, help_text="The organizer who entered this player (and their contact): only they read the contact.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="entered by")),
                    ],
                    options={
                        "verbose_name": "player",
                        "verbose_name_plural": "players",
                        "ordering": ["name"],
                        "db_table": "tournaments_player",
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(rename_content_type, rename_content_type_back, elidable=False),
    ]
